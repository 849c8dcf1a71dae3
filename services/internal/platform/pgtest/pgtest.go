// Package pgtest gives tests a fresh PostgreSQL database on the real server
// that `make test` starts (hack/postgres.sh), so test packages run in parallel
// without sharing state.
//
//	func TestX(t *testing.T) {
//		dsn := pgtest.NewDatabase(t) // created now, dropped when the test ends
//		...
//	}
//
// The server comes from SITEPLANE_TEST_DATABASE_URL (a superuser DSN). Without
// it the test is skipped with a hint, except under CI, where it fails: a CI run
// that silently skipped every database test would prove nothing.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io/fs"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/platform/postgres"
)

// EnvURL names the superuser DSN of the test server.
const EnvURL = "SITEPLANE_TEST_DATABASE_URL"

// ServerURL returns the test server's DSN, skipping or failing t when unset.
func ServerURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvURL)
	if u == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set: run the tests with `make test`", EnvURL)
		}
		t.Skipf("%s is not set: run `make test`, or `hack/postgres.sh start test` and export its DSN", EnvURL)
	}
	return u
}

var unsafe = regexp.MustCompile(`[^a-z0-9_]+`)

// NewDatabase creates an empty database, named after the test, and returns
// its DSN; the database is dropped when t ends.
func NewDatabase(t testing.TB) string {
	t.Helper()
	server := ServerURL(t)
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	name := unsafe.ReplaceAllString(strings.ToLower(t.Name()), "_")
	if len(name) > 40 {
		name = name[:40]
	}
	name = "t_" + name + "_" + hex.EncodeToString(suffix)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatalf("pgtest: connect to the test server: %v", err)
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, server)
		if err != nil {
			t.Logf("pgtest: drop %s: %v", name, err)
			return
		}
		defer c.Close(context.Background())
		if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Logf("pgtest: drop %s: %v", name, err)
		}
	})
	return WithDatabase(server, name)
}

// WithDatabase returns dsn pointing at database name.
func WithDatabase(dsn, name string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		panic("pgtest: server DSN must be a URL: " + err.Error())
	}
	u.Path = "/" + name
	return u.String()
}

// NewPool creates a fresh database, applies migrations to schema exactly as
// a service does at start-up, and returns a pool whose search_path is that
// schema; pool and database go away when t ends.
func NewPool(t testing.TB, schema string, migrations fs.FS) *pgxpool.Pool {
	t.Helper()
	dsn := NewDatabase(t)
	ctx := context.Background()
	pool, err := postgres.MigrateAndOpen(ctx, dsn, schema, migrations)
	if err != nil {
		t.Fatalf("pgtest: %s: %v", schema, err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// ListenChanges opens a connection by cfg LISTENing on the change channel
// (postgres.ChangesChannel), as the gateway's edge cache does, and closes it
// when the test ends. The returned func collects the payloads that arrive
// until none has for 300ms, so a test can ask what a write announced.
func ListenChanges(t testing.TB, cfg *pgx.ConnConfig) func() []string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	if _, err := conn.Exec(ctx, "LISTEN "+postgres.ChangesChannel); err != nil {
		t.Fatal(err)
	}
	return func() []string {
		var got []string
		for {
			wctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
			n, err := conn.WaitForNotification(wctx)
			cancel()
			if err != nil {
				return got
			}
			got = append(got, n.Payload)
		}
	}
}
