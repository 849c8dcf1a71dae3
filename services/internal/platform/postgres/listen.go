package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ChangeListener keeps one dedicated connection LISTENing on ChangesChannel
// (and on ControlChannel when Control is set) and reports every
// notification, reconnecting with a capped back-off. What it feeds (the
// gateway's edge cache, the website's snapshot) must not trust its own
// state while the listener is offline, since a write made then goes
// unheard: Online says when that is.
//
// With Kept set, the listener stops LISTENing on ChangesChannel once its
// consumers have kept nothing for idleAfter notifications in a row: a
// replica that keeps nothing is then not woken by every write of the site
// (issue 34; the wake-up alone costs about what a bare pgx listener
// spends per notification). Listening(false) tells the consumers first,
// and they keep nothing until Wake brought the LISTEN back and
// Listening(true) said so. ControlChannel is always heard.
type ChangeListener struct {
	// Connect opens the dedicated connection (a LISTEN belongs to its
	// session, so never one that goes back to a pool).
	Connect func(ctx context.Context) (*pgx.Conn, error)
	// Online is told true once the LISTEN is in place (so a write committed
	// before is covered by whatever Online(true) does) and false when the
	// connection is lost.
	Online func(online bool)
	// Changed receives the payload of every notification on
	// ChangesChannel.
	Changed func(payload string)
	// Control, when set, receives the payload of every notification on
	// ControlChannel, which is LISTENed on for the whole session.
	Control func(payload string)
	// Kept, when set, is asked after every notification on ChangesChannel
	// whether the consumers stored anything a write could make stale since
	// it was last asked; nil keeps the LISTEN on ChangesChannel for the
	// whole session. It must be cheap (O(1)): it runs per write heard.
	Kept func() bool
	// Listening is told false before the listener UNLISTENs ChangesChannel
	// (the consumers stop keeping: a write is no longer heard) and true
	// once a LISTEN asked by Wake is in place again (a write committed
	// before is covered by whatever Listening(true) does, as for Online).
	// Online(true) implies listening: a session starts with both LISTENs.
	Listening func(on bool)
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
	// the primary.
	asked atomic.Bool
	// deaf is set while ChangesChannel is not LISTENed on (after Kept said
	// nothing was kept for idleAfter notifications); wake is set by Wake
	// and cleared by the listener when it LISTENs again.
	deaf atomic.Bool
	wake atomic.Bool
	// mu guards waiting and cut: the connection whose wait for a
	// notification is in progress (nil between waits), and whether a
	// stop or an ask cut that wait short (its read deadline moved to now).
	mu      sync.Mutex
	waiting net.Conn
	cut     bool
}

// AskPosition asks the listener to report the primary's WAL position to
// Position soon (the consumer saw a write heard whose position it does
// not know and has a use for it). It never blocks; asks made before the
// listener gets to it are answered by one statement.
func (l *ChangeListener) AskPosition() {
	if l.asked.Swap(true) {
		return // an earlier ask, not yet answered, covers this one
	}
	l.interrupt()
}

// Wake asks the listener to LISTEN on ChangesChannel again, if it stopped:
// a consumer has something to keep. It never blocks; Listening(true) says
// when the LISTEN is in place.
func (l *ChangeListener) Wake() {
	if !l.deaf.Load() || l.wake.Swap(true) {
		return // listening, or an earlier wake not yet acted on covers this one
	}
	l.interrupt()
}

// idleAfter is how many notifications in a row must find the consumers
// keeping nothing before the listener UNLISTENs ChangesChannel. Counted in
// notifications, not in time: a listening replica costs nothing while the
// site is quiet, so a cache kept over a quiet spell stays, and a burst of
// writes that nobody reads between lets go after a few. A wrong guess costs
// one LISTEN and one uncached read (then the cache fills again); a few
// notifications heard for nothing cost about as much.
const idleAfter = 4

// interrupt cuts the wait in progress short, if any: the listener looks at
// asked and its context before every wait, and after this cut.
func (l *ChangeListener) interrupt() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.waiting != nil && !l.cut {
		l.cut = true
		_ = l.waiting.SetReadDeadline(time.Unix(1, 0))
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
	if l.Control != nil {
		if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{ControlChannel}.Sanitize()); err != nil {
			return fmt.Errorf("listen: %w", err)
		}
	}
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{ChangesChannel}.Sanitize()); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	l.deaf.Store(false)
	l.wake.Store(false)
	l.Online(true)
	if err := l.position(ctx, conn); err != nil {
		return err
	}
	l.Logger.Info(l.Name+" online: listening for changes", "channel", ChangesChannel)
	// the end of ctx cuts a wait short as an ask does
	defer context.AfterFunc(ctx, l.interrupt)()
	w := &waitState{conn: conn, nc: conn.PgConn().Conn()}
	for {
		if err := l.next(ctx, w); err != nil {
			return err
		}
	}
}

