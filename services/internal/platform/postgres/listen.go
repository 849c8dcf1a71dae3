package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
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
	// then only when AskPosition was called since the last answer: a
	// replica that has replayed it has every write heard before the ask
	// (readpool.go). Not asked per notification: every replica hears every
	// write, so a statement per notification is one per write per replica
	// (issue 34); a burst of writes between two reads that need the
	// position costs one.
	Position func(LSN)
	Logger   *slog.Logger
	// Name says in log lines what depends on the listener ("edge cache").
	Name string
	// Probe is how often the connection is pinged, so a silently dead
	// peer is noticed (default 5s): the end of each period of waiting.
	Probe time.Duration

	// asked is set by AskPosition and cleared by the listener when it asks
	// the primary; wait cancels the listener's current wait for a
	// notification (nil between waits).
	asked atomic.Bool
	wait  atomic.Pointer[context.CancelCauseFunc]
}

// errPositionAsked is the cause of a wait cut short by AskPosition.
var errPositionAsked = errors.New("position asked")

// AskPosition asks the listener to report the primary's WAL position to
// Position soon (the consumer saw a write heard whose position it does
// not know and has a use for it). It never blocks; asks made before the
// listener gets to it are answered by one statement.
func (l *ChangeListener) AskPosition() {
	if l.asked.Swap(true) {
		return // an earlier ask, not yet answered, covers this one
	}
	if stop := l.wait.Load(); stop != nil {
		(*stop)(errPositionAsked)
	}
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
	w := &waitCtx{}
	defer w.end(l)
	for {
		if err := l.next(ctx, conn, w); err != nil {
			return err
		}
	}
}

// waitCtx is the context the listener waits for notifications in: made
// once per probe period, not per notification, so a burst of writes heard
// costs no context, timer or cancel function each. AskPosition cancels it.
type waitCtx struct {
	ctx    context.Context
	cancel context.CancelFunc
	stop   context.CancelCauseFunc
}

// renew makes a new wait context when the last one is done.
func (w *waitCtx) renew(ctx context.Context, l *ChangeListener) {
	if w.ctx != nil && w.ctx.Err() == nil {
		return
	}
	w.end(l)
	cctx, stop := context.WithCancelCause(ctx)
	w.ctx, w.cancel = context.WithTimeout(cctx, l.Probe)
	w.stop = stop
	// published before asked is read (next), as AskPosition sets asked
	// before it reads wait: one of the two sees the other. A variable of
	// its own: AskPosition may call it while the next renew runs.
	l.wait.Store(&stop)
}

// end releases the wait context.
func (w *waitCtx) end(l *ChangeListener) {
	if w.ctx == nil {
		return
	}
	l.wait.Store(nil)
	w.cancel()
	w.stop(nil)
	w.ctx = nil
}

// next waits for one notification (or an ask, or the probe's time) and
// acts on it; an error ends the session.
func (l *ChangeListener) next(ctx context.Context, conn *pgx.Conn, w *waitCtx) error {
	w.renew(ctx, l)
	if l.asked.Swap(false) {
		return l.position(ctx, conn)
	}
	n, err := conn.WaitForNotification(w.ctx)
	switch {
	case err == nil:
		l.Changed(n.Payload)
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(context.Cause(w.ctx), errPositionAsked):
		return nil // the next call asks, in a new context
	case errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err):
		// a probe period ended: ping, so a silently dead peer is noticed
		pctx, pcancel := context.WithTimeout(ctx, l.Probe)
		err = conn.Ping(pctx)
		pcancel()
		if err != nil {
			return fmt.Errorf("ping: %w", err)
		}
		return nil
	default:
		return fmt.Errorf("wait for notification: %w", err)
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
