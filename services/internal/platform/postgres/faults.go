package postgres

import (
	"context"
	"errors"
	"net"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ErrCommitUnknown wraps a failed COMMIT whose outcome cannot be known: the
// connection broke after the COMMIT was sent, so the server may have made
// the transaction durable or not. Clients are told to retry with the same
// Idempotency-Key (docs/security.md).
var ErrCommitUnknown = errors.New("the commit's outcome is unknown")

// Unavailable reports whether err means the database could not serve the
// request for now (unreachable, restarting, shutting down, out of
// connections, a timeout, a connection broken half-way) rather than that
// the request was wrong: such failures are answered 503 with Retry-After.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrCommitUnknown) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case len(pgErr.Code) == 5 && pgErr.Code[:2] == "08": // connection exception
			return true
		case len(pgErr.Code) == 5 && pgErr.Code[:2] == "53": // insufficient resources (too many connections, disk full)
			return true
		}
		switch pgErr.Code {
		case "57P01", "57P02", "57P03", // admin/crash shutdown, cannot connect now
			"57014",          // query_canceled: statement_timeout
			"55P03",          // lock_not_available: lock_timeout
			"40001", "40P01": // serialization failure, deadlock: try again
			return true
		}
		return false
	}
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) {
		return true
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return true
	}
	if errors.Is(err, pgx.ErrTxClosed) || pgconn.SafeToRetry(err) || pgconn.Timeout(err) {
		return true
	}
	return errors.Is(err, net.ErrClosed) || isConnClosed(err)
}

// isConnClosed recognises pgconn's "conn closed" and unexpected-EOF errors,
// which carry no exported type.
func isConnClosed(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch e.Error() {
		case "conn closed", "unexpected EOF", "EOF":
			return true
		}
	}
	return false
}

// BeginFunc runs f in a transaction on db (a pool, a connection, or a
// transaction for a savepoint) and commits. A COMMIT that fails on a
// broken connection is reported wrapped in ErrCommitUnknown; every other
// failure is returned as is, the transaction rolled back.
func BeginFunc(ctx context.Context, db interface {
	Begin(context.Context) (pgx.Tx, error)
}, f func(pgx.Tx) error) error {
	tx, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after Commit
	if err := f(tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		if _, savepoint := db.(pgx.Tx); savepoint {
			// A savepoint's release decides nothing: the outer commit does.
			return err
		}
		return CommitError(err)
	}
	return nil
}

// CommitError classifies the error of a COMMIT: when the server answered
// (a deferred constraint, a serialization failure), it did not commit and
// err is returned as is; otherwise the connection broke with the COMMIT in
// flight and err is wrapped in ErrCommitUnknown.
func CommitError(err error) error {
	var pgErr *pgconn.PgError
	if err == nil || errors.As(err, &pgErr) {
		return err
	}
	return errors.Join(ErrCommitUnknown, err)
}