// waitState is one session's waiting for notifications. The wait is made
// with context.Background and ends by the connection's read deadline: at
// the end of the probe period, or now when asked or stopped (interrupt).
// A cancellable context would have pgx watch it for every notification
// (context.AfterFunc registered and removed per wait), which is a good
// part of what an idle replica spends per write heard (issue 34); the
// deadline is set once per probe period instead.
type waitState struct {
	conn  *pgx.Conn
	nc    net.Conn
	until time.Time // the end of the probe period; zero while no deadline is set
	idle  int       // notifications in a row after which Kept said false
}

// next waits for one notification (or an ask, the probe's time or the end
// of ctx) and acts on it; an error ends the session.
func (l *ChangeListener) next(ctx context.Context, w *waitState) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if l.wake.Swap(false) {
		return l.relisten(ctx, w)
	}
	if l.asked.Swap(false) {
		if err := w.statement(); err != nil {
			return err
		}
		return l.position(ctx, w.conn)
	}
	if w.until.IsZero() {
		w.until = time.Now().Add(l.Probe)
		if err := w.nc.SetReadDeadline(w.until); err != nil {
			return fmt.Errorf("wait for notification: %w", err)
		}
	}
	l.mu.Lock()
	l.waiting = w.nc
	l.mu.Unlock()
	var n *pgconn.Notification
	var err error
	// published before asked, wake and ctx are read, as AskPosition sets
	// asked (Wake wake, and a stop ends ctx) before it looks for a wait to
	// cut: one of the two sees the other
	if !l.asked.Load() && !l.wake.Load() && ctx.Err() == nil {
		n, err = w.conn.WaitForNotification(context.Background())
	}
	l.mu.Lock()
	l.waiting = nil
	cut := l.cut
	l.cut = false
	l.mu.Unlock()
	if cut {
		w.until = time.Time{} // the deadline is in the past: set anew
	}
	switch {
	case err == nil:
		if n != nil {
			return l.heard(ctx, w, n)
		}
		return nil
	case !isTimeout(err):
		return fmt.Errorf("wait for notification: %w", err)
	case cut:
		return nil // asked or stopped: the next call sees which
	default:
		return l.probe(ctx, w)
	}
}

// heard hands one notification to its consumer and, for a write, stops
// listening on ChangesChannel once the consumers kept nothing for
// idleAfter notifications.
func (l *ChangeListener) heard(ctx context.Context, w *waitState, n *pgconn.Notification) error {
	if n.Channel == ControlChannel {
		l.Control(n.Payload)
		return nil
	}
	l.Changed(n.Payload)
	if l.Kept == nil || l.deaf.Load() {
		return nil // a write sent before the UNLISTEN: heard, not counted
	}
	if l.Kept() {
		w.idle = 0
		return nil
	}
	if w.idle++; w.idle < idleAfter {
		return nil
	}
	// the consumers stop keeping before the UNLISTEN: nothing is kept
	// while a write could go unheard
	l.deaf.Store(true)
	l.Listening(false)
	if err := w.statement(); err != nil {
		return err
	}
	if _, err := w.conn.Exec(ctx, "UNLISTEN "+pgx.Identifier{ChangesChannel}.Sanitize()); err != nil {
		return fmt.Errorf("unlisten: %w", err)
	}
	return nil
}

// relisten LISTENs on ChangesChannel again (Wake) and tells the consumers
// once it is in place, with the primary's position if they want it.
func (l *ChangeListener) relisten(ctx context.Context, w *waitState) error {
	if !l.deaf.Load() {
		return nil
	}
	if err := w.statement(); err != nil {
		return err
	}
	if _, err := w.conn.Exec(ctx, "LISTEN "+pgx.Identifier{ChangesChannel}.Sanitize()); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	w.idle = 0
	l.deaf.Store(false)
	l.Listening(true)
	return l.position(ctx, w.conn)
}

// probe pings at the end of a probe period, so a silently dead peer is
// noticed; the next wait starts a new period.
func (l *ChangeListener) probe(ctx context.Context, w *waitState) error {
	if err := w.statement(); err != nil {
		return err
	}
	pctx, pcancel := context.WithTimeout(ctx, l.Probe)
	defer pcancel()
	if err := w.conn.Ping(pctx); err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	return nil
}

// statement clears the read deadline before a statement runs on the
// connection (pgx bounds a statement by its own context).
func (w *waitState) statement() error {
	w.until = time.Time{}
	if err := w.nc.SetReadDeadline(time.Time{}); err != nil {
		return fmt.Errorf("clear read deadline: %w", err)
	}
	return nil
}

// isTimeout says whether a wait ended by its read deadline.
func isTimeout(err error) bool {
	var ne net.Error
	return pgconn.Timeout(err) || (errors.As(err, &ne) && ne.Timeout())
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
