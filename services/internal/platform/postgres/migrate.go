package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Migrate applies fsys's pending migrations to schema with DefaultSettings.
func Migrate(ctx context.Context, dsn, schema string, fsys fs.FS) error {
	return MigrateWith(ctx, dsn, schema, fsys, DefaultSettings())
}

// ErrDirty is returned when the schema's version is marked dirty: a
// migration applied by an earlier release (golang-migrate) failed half-way.
// Nothing is applied over it; `<service> migrate --force-version N` records
// the version the schema really is at (docs/operations.md#migrations).
var ErrDirty = errors.New("the schema is marked dirty")

// MigrateWith creates schema if needed and applies every pending migration
// in fsys (NNNN_name.up.sql files at the root of fsys; .down.sql files are
// not used), each in one transaction together with the new version number,
// so a migration killed half-way leaves nothing behind: the schema stays at
// the previous version, not dirty, and the next start applies it again.
//
// Replicas starting together race for the same migrations; a session-level
// advisory lock keyed by the schema serialises them, so each migration runs
// exactly once and the later replica finds nothing to do. A replica waits
// for that lock at most st.MigrationWait, and each migration runs under
// st.MigrationLockTimeout and st.MigrationStatementTimeout: a migration
// stuck behind another session's lock fails (and the process restarts and
// tries again) instead of holding every other replica's start-up forever.
func MigrateWith(ctx context.Context, dsn, schema string, fsys fs.FS, st Settings) error {
	st = st.withDefaults()
	files, err := migrationFiles(fsys)
	if err != nil {
		return err
	}
	return withSchemaLock(ctx, dsn, schema, st, func(conn *pgx.Conn) error {
		v, dirty, err := currentVersion(ctx, conn)
		if err != nil {
			return err
		}
		if dirty {
			return fmt.Errorf("postgres: schema %s at version %d: %w; check it, then run `%s migrate --force-version N`", schema, v, ErrDirty, schema)
		}
		for _, f := range files {
			if f.version <= v {
				continue
			}
			if err := applyOne(ctx, conn, fsys, f, st); err != nil {
				return fmt.Errorf("postgres: apply migration %s to %s: %w", f.name, schema, err)
			}
		}
		return nil
	})
}

// ForceVersion records that schema is at version (not dirty) without
// running anything: the recovery after a migration failed half-way outside
// a transaction, once someone has looked at what it left. Version 0 clears
// the record (every migration runs again). version must not exceed the
// newest migration of fsys.
func ForceVersion(ctx context.Context, dsn, schema string, fsys fs.FS, version int64, st Settings) error {
	st = st.withDefaults()
	latest, err := LatestVersion(fsys)
	if err != nil {
		return err
	}
	if version < 0 || version > latest {
		return fmt.Errorf("postgres: version %d is not between 0 and the newest migration, %d", version, latest)
	}
	return withSchemaLock(ctx, dsn, schema, st, func(conn *pgx.Conn) error {
		return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			return setVersion(ctx, tx, version)
		})
	})
}

// withSchemaLock runs f on a connection holding the schema's migration lock
// (see lockSchema), then releases the lock and closes the connection; a
// failure to release is returned when f itself succeeded.
func withSchemaLock(ctx context.Context, dsn, schema string, st Settings, f func(conn *pgx.Conn) error) (err error) {
	conn, unlock, err := lockSchema(ctx, dsn, schema, st)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	defer func() {
		if uerr := unlock(); uerr != nil && err == nil {
			err = uerr
		}
	}()
	return f(conn)
}

