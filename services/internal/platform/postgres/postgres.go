// Package postgres opens a service's pgx pool and applies its migrations.
//
// Every service owns one PostgreSQL schema, named after the service. The pool
// sets search_path to that schema, so SQL in a service names its tables
// unqualified and can reach no other service's tables by accident.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Open connects a pool to dsn with search_path set to schema and checks that
// the server answers. Errors never contain the DSN (it holds the password).
func Open(ctx context.Context, dsn, schema string) (*pgxpool.Pool, error) {
	cfg, err := poolConfig(dsn, schema)
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open pool: %w", redact(err))
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: ping: %w", redact(err))
	}
	return pool, nil
}

// MigrateAndOpen applies fsys's migrations to schema (Migrate), then opens
// a pool on it (Open): what a service does at start-up and what its
// management subcommands and tests do before touching the database.
func MigrateAndOpen(ctx context.Context, dsn, schema string, fsys fs.FS) (*pgxpool.Pool, error) {
	if err := Migrate(ctx, dsn, schema, fsys); err != nil {
		return nil, err
	}
	return Open(ctx, dsn, schema)
}

func poolConfig(dsn, schema string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgx's parse errors can echo the DSN; say only what kind of problem it is.
		return nil, errors.New("postgres: the database URL cannot be parsed (check its form: postgres://user:password@host:port/db)")
	}
	if schema != "" {
		cfg.ConnConfig.RuntimeParams["search_path"] = pgx.Identifier{schema}.Sanitize()
	}
	if cfg.ConnConfig.RuntimeParams["application_name"] == "" && schema != "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = "siteplane-" + schema
	}
	return cfg, nil
}
