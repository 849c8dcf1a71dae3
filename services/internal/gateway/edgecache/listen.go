package edgecache

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/postgres"
)

// PurgePayload prefixes a notification on the control channel that drops
// only the entries under one path prefix (the cache-plugin purge routes);
// every payload on the change channel is a write, which starts a new
// generation.
const PurgePayload = "purge:"

// Listener keeps one dedicated connection LISTENing on the site's change
// channel and bumps the cache's generation for every notification. While it
// is not connected the cache is offline (flushed, bypassed): a write made
// then would go unheard. While the cache keeps nothing it stops LISTENing
// for writes (postgres.ChangeListener.Kept) and a miss asks again; the
// control channel (purges, credential changes) is always heard.
type Listener struct {
	Cache *Cache
	// Connect opens the dedicated connection (not a pooled one: a LISTEN
	// belongs to its session).
	Connect func(ctx context.Context) (*pgx.Conn, error)
	Logger  *slog.Logger
	// Probe is how long a quiet connection waits before it is pinged, so a
	// silently dead peer is noticed (default 5s).
	Probe time.Duration
	// Also hear every notification of the control channel and the
	// listener's state after the cache did (the gateway's credential
	// cache); nil for none.
	AlsoControl func(payload string)
	AlsoOnline  func(online bool)
	// eager LISTENs for writes whatever the cache keeps (tests of what a
	// burst of writes does to a cache nobody reads meanwhile).
	eager bool
}

// Run listens until ctx ends, reconnecting with a capped back-off.
func (l *Listener) Run(ctx context.Context) {
	online, control := l.Cache.SetOnline, l.purge
	if l.AlsoOnline != nil {
		online = func(on bool) { l.Cache.SetOnline(on); l.AlsoOnline(on) }
	}
	if l.AlsoControl != nil {
		control = func(payload string) { l.purge(payload); l.AlsoControl(payload) }
	}
	pl := &postgres.ChangeListener{Connect: l.Connect, Online: online, Changed: l.apply, Control: control,
		Kept: l.Cache.Kept, Listening: l.Cache.SetListening,
		Position: l.Cache.SetPosition, Logger: l.Logger, Name: "edge cache", Probe: l.Probe}
	if l.eager {
		pl.Kept = nil
	}
	// the position is asked only when an answer could be kept with it, the
	// LISTEN for writes only when there is something to keep
	l.Cache.SetAsk(pl.AskPosition)
	l.Cache.SetWake(pl.Wake)
	pl.Run(ctx)
}

// apply acts on one notification of the change channel: a write.
func (l *Listener) apply(string) { l.Cache.Heard() }

// purge acts on one notification of the control channel: a purge drops
// its prefix (all of the cache for none). The others (settings,
// credentials) are writes announced on the change channel too, heard there
// while the cache keeps anything.
func (l *Listener) purge(payload string) {
	prefix, ok := strings.CutPrefix(payload, PurgePayload)
	switch {
	case !ok:
	case prefix == "":
		l.Cache.Heard()
	default:
		l.Cache.PurgePrefix(prefix)
	}
}
