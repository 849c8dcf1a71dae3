package gateway

import (
	"sync"

	"siteplane.dev/services/internal/platform/rest"
)

// Extension routes of the cache plugin and host tools (seed §4.5).
// host-tools/v1/host-api reports the site's health and versions
// (hosttools.go). The cache-plugin/* routes would administer the gateway's
// edge cache, which does not exist yet: until it does they stay
// acknowledgements of the declared routes, administrator-only except the
// two public probes (guest/sync, ping). The crawler switch is process
// state, not shared between replicas.

type extensionState struct {
	mu      sync.Mutex
	crawler bool
}

func (g *Gateway) extensionRoutes() []rest.Route {
	st := &extensionState{}
	admin := func(r *rest.Request) error {
		if !callerID(r).Can("manage_options") {
			return rest.Forbidden(r)
		}
		return nil
	}
	ok := func(extra ...rest.Member) func(*rest.Request) (*rest.Response, error) {
		return func(*rest.Request) (*rest.Response, error) {
			return rest.OK(append(rest.Object{{Key: "success", Value: true}}, extra...)), nil
		}
	}
	route := func(ns, path string, methods []string, perm func(*rest.Request) error, h func(*rest.Request) (*rest.Response, error)) rest.Route {
		return rest.Route{Namespace: ns, Path: path, Endpoints: []rest.Endpoint{{Methods: methods, Permission: perm, Handler: h}}}
	}
	var out []rest.Route
	if g.cfg.Site.Extensions.CachePlugin {
		out = append(out,
			route("cache-plugin/v1", "/toggle_crawler_state", rest.Creatable, admin, func(*rest.Request) (*rest.Response, error) {
				st.mu.Lock()
				st.crawler = !st.crawler
				on := st.crawler
				st.mu.Unlock()
				return rest.OK(rest.Object{{Key: "success", Value: true}, {Key: "crawler_enabled", Value: on}}), nil
			}),
			route("cache-plugin/v1", "/tool/check_ip", rest.Readable, admin, func(r *rest.Request) (*rest.Response, error) {
				return rest.OK(rest.Object{{Key: "success", Value: true}, {Key: "ip", Value: clientIP(r)}}), nil
			}),
			route("cache-plugin/v1", "/guest/sync", rest.Readable, nil, ok(rest.Member{Key: "data", Value: []any{}})),
			route("cache-plugin/v1", "/notify_img", rest.Creatable, admin, ok()),
			route("cache-plugin/v1", "/notify_ccss", rest.Creatable, admin, ok()),
			route("cache-plugin/v1", "/notify_ucss", rest.Creatable, admin, ok()),
			route("cache-plugin/v1", "/notify_vpi", rest.Creatable, admin, ok()),
			route("cache-plugin/v1", "/check_img", rest.Creatable, admin, ok()),
			route("cache-plugin/v3", "/ip_validate", rest.Creatable, admin, ok()),
			route("cache-plugin/v3", "/cms_rest_echo", rest.Creatable, admin, func(r *rest.Request) (*rest.Response, error) {
				body := r.JSONParams()
				if body == nil {
					body = map[string]any{}
				}
				return rest.OK(body), nil
			}),
			route("cache-plugin/v3", "/ping", rest.Creatable, nil, ok()),
			route("cache-plugin/v3", "/cdn_status", rest.Creatable, admin, ok()),
			route("cache-plugin/v3", "/err_domains", rest.Creatable, admin, ok()),
		)
	}
	if g.cfg.Site.Extensions.HostTools {
		// Health and versions (hosttools.go), with declared arguments.
		out = append(out, rest.Route{Namespace: "host-tools/v1", Path: "/host-api", Endpoints: []rest.Endpoint{
			{Methods: rest.Creatable, Args: hostAPIArgs(), Permission: admin, Handler: g.serveHostAPI}}})
	}
	return out
}

func clientIP(r *rest.Request) string {
	ip, _ := r.Context().Value(remoteIPKey{}).(string)
	return ip
}
