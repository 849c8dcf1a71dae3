package gateway

import (
	"context"
	"net/http"
	"strings"

	"siteplane.dev/services/internal/gateway/edgecache"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// uploadsPrefix is the public path of uploaded files (served by media),
// which the edge cache keeps besides REST answers and website pages.
const uploadsPrefix = "/cms-content/uploads/"

// Key kinds: a REST route, a file path and a website page never share a
// key.
const (
	kindREST = "rest:"
	kindFile = "file:"
	kindSite = "site:"
)

// serveCached answers an anonymous GET/HEAD from the edge cache, or lets
// fill answer it and keeps the answer when it may be stored. Anything else
// goes straight to fill.
//
// keyQuery is the query in the spelling of the key (edgecache.Key); q is
// the query as the route kit reads it.
func (g *Gateway) serveCached(w http.ResponseWriter, r *http.Request, kind, path, keyQuery string, q rest.Query, fill func(http.ResponseWriter)) {
	c := g.cfg.Cache
	// An identified caller's answer may be theirs alone (a private file):
	// never served from the cache nor stored in it, whatever headers the
	// request still carries.
	if c == nil || !edgecache.Cacheable(r, q) || identity.FromContext(r.Context()).LoggedIn() {
		fill(w)
		return
	}
	// The generation is read before the backend is asked: if a write is
	// heard while the answer is in flight, Put refuses it.
	gen, online := c.Generation()
	if !online {
		if c.Asleep() { // served uncached until the listener hears writes again
			w.Header().Set(edgecache.XCache, "miss")
		}
		fill(w)
		return
	}
	key := edgecache.Key(r.Method, kind, path, keyQuery, r.Header)
	if e, ok := c.Get(key); ok {
		edgecache.Serve(w, r, e)
		return
	}
	w.Header().Set(edgecache.XCache, "miss")
	// a service reading a replica makes sure its position is known past
	// the newest write's (postgres.Route) and says it in its answer
	r.Header.Set(postgres.HeaderWantLSN, c.Want().String())
	rec := edgecache.NewRecorder(w, r, c.MaxEntry())
	fill(rec)
	if e, ok := rec.Entry(); ok {
		c.Put(key, gen, e)
	}
}

// bumpOnAnswer wraps the writer of a request that may write: just before
// its answer starts, the local generation is bumped, so the writer's next
// read (on this replica) never sees an answer cached before its write.
// The write has committed by then (the service answers after its commit).
// owned is set for the gateway's own routes, whose writes no service
// announces: the gateway then notifies the other replicas itself.
type bumpOnAnswer struct {
	http.ResponseWriter
	g     *Gateway
	ctx   context.Context
	owned bool
	// skip: the cache-plugin routes manage the cache explicitly; calling
	// them (a status, a purge) is no write of the site's content.
	skip bool
	done bool
}

func (b *bumpOnAnswer) WriteHeader(code int) {
	if !b.done && code >= 200 {
		// done even when skipping the bump: Write must not send a second
		// WriteHeader (net/http logs each as "superfluous", one line per
		// request any anonymous client can send).
		b.done = true
		if b.skip {
			b.ResponseWriter.WriteHeader(code)
			return
		}
		b.g.cfg.Cache.Bump()
		if b.g.cfg.Changes != b.g.cfg.Cache {
			b.g.cfg.Changes.Bump()
		}
		if b.owned && code < 400 && b.g.cfg.Notify != nil {
			if err := b.g.cfg.Notify(context.WithoutCancel(b.ctx), contract.ServiceGateway); err != nil {
				logging.FromContext(b.ctx, b.g.cfg.Logger).Warn("change notification failed", "error", err.Error())
			}
		}
	}
	b.ResponseWriter.WriteHeader(code)
}

func (b *bumpOnAnswer) Write(p []byte) (int, error) {
	if !b.done {
		b.WriteHeader(http.StatusOK)
	}
	return b.ResponseWriter.Write(p)
}

func (b *bumpOnAnswer) Unwrap() http.ResponseWriter { return b.ResponseWriter }

// isUpload reports whether a public path is an uploaded file.
func isUpload(path string) bool { return strings.HasPrefix(path, uploadsPrefix) }
