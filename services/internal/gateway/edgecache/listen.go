package edgecache

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

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
	// Also hear every notification and the listener's state after the
	// cache did (the gateway's credential cache); nil for none.
	AlsoChanged func(payload string)
	AlsoOnline  func(online bool)
}

// Run listens until ctx ends, reconnecting with a capped back-off.
func (l *Listener) Run(ctx context.Context) {
	online, changed := l.Cache.SetOnline, l.apply
	if l.AlsoOnline != nil {
		online = func(on bool) { l.Cache.SetOnline(on); l.AlsoOnline(on) }
	}
	if l.AlsoChanged != nil {
		changed = func(payload string) { l.apply(payload); l.AlsoChanged(payload) }
	}
	pl := &postgres.ChangeListener{Connect: l.Connect, Online: online, Changed: changed,
		Position: l.Cache.SetPosition, Logger: l.Logger, Name: "edge cache", Probe: l.Probe}
	// the position is asked only when an answer could be kept with it
	l.Cache.SetAsk(pl.AskPosition)
	pl.Run(ctx)
}

// apply acts on one notification.
func (l *Listener) apply(payload string) {
	if prefix, ok := strings.CutPrefix(payload, PurgePayload); ok {
		if prefix == "" {
			l.Cache.Heard()
			return
		}
		l.Cache.PurgePrefix(prefix)
		return
	}
	l.Cache.Heard()
}
