package postgres_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/postgres"
)

// A migration killed half-way (its session terminated, as when the pod is
// killed) leaves the schema at the previous version and clean: replicas
// stay ready on it, and the next start applies the migration again.
// golang-migrate, used before, left the schema dirty and every replica
// unready until someone repaired it (issue 15).
func TestKilledMigrationLeavesSchemaClean(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	ctx := context.Background()
	first := fstest.MapFS{"0001_a.up.sql": {Data: []byte(`CREATE TABLE a (id int);`)}}
	if err := postgres.Migrate(ctx, dsn, "svc", first); err != nil {
		t.Fatal(err)
	}
	slow := fstest.MapFS{
		"0001_a.up.sql": first["0001_a.up.sql"],
		"0002_b.up.sql": {Data: []byte(`CREATE TABLE half (id int); SELECT pg_sleep(30); CREATE TABLE b (id int);`)},
	}
	done := make(chan error, 1)
	go func() { done <- postgres.Migrate(ctx, dsn, "svc", slow) }()

	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		if err := admin.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE query LIKE '%pg_sleep(30)%' AND pid <> pg_backend_pid()`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the migration never started")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := <-done; err == nil {
		t.Fatal("a killed migration must report an error")
	}
	pool, err := postgres.Open(ctx, dsn, "svc")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := postgres.CheckMigrated(ctx, pool, 1); err != nil {
		t.Fatalf("after the kill, replicas of the old version must stay ready: %v", err)
	}
	var half bool
	if err := pool.QueryRow(ctx, "SELECT to_regclass('half') IS NOT NULL").Scan(&half); err != nil || half {
		t.Fatalf("half of the killed migration was left behind (%v)", err)
	}
	fixed := fstest.MapFS{"0001_a.up.sql": first["0001_a.up.sql"], "0002_b.up.sql": {Data: []byte(`CREATE TABLE half (id int); CREATE TABLE b (id int);`)}}
	if err := postgres.Migrate(ctx, dsn, "svc", fixed); err != nil {
		t.Fatalf("the next start: %v", err)
	}
	if err := postgres.CheckMigrated(ctx, pool, 2); err != nil {
		t.Fatal(err)
	}
}

// A migration waiting behind another session's lock fails after the lock
// timeout instead of holding the migration lock (and every other replica's
// start-up) for as long as that session lives; a replica waiting for another
// replica's migration gives up after MigrationWait.
func TestMigrationTimeouts(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	ctx := context.Background()
	base := fstest.MapFS{"0001_a.up.sql": {Data: []byte(`CREATE TABLE a (id int);`)}}
	if err := postgres.Migrate(ctx, dsn, "svc", base); err != nil {
		t.Fatal(err)
	}
	blocker, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer blocker.Close(ctx)
	tx, err := blocker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "LOCK TABLE svc.a IN ACCESS SHARE MODE"); err != nil {
		t.Fatal(err)
	}
	alter := fstest.MapFS{"0001_a.up.sql": base["0001_a.up.sql"], "0002_alter.up.sql": {Data: []byte(`ALTER TABLE a ADD COLUMN b int;`)}}
	st := postgres.Settings{MigrationLockTimeout: 300 * time.Millisecond}
	start := time.Now()
	err = postgres.MigrateWith(ctx, dsn, "svc", alter, st)
	if err == nil || !strings.Contains(err.Error(), "lock timeout") {
		t.Fatalf("err = %v, want a lock timeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the blocked migration gave up after %s", d)
	}
	_ = tx.Rollback(ctx)

	// Another replica holds the migration lock.
	key := postgres.AdvisoryKey("siteplane-migrate:svc")
	if _, err := blocker.Exec(ctx, "SELECT pg_advisory_lock($1)", key); err != nil {
		t.Fatal(err)
	}
	err = postgres.MigrateWith(ctx, dsn, "svc", alter, postgres.Settings{MigrationWait: 500 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "another process") {
		t.Fatalf("err = %v, want a bounded wait for the other migrator", err)
	}
	if _, err := blocker.Exec(ctx, "SELECT pg_advisory_unlock($1)", key); err != nil {
		t.Fatal(err)
	}
	if err := postgres.MigrateWith(ctx, dsn, "svc", alter, st); err != nil {
		t.Fatalf("once free: %v", err)
	}
}

// A dirty schema (left by golang-migrate, or a hand-run migration) is not
// migrated over; ForceVersion is the recovery.
func TestDirtySchemaAndForceVersion(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	ctx := context.Background()
	if err := postgres.Migrate(ctx, dsn, "svc", testMigrations); err != nil {
		t.Fatal(err)
	}
	pool, err := postgres.Open(ctx, dsn, "svc")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, "UPDATE schema_migrations SET dirty = true"); err != nil {
		t.Fatal(err)
	}
	if err := postgres.Migrate(ctx, dsn, "svc", testMigrations); !errors.Is(err, postgres.ErrDirty) || !strings.Contains(err.Error(), "--force-version") {
		t.Fatalf("err = %v, want ErrDirty naming the recovery", err)
	}
	if err := postgres.ForceVersion(ctx, dsn, "svc", testMigrations, 9, postgres.Settings{}); err == nil {
		t.Fatal("a version beyond the newest migration must be refused")
	}
	if err := postgres.ForceVersion(ctx, dsn, "svc", testMigrations, 2, postgres.Settings{}); err != nil {
		t.Fatal(err)
	}
	if err := postgres.CheckMigrated(ctx, pool, 2); err != nil {
		t.Fatalf("after --force-version 2: %v", err)
	}
	if err := postgres.Migrate(ctx, dsn, "svc", testMigrations); err != nil {
		t.Fatal(err)
	}
}

// Readiness on its own connection answers while every pooled connection is
// busy, and fails fast when the server is unreachable.
func TestProbeDoesNotWaitForThePool(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	ctx := context.Background()
	if err := postgres.Migrate(ctx, dsn, "svc", testMigrations); err != nil {
		t.Fatal(err)
	}
	pool, err := postgres.OpenWith(ctx, dsn, "svc", postgres.Settings{MaxConns: 1, AcquireTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	conn, err := pool.Acquire(ctx) // the whole pool
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	// The pool's acquire timeout turns a saturated pool into an error...
	start := time.Now()
	_, err = pool.Exec(ctx, "SELECT 1")
	if err == nil || !postgres.Unavailable(err) || time.Since(start) > 3*time.Second {
		t.Fatalf("saturated pool: err = %v after %s, want an unavailable error after about 200ms", err, time.Since(start))
	}
	// ...while the probe answers.
	probe := postgres.NewProbe(dsn, "svc", 2, postgres.Settings{})
	defer probe.Close()
	pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := probe.Check(pctx); err != nil {
		t.Fatalf("probe with a saturated pool: %v", err)
	}
	dead := postgres.NewProbe("postgres://postgres@127.0.0.1:1/x?sslmode=disable", "svc", 2, postgres.Settings{})
	if err := dead.Check(pctx); err == nil {
		t.Fatal("probe of an unreachable server must fail")
	}
}

func TestUnavailableClassification(t *testing.T) {
	ctx := context.Background()
	_, err := pgx.Connect(ctx, "postgres://postgres@127.0.0.1:1/x?sslmode=disable&connect_timeout=1")
	if !postgres.Unavailable(err) {
		t.Errorf("connection refused: %v not unavailable", err)
	}
	if !postgres.Unavailable(postgres.CommitError(errors.New("unexpected EOF"))) || !errors.Is(postgres.CommitError(errors.New("x")), postgres.ErrCommitUnknown) {
		t.Error("a commit without an answer must be unavailable and of unknown outcome")
	}
	if postgres.Unavailable(errors.New("duplicate key")) || postgres.Unavailable(pgx.ErrNoRows) {
		t.Error("data errors are not unavailability")
	}
}
