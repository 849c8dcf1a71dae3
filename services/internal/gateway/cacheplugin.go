package gateway

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"siteplane.dev/services/internal/gateway/edgecache"
	"siteplane.dev/services/internal/platform/rest"
)

// The cache-plugin/* routes administer the edge cache (edgecache, cache.go);
// docs/edge-cache.md describes each. Who may call them:
//   - ping, guest/sync: anyone (liveness probes of the plugin's clients);
//   - every other route: administrators (manage_options).
//
// Purges reach every replica: they are announced on the site's control
// channel with a "purge:" payload (edgecache.Listener, notifier), and
// applied locally at once as well.

const (
	// purgePayload prefixes a purge announced on the control channel.
	purgePayload = edgecache.PurgePayload
	maxPurgeURLs = 100
)

// urlsArg is optional: the seed documents these routes as taking no
// arguments, so a call without urls has a meaning of its own (purgeURLs,
// checkURLs).
func urlsArg(desc string) rest.Prop {
	return rest.Prop{Name: "urls", Schema: &rest.Schema{Description: desc, Type: "array",
		Items: &rest.Schema{Type: "string", Format: "uri"}, MinItems: rest.Ptr(1), MaxItems: rest.Ptr(maxPurgeURLs)}}
}

func purgeArgs() rest.Props {
	return rest.Props{
		{Name: "tags", Schema: &rest.Schema{Description: "REST route prefixes whose cached answers are dropped (\"cms/v2/posts\").",
			Type: "array", Items: &rest.Schema{Type: "string", Pattern: "^/?[a-z0-9][a-z0-9/_.-]*$"}, MaxItems: rest.Ptr(maxPurgeURLs)}},
		{Name: "all", Schema: &rest.Schema{Description: "Drop every cached answer.", Type: "boolean", Default: false}},
	}
}

// cachePathOf maps a site URL to the cache's kind+path prefix: a REST URL
// (pretty or ?rest_route=) to its route, an upload URL to its file path.
// ok is false for a URL of another host or outside both.
func (g *Gateway) cachePathOf(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || g.site == nil || !strings.EqualFold(u.Host, g.site.Host) {
		return "", false
	}
	path := strings.TrimPrefix(u.Path, strings.TrimSuffix(g.site.Path, "/"))
	// The cache holds the seed's names only (alias.go): an alias URL
	// names its cms/v2 twin.
	twin := func(route string) string {
		if g.alias != nil {
			route, _ = aliasRoute(route)
		}
		return kindREST + rest.NormalizeRoute(route)
	}
	switch {
	case u.Query().Has("rest_route"):
		return twin(u.Query().Get("rest_route")), true
	case path == RESTPrefix || strings.HasPrefix(path, RESTPrefix+"/"):
		return kindREST + rest.NormalizeRoute(strings.TrimPrefix(path, RESTPrefix)), true
	case g.alias != nil && (path == AliasPrefix || strings.HasPrefix(path, AliasPrefix+"/")):
		return twin(strings.TrimPrefix(path, AliasPrefix)), true
	case isUpload(path):
		return kindFile + path, true
	}
	return "", false
}

// purge drops the entries under each prefix here and announces it to the
// other replicas; it returns how many entries this replica dropped.
func (g *Gateway) purge(ctx context.Context, prefixes []string) (int, error) {
	n := 0
	for _, p := range prefixes {
		if p == "" {
			// Everything, answers in flight included: a new generation.
			n += g.cfg.Cache.Stats().Entries
			g.cfg.Cache.Bump()
		} else {
			n += g.cfg.Cache.PurgePrefix(p)
		}
		if g.cfg.Notify != nil {
			if err := g.cfg.Notify(ctx, purgePayload+p); err != nil {
				return n, fmt.Errorf("announce purge: %w", err)
			}
		}
	}
	return n, nil
}

