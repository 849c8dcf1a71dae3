package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
)

// ChangesChannel is the LISTEN/NOTIFY channel on which every committed write
// of a site is announced. A site has its own database, so the channel is the
// site's: the gateway's edge cache listens on it and drops what it cached
// before the write (services/internal/gateway/edgecache). A replica that
// keeps nothing a write could make stale does not listen on it
// (ChangeListener.Kept): every write would wake it for nothing.
const ChangesChannel = "siteplane_changes"

// ControlChannel carries what every replica must hear whether it keeps
// anything or not: a settings change (contract.SettingsChangedPayload), a
// change of credentials (the gateway's migration 0006 trigger), an edge
// cache purge. A settings or credentials write also changes pages, so it is
// announced on ChangesChannel too.
const ControlChannel = "siteplane_control"

// Execer is what NotifyChanged needs: a transaction (or a pool, after a
// commit).
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// NotifyChanged announces a write on ChangesChannel with payload: the
// writing service's name (a write: every cached answer goes). Called inside
// the write's transaction:
// PostgreSQL delivers a NOTIFY only when its transaction commits (and
// discards it with a rolled-back savepoint), so listeners never hear of a
// write that did not happen, and never before it is visible.
func NotifyChanged(ctx context.Context, q Execer, payload string) error {
	return notify(ctx, q, ChangesChannel, payload)
}

// NotifyControl announces payload on ControlChannel (see there what goes
// on it), in the caller's transaction as NotifyChanged does. Notifications
// of one transaction are delivered in the order they were made, on either
// channel: a settings write notifies the control channel first, so a
// replica reloads the settings before it hears the write as a write.
func NotifyControl(ctx context.Context, q Execer, payload string) error {
	return notify(ctx, q, ControlChannel, payload)
}

func notify(ctx context.Context, q Execer, channel, payload string) error {
	if _, err := q.Exec(ctx, "SELECT pg_notify($1, $2)", channel, payload); err != nil {
		return fmt.Errorf("notify %s: %w", channel, err)
	}
	return nil
}
