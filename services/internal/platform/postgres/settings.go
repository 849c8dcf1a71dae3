package postgres

import (
	"time"

	"siteplane.dev/services/internal/platform/config"
)

// Environment variables of the database settings (docs/operations.md).
const (
	EnvMaxConns                  = "SITEPLANE_DB_MAX_CONNS"
	EnvAcquireTimeout            = "SITEPLANE_DB_ACQUIRE_TIMEOUT"
	EnvStatementTimeout          = "SITEPLANE_DB_STATEMENT_TIMEOUT"
	EnvConnectTimeout            = "SITEPLANE_DB_CONNECT_TIMEOUT"
	EnvMigrationLockTimeout      = "SITEPLANE_MIGRATION_LOCK_TIMEOUT"
	EnvMigrationStatementTimeout = "SITEPLANE_MIGRATION_STATEMENT_TIMEOUT"
	EnvMigrationWait             = "SITEPLANE_MIGRATION_WAIT"
)

// Settings bound what a service asks of PostgreSQL. The zero value of a
// field means its default (DefaultSettings).
type Settings struct {
	// MaxConns is the pool size per process.
	MaxConns int32
	// AcquireTimeout bounds the wait for a pooled connection: a saturated
	// pool or an unreachable server answers 503 after it, not a hang.
	AcquireTimeout time.Duration
	// StatementTimeout is the server-side statement_timeout of pooled
	// connections.
	StatementTimeout time.Duration
	// ConnectTimeout bounds establishing one connection.
	ConnectTimeout time.Duration
	// MigrationLockTimeout is lock_timeout while a migration runs: a
	// migration waiting behind another session's lock fails after it.
	MigrationLockTimeout time.Duration
	// MigrationStatementTimeout is statement_timeout while a migration runs.
	MigrationStatementTimeout time.Duration
	// MigrationWait bounds the wait for another replica's migration.
	MigrationWait time.Duration
	// CountQuery, when set, is called after every statement of a pool
	// opened with these settings (siteplane_db_queries_total by pool).
	CountQuery func()
}

// DefaultSettings are the settings without any variable set.
func DefaultSettings() Settings {
	return Settings{
		MaxConns:                  10,
		AcquireTimeout:            5 * time.Second,
		StatementTimeout:          30 * time.Second,
		ConnectTimeout:            5 * time.Second,
		MigrationLockTimeout:      10 * time.Second,
		MigrationStatementTimeout: 10 * time.Minute,
		MigrationWait:             15 * time.Minute,
	}
}

// SettingsFromConfig reads the SITEPLANE_DB_* and SITEPLANE_MIGRATION_*
// variables; problems are recorded on cfg.
func SettingsFromConfig(cfg *config.Loader) Settings {
	d := DefaultSettings()
	return Settings{
		MaxConns:                  int32(cfg.Int(EnvMaxConns, int64(d.MaxConns), 1, 1000)),
		AcquireTimeout:            cfg.Duration(EnvAcquireTimeout, d.AcquireTimeout),
		StatementTimeout:          cfg.Duration(EnvStatementTimeout, d.StatementTimeout),
		ConnectTimeout:            cfg.Duration(EnvConnectTimeout, d.ConnectTimeout),
		MigrationLockTimeout:      cfg.Duration(EnvMigrationLockTimeout, d.MigrationLockTimeout),
		MigrationStatementTimeout: cfg.Duration(EnvMigrationStatementTimeout, d.MigrationStatementTimeout),
		MigrationWait:             cfg.Duration(EnvMigrationWait, d.MigrationWait),
	}
}

func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	if s.MaxConns <= 0 {
		s.MaxConns = d.MaxConns
	}
	for _, f := range []struct{ v, def *time.Duration }{
		{&s.AcquireTimeout, &d.AcquireTimeout}, {&s.StatementTimeout, &d.StatementTimeout},
		{&s.ConnectTimeout, &d.ConnectTimeout}, {&s.MigrationLockTimeout, &d.MigrationLockTimeout},
		{&s.MigrationStatementTimeout, &d.MigrationStatementTimeout}, {&s.MigrationWait, &d.MigrationWait},
	} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	return s
}