// lockSchema connects for migrations, waits (at most st.MigrationWait) for
// the schema's advisory lock, and makes sure the schema and its version
// table exist.
func lockSchema(ctx context.Context, dsn, schema string, st Settings) (*pgx.Conn, func() error, error) {
	cfg, err := poolConfig(dsn, schema, st)
	if err != nil {
		return nil, nil, err
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: connect for migrations: %w", redact(err))
	}
	lockID := advisoryKey("siteplane-migrate:" + schema)
	deadline := time.Now().Add(st.MigrationWait)
	for {
		var got bool
		if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", lockID).Scan(&got); err != nil {
			conn.Close(context.Background())
			return nil, nil, fmt.Errorf("postgres: migration lock: %w", err)
		}
		if got {
			break
		}
		if time.Now().After(deadline) {
			conn.Close(context.Background())
			return nil, nil, fmt.Errorf("postgres: another process has been migrating schema %s for more than %s", schema, st.MigrationWait)
		}
		select {
		case <-ctx.Done():
			conn.Close(context.Background())
			return nil, nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
	unlock := func() error {
		if _, err := conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", lockID); err != nil {
			return fmt.Errorf("postgres: migration unlock: %w", err)
		}
		return nil
	}
	id := pgx.Identifier{schema}.Sanitize()
	// The table has golang-migrate's layout, which earlier releases used.
	for _, q := range []string{"CREATE SCHEMA IF NOT EXISTS " + id,
		"CREATE TABLE IF NOT EXISTS " + id + ".schema_migrations (version bigint NOT NULL PRIMARY KEY, dirty boolean NOT NULL)"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			_ = unlock()
			conn.Close(context.Background())
			return nil, nil, fmt.Errorf("postgres: prepare schema %s: %w", schema, err)
		}
	}
	return conn, unlock, nil
}

func currentVersion(ctx context.Context, conn *pgx.Conn) (int64, bool, error) {
	v, dirty, err := Version(ctx, conn)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("postgres: read schema version: %w", err)
	}
	return v, dirty, nil
}

func setVersion(ctx context.Context, tx pgx.Tx, v int64) error {
	if _, err := tx.Exec(ctx, "DELETE FROM schema_migrations"); err != nil {
		return err
	}
	if v == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, dirty) VALUES ($1, false)", v)
	return err
}

// applyOne runs one migration file and records its version in a single
// transaction, under the migration timeouts.
func applyOne(ctx context.Context, conn *pgx.Conn, fsys fs.FS, f migrationFile, st Settings) error {
	sql, err := fs.ReadFile(fsys, f.name)
	if err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, fmt.Sprintf("SET LOCAL lock_timeout = %d; SET LOCAL statement_timeout = %d",
			st.MigrationLockTimeout.Milliseconds(), st.MigrationStatementTimeout.Milliseconds())); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, string(sql)); err != nil {
			return err
		}
		return setVersion(ctx, tx, f.version)
	})
}

type migrationFile struct {
	version int64
	name    string
}

// migrationFiles lists fsys's up migrations by version.
func migrationFiles(fsys fs.FS) ([]migrationFile, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("postgres: migrations source: %w", err)
	}
	var out []migrationFile
	seen := map[int64]string{}
	for _, e := range entries {
		name := e.Name()
		v, isUp, ok := upVersion(e)
		if !isUp {
			continue
		}
		if !ok || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a positive version number", name)
		}
		if other, dup := seen[v]; dup {
			return nil, fmt.Errorf("migrations %s and %s have the same version", other, name)
		}
		seen[v] = name
		out = append(out, migrationFile{v, name})
	}
	slices.SortFunc(out, func(a, b migrationFile) int { return cmp.Compare(a.version, b.version) })
	return out, nil
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
		v, isUp, ok := upVersion(e)
		if !isUp {
			continue
		}
		if !ok {
			return 0, fmt.Errorf("migration %s: name must start with a version number", e.Name())
		}
		latest = max(latest, v)
	}
	return latest, nil
}

// upVersion reads the version of an up migration's file, the number before
// the first "_" of NNNN_name.up.sql: isUp says whether e is such a file,
// ok whether its name starts with a number (the callers differ on what
// else they accept).
func upVersion(e fs.DirEntry) (v int64, isUp, ok bool) {
	name := e.Name()
	if e.IsDir() || !strings.HasSuffix(name, ".up.sql") {
		return 0, false, false
	}
	num, _, cut := strings.Cut(name, "_")
	v, err := strconv.ParseInt(num, 10, 64)
	return v, true, cut && err == nil
}

var errUnreachable = errors.New("database unreachable or not migrated")

// CheckMigrated answers whether the database is reachable and its schema is
// at version want or later and not dirty: what a service needs before it is
// ready. One round trip.
func CheckMigrated(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, want int64) error {
	v, dirty, err := Version(ctx, q)
	switch {
	case err != nil:
		return errUnreachable
	case dirty:
		return fmt.Errorf("migration %d failed half-way (dirty)", v)
	case v < want:
		return fmt.Errorf("schema at version %d, want %d", v, want)
	}
	return nil
}
