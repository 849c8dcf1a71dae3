package postgres

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"strconv"
	"strings"

	"github.com/golang-migrate/migrate/v4"
	migratepgx "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// Migrate creates schema if needed and applies every pending migration in
// fsys (golang-migrate's NNNN_name.up.sql files, at the root of fsys).
//
// Replicas starting together race for the same migrations; a session-level
// advisory lock keyed by the schema serialises them, so each migration runs
// exactly once and the later replica finds nothing to do. (golang-migrate
// takes its own lock too, but only after the schema exists; ours also covers
// CREATE SCHEMA.)
func Migrate(ctx context.Context, dsn, schema string, fsys fs.FS) (err error) {
	cfg, err := poolConfig(dsn, schema)
	if err != nil {
		return err
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return fmt.Errorf("postgres: connect for migrations: %w", redact(err))
	}
	defer conn.Close(context.Background())

	lockID := advisoryKey("siteplane-migrate:" + schema)
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", lockID); err != nil {
		return fmt.Errorf("postgres: migration lock: %w", err)
	}
	defer func() {
		if _, uerr := conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", lockID); uerr != nil && err == nil {
			err = fmt.Errorf("postgres: migration unlock: %w", uerr)
		}
	}()
	if _, err := conn.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{schema}.Sanitize()); err != nil {
		return fmt.Errorf("postgres: create schema %s: %w", schema, err)
	}

	src, err := iofs.New(fsys, ".")
	if err != nil {
		return fmt.Errorf("postgres: migrations source: %w", err)
	}
	db := stdlib.OpenDB(*cfg.ConnConfig)
	defer db.Close()
	driver, err := migratepgx.WithInstance(db, &migratepgx.Config{SchemaName: schema, MigrationsTable: "schema_migrations"})
	if err != nil {
		return fmt.Errorf("postgres: migration driver: %w", redact(err))
	}
	m, err := migrate.NewWithInstance("iofs", src, "pgx5", driver)
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	defer m.Close()
	if err := m.Up(); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return fmt.Errorf("postgres: apply migrations to %s: %w", schema, err)
	}
	return nil
}

// Version returns the applied migration version of schema and whether the
// last migration failed half-way (dirty).
func Version(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) (version int64, dirty bool, err error) {
	err = q.QueryRow(ctx, "SELECT version, dirty FROM schema_migrations LIMIT 1").Scan(&version, &dirty)
	return version, dirty, err
}

func advisoryKey(s string) int64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return int64(h.Sum64())
}

// LatestVersion returns the highest migration version in fsys (the number
// before the first "_" of NNNN_name.up.sql files), 0 when there is none.
func LatestVersion(fsys fs.FS) (int64, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return 0, err
	}
	var latest int64
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".up.sql") {
			continue
		}
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil {
			return 0, fmt.Errorf("migration %s: name must start with a version number", name)
		}
		latest = max(latest, v)
	}
	return latest, nil
}

// CheckMigrated answers whether the database is reachable and its schema is
// at version want or later and not dirty: what a service needs before it is
// ready. One round trip.
func CheckMigrated(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, want int64) error {
	v, dirty, err := Version(ctx, q)
	switch {
	case err != nil:
		return errors.New("database unreachable or not migrated")
	case dirty:
		return fmt.Errorf("migration %d failed half-way (dirty)", v)
	case v < want:
		return fmt.Errorf("schema at version %d, want %d", v, want)
	}
	return nil
}
