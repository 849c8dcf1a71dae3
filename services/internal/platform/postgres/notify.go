package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
)

// ChangesChannel is the LISTEN/NOTIFY channel on which every committed write
// of a site is announced. A site has its own database, so the channel is the
// site's: the gateway's edge cache listens on it and drops what it cached
// before the write (services/internal/gateway/edgecache).
const ChangesChannel = "siteplane_changes"

// Execer is what NotifyChanged needs: a transaction (or a pool, after a
// commit).
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// NotifyChanged announces a write on ChangesChannel with payload: the
// writing service's name (a write: every cached answer goes), or the edge
// cache's "purge:<prefix>" (only that prefix goes). Called inside the
// write's transaction:
// PostgreSQL delivers a NOTIFY only when its transaction commits (and
// discards it with a rolled-back savepoint), so listeners never hear of a
// write that did not happen, and never before it is visible.
func NotifyChanged(ctx context.Context, q Execer, payload string) error {
	if _, err := q.Exec(ctx, "SELECT pg_notify($1, $2)", ChangesChannel, payload); err != nil {
		return fmt.Errorf("notify %s: %w", ChangesChannel, err)
	}
	return nil
}
