package edgecache

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"siteplane.dev/services/internal/platform/postgres"
)

// PurgePayload prefixes a notification that drops only the entries under
// one path prefix (the cache-plugin purge routes); every other payload is a
// write, which starts a new generation.
const PurgePayload = "purge:"

// Listener keeps one dedicated connection LISTENing on the site's change
// channel and bumps the cache's generation for every notification. While it
// is not connected the cache is offline (flushed, bypassed): a write made
// then would go unheard.
type Listener struct {
	Cache *Cache
	// Connect opens the dedicated connection (not a pooled one: a LISTEN
	// belongs to its session).
	Connect func(ctx context.Context) (*pgx.Conn, error)
	Logger  *slog.Logger
	// Probe is how long a quiet connection waits before it is pinged, so a
	// silently dead peer is noticed (default 5s).
	Probe time.Duration
}

// Run listens until ctx ends, reconnecting with a capped back-off.
func (l *Listener) Run(ctx context.Context) {
	if l.Probe <= 0 {
		l.Probe = 5 * time.Second
	}
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := l.session(ctx)
		l.Cache.SetOnline(false)
		if ctx.Err() != nil {
			return
		}
		l.Logger.Warn("edge cache bypassed: change listener lost", "error", postgres.RedactDSN(err.Error()), "retry_in", backoff.String())
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

// session is one connection's life: LISTEN, go online, bump on every
// notification; it returns why the connection ended.
func (l *Listener) session(ctx context.Context) error {
	conn, err := l.Connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{postgres.ChangesChannel}.Sanitize()); err != nil {
		return err
	}
	// Online only now: a write committed before this point is covered by
	// the flush SetOnline does.
	l.Cache.SetOnline(true)
	l.Logger.Info("edge cache online: listening for changes", "channel", postgres.ChangesChannel)
	for {
		wctx, cancel := context.WithTimeout(ctx, l.Probe)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			l.apply(n.Payload)
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err):
			pctx, pcancel := context.WithTimeout(ctx, l.Probe)
			err = conn.Ping(pctx)
			pcancel()
			if err != nil {
				return err
			}
		default:
			return err
		}
	}
}

// apply acts on one notification.
func (l *Listener) apply(payload string) {
	if prefix, ok := strings.CutPrefix(payload, PurgePayload); ok {
		if prefix == "" {
			l.Cache.Bump()
			return
		}
		l.Cache.PurgePrefix(prefix)
		return
	}
	l.Cache.Bump()
}
