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
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Open connects a pool to dsn with search_path set to schema and checks that
// the server answers. Errors never contain the DSN (it holds the password).
func Open(ctx context.Context, dsn, schema string) (*pgxpool.Pool, error) {
	return OpenWith(ctx, dsn, schema, DefaultSettings())
}

// OpenWith is Open with st's pool size and timeouts.
func OpenWith(ctx context.Context, dsn, schema string, st Settings) (*pgxpool.Pool, error) {
	cfg, err := poolConfig(dsn, schema, st.withDefaults())
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
	return MigrateAndOpenWith(ctx, dsn, schema, fsys, DefaultSettings())
}

// MigrateAndOpenWith is MigrateAndOpen with st.
func MigrateAndOpenWith(ctx context.Context, dsn, schema string, fsys fs.FS, st Settings) (*pgxpool.Pool, error) {
	if err := MigrateWith(ctx, dsn, schema, fsys, st); err != nil {
		return nil, err
	}
	return OpenWith(ctx, dsn, schema, st)
}

func poolConfig(dsn, schema string, st Settings) (*pgxpool.Config, error) {
	st = st.withDefaults()
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
	cfg.MaxConns = st.MaxConns
	cfg.ConnConfig.ConnectTimeout = st.ConnectTimeout
	if _, set := cfg.ConnConfig.RuntimeParams["statement_timeout"]; !set {
		cfg.ConnConfig.RuntimeParams["statement_timeout"] = strconv.FormatInt(st.StatementTimeout.Milliseconds(), 10)
	}
	// A transaction left open by a stuck or vanished client must not hold
	// its locks (and a pool slot) for ever.
	if _, set := cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"]; !set {
		cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"] = "60000"
	}
	if cfg.ConnConfig.Tracer == nil {
		cfg.ConnConfig.Tracer = acquireTimeout{st.AcquireTimeout, st.CountQuery}
	}
	return cfg, nil
}

// acquireTimeout bounds pgxpool's wait for a connection (pgxpool has no
// setting for it): the pool acquires under the context TraceAcquireStart
// returns. As a query tracer it only counts statements (Settings.CountQuery).
type acquireTimeout struct {
	d     time.Duration
	count func()
}

type cancelKey struct{}

func (a acquireTimeout) TraceAcquireStart(ctx context.Context, _ *pgxpool.Pool, _ pgxpool.TraceAcquireStartData) context.Context {
	ctx, cancel := context.WithTimeout(ctx, a.d)
	return context.WithValue(ctx, cancelKey{}, cancel)
}

func (a acquireTimeout) TraceAcquireEnd(ctx context.Context, _ *pgxpool.Pool, _ pgxpool.TraceAcquireEndData) {
	if cancel, ok := ctx.Value(cancelKey{}).(context.CancelFunc); ok {
		cancel()
	}
}

func (acquireTimeout) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

func (a acquireTimeout) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {
	if a.count != nil {
		a.count()
	}
}
