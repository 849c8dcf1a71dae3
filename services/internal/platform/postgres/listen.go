package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ChangeListener keeps one dedicated connection LISTENing on ChangesChannel
// and reports every notification, reconnecting with a capped back-off.
// What it feeds (the gateway's edge cache, the website's snapshot) must not
// trust its own state while the listener is offline, since a write made then
// goes unheard: Online says when that is.
type ChangeListener struct {
	// Connect opens the dedicated connection (a LISTEN belongs to its
	// session, so never one that goes back to a pool).
	Connect func(ctx context.Context) (*pgx.Conn, error)
	// Online is told true once the LISTEN is in place (so a write committed
	// before is covered by whatever Online(true) does) and false when the
	// connection is lost.
	Online func(online bool)
	// Changed receives the payload of every notification.
	Changed func(payload string)
	// Position, when set, receives the primary's WAL position (CurrentLSN,
	// asked on the listening connection) once the LISTEN is in place and
	// after every notification, Changed called: a replica that has
	// replayed it has every write heard so far (readpool.go). One query
	// per notification, none per request.
	Position func(LSN)
	Logger   *slog.Logger
	// Name says in log lines what depends on the listener ("edge cache").
	Name string
	// Probe is how long a quiet connection waits before it is pinged, so a
	// silently dead peer is noticed (default 5s).
	Probe time.Duration
}

// Run listens until ctx ends.
func (l *ChangeListener) Run(ctx context.Context) {
	if l.Probe <= 0 {
		l.Probe = 5 * time.Second
	}
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := l.session(ctx)
		l.Online(false)
		if ctx.Err() != nil {
			return
		}
		l.Logger.Warn(l.Name+" offline: change listener lost", "error", RedactDSN(err.Error()), "retry_in", backoff.String())
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

// session is one connection's life; it returns why the connection ended.
func (l *ChangeListener) session(ctx context.Context) error {
	conn, err := l.Connect(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{ChangesChannel}.Sanitize()); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	l.Online(true)
	if err := l.position(ctx, conn); err != nil {
		return err
	}
	l.Logger.Info(l.Name+" online: listening for changes", "channel", ChangesChannel)
	for {
		wctx, cancel := context.WithTimeout(ctx, l.Probe)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			l.Changed(n.Payload)
			if err := l.position(ctx, conn); err != nil {
				return err
			}
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err):
			pctx, pcancel := context.WithTimeout(ctx, l.Probe)
			err = conn.Ping(pctx)
			pcancel()
			if err != nil {
				return fmt.Errorf("ping: %w", err)
			}
		default:
			return fmt.Errorf("wait for notification: %w", err)
		}
	}
}

// position reports the primary's WAL position to l.Position, if set.
func (l *ChangeListener) position(ctx context.Context, conn *pgx.Conn) error {
	if l.Position == nil {
		return nil
	}
	pctx, cancel := context.WithTimeout(ctx, l.Probe)
	defer cancel()
	at, err := CurrentLSN(pctx, conn)
	if err != nil {
		return err
	}
	l.Position(at)
	return nil
}
