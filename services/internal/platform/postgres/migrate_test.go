package postgres_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/postgres"
)

// Each migration inserts a row into a log table: run twice concurrently, the
// log must hold one row per migration.
var testMigrations = fstest.MapFS{
	"0001_log.up.sql":    {Data: []byte(`CREATE TABLE applied (n int NOT NULL); INSERT INTO applied VALUES (1); SELECT pg_sleep(0.2);`)},
	"0001_log.down.sql":  {Data: []byte(`DROP TABLE applied;`)},
	"0002_more.up.sql":   {Data: []byte(`INSERT INTO applied VALUES (2); CREATE TABLE widget (id bigserial PRIMARY KEY);`)},
	"0002_more.down.sql": {Data: []byte(`DROP TABLE widget;`)},
}

func TestMigrateConcurrentAppliesOnce(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	ctx := context.Background()

	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = postgres.Migrate(ctx, dsn, "svc", testMigrations)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("migrator %d: %v", i, err)
		}
	}

	pool, err := postgres.Open(ctx, dsn, "svc")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var n, distinct int
	if err := pool.QueryRow(ctx, "SELECT count(*), count(DISTINCT n) FROM applied").Scan(&n, &distinct); err != nil {
		t.Fatal(err)
	}
	if n != 2 || distinct != 2 {
		t.Fatalf("applied log has %d rows (%d distinct), want 2: a migration ran more than once", n, distinct)
	}
	v, dirty, err := postgres.Version(ctx, pool)
	if err != nil || v != 2 || dirty {
		t.Fatalf("version = %d dirty=%v err=%v, want 2 clean", v, dirty, err)
	}
	// The tables live in the service's schema, reached through search_path.
	var schema string
	if err := pool.QueryRow(ctx, "SELECT table_schema FROM information_schema.tables WHERE table_name = 'widget'").Scan(&schema); err != nil || schema != "svc" {
		t.Fatalf("widget schema = %q (%v), want svc", schema, err)
	}
}

func TestMigrateFailureIsReported(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	bad := fstest.MapFS{"0001_bad.up.sql": {Data: []byte(`CREATE TABLE x (;`)}}
	if err := postgres.Migrate(context.Background(), dsn, "svc", bad); err == nil {
		t.Fatal("a broken migration must fail start-up")
	}
}

func TestOpenErrorsHideThePassword(t *testing.T) {
	_, err := postgres.Open(context.Background(), "postgres://app:topsecret@127.0.0.1:1/db?connect_timeout=1", "svc")
	if err == nil {
		t.Fatal("expected a connection error")
	}
	if got := err.Error(); strings.Contains(got, "topsecret") {
		t.Fatalf("error leaks the password: %s", got)
	}
}

func TestLatestVersionAndCheckMigrated(t *testing.T) {
	latest, err := postgres.LatestVersion(testMigrations)
	if err != nil || latest != 2 {
		t.Fatalf("LatestVersion = %d, %v; want 2", latest, err)
	}
	if _, err := postgres.LatestVersion(fstest.MapFS{"x_init.up.sql": {}}); err == nil {
		t.Fatal("a migration without a version number must be an error")
	}
	dsn := pgtest.NewDatabase(t)
	ctx := context.Background()
	pool, err := postgres.Open(ctx, dsn, "svc")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := postgres.CheckMigrated(ctx, pool, latest); err == nil {
		t.Fatal("an unmigrated schema must not be ready")
	}
	if err := postgres.Migrate(ctx, dsn, "svc", testMigrations); err != nil {
		t.Fatal(err)
	}
	if err := postgres.CheckMigrated(ctx, pool, latest); err != nil {
		t.Fatalf("migrated schema: %v", err)
	}
	if err := postgres.CheckMigrated(ctx, pool, latest+1); err == nil || !strings.Contains(err.Error(), "want 3") {
		t.Fatalf("an older schema than the binary expects must not be ready: %v", err)
	}
	if _, err := pool.Exec(ctx, "UPDATE schema_migrations SET dirty = true"); err != nil {
		t.Fatal(err)
	}
	if err := postgres.CheckMigrated(ctx, pool, latest); err == nil || !strings.Contains(err.Error(), "dirty") {
		t.Fatalf("a dirty schema must not be ready: %v", err)
	}
}