// purgeURLs is the notify_* routes: new optimised assets exist for these
// pages, so their cached answers go. Called as the seed writes it, without
// urls, the plugin does not say which pages changed, so every answer goes.
func (g *Gateway) purgeURLs(r *rest.Request) (*rest.Response, error) {
	var prefixes []string
	if !r.Supplied("urls") {
		prefixes = []string{""}
	}
	for _, raw := range r.Strings("urls") {
		p, ok := g.cachePathOf(raw)
		if !ok {
			return nil, &rest.Error{Code: "rest_invalid_param", Message: "Invalid parameter(s): urls", Data: rest.Object{
				{Key: "status", Value: http.StatusBadRequest},
				{Key: "params", Value: rest.Object{{Key: "urls", Value: raw + " is not a REST or upload URL of this site."}}}}}
		}
		prefixes = append(prefixes, p)
	}
	n, err := g.purge(r.Context(), prefixes)
	if err != nil {
		return nil, err
	}
	return rest.OK(rest.Object{{Key: "success", Value: true}, {Key: "purged", Value: n}}), nil
}

// purgeTags is err_domains: purge by route prefix ("tag") or everything.
// The seed's call carries no argument: it means everything, as all=true
// does; all=false without tags purges nothing.
func (g *Gateway) purgeTags(r *rest.Request) (*rest.Response, error) {
	var prefixes []string
	switch {
	case r.Bool("all") || !r.Supplied("all") && !r.Supplied("tags"):
		prefixes = []string{""}
	default:
		for _, tag := range r.Strings("tags") {
			prefixes = append(prefixes, kindREST+rest.NormalizeRoute(tag))
		}
	}
	n, err := g.purge(r.Context(), prefixes)
	if err != nil {
		return nil, err
	}
	return rest.OK(rest.Object{{Key: "success", Value: true}, {Key: "purged", Value: n}}), nil
}

// checkURLs is check_img: whether each URL has a cached answer on this
// replica. Without urls (the seed's call) there is nothing to look up:
// the answer adds how many entries this replica holds, so the call still
// tells the plugin whether anything is cached.
func (g *Gateway) checkURLs(r *rest.Request) (*rest.Response, error) {
	if !r.Supplied("urls") {
		return rest.OK(rest.Object{{Key: "success", Value: true}, {Key: "cached", Value: rest.Object{}},
			{Key: "entries", Value: g.cfg.Cache.Stats().Entries}}), nil
	}
	cached := rest.Object{}
	for _, raw := range r.Strings("urls") {
		p, ok := g.cachePathOf(raw)
		cached = append(cached, rest.Member{Key: raw, Value: ok && g.cfg.Cache.HasPrefix(p)})
	}
	return rest.OK(rest.Object{{Key: "success", Value: true}, {Key: "cached", Value: cached}}), nil
}

// cacheStatus is cdn_status: this replica's cache and the shared crawler
// switch.
func (g *Gateway) cacheStatus(r *rest.Request) (*rest.Response, error) {
	crawler, err := g.crawlerState(r.Context())
	if err != nil {
		return nil, err
	}
	return rest.OK(rest.Object{{Key: "success", Value: true}, {Key: "cache", Value: g.cfg.Cache.Stats()},
		{Key: "crawler_enabled", Value: crawler}}), nil
}

// toggleCrawler flips (or, with "enabled", sets) the crawler switch in one
// statement, so concurrent toggles on two replicas both count.
func (g *Gateway) toggleCrawler(r *rest.Request) (*rest.Response, error) {
	var on bool
	var err error
	if r.Supplied("enabled") {
		err = g.cfg.Store.Pool().QueryRow(r.Context(), `INSERT INTO cache_plugin_state (name, enabled) VALUES ('crawler', $1)
			ON CONFLICT (name) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now() RETURNING enabled`, r.Bool("enabled")).Scan(&on)
	} else {
		err = g.cfg.Store.Pool().QueryRow(r.Context(), `INSERT INTO cache_plugin_state (name, enabled) VALUES ('crawler', true)
			ON CONFLICT (name) DO UPDATE SET enabled = NOT cache_plugin_state.enabled, updated_at = now() RETURNING enabled`).Scan(&on)
	}
	if err != nil {
		return nil, fmt.Errorf("toggle crawler: %w", err)
	}
	return rest.OK(rest.Object{{Key: "success", Value: true}, {Key: "crawler_enabled", Value: on}}), nil
}

func (g *Gateway) crawlerState(ctx context.Context) (bool, error) {
	var on bool
	err := g.cfg.Store.Pool().QueryRow(ctx, `SELECT coalesce((SELECT enabled FROM cache_plugin_state WHERE name = 'crawler'), false)`).Scan(&on)
	if err != nil {
		return false, fmt.Errorf("read crawler state: %w", err)
	}
	return on, nil
}
