package gateway

import (
	"net/netip"

	"siteplane.dev/services/internal/platform/rest"
)

// Extension routes of the cache plugin and host tools (seed §4.5).
// host-tools/v1/host-api reports the site's health and versions
// (hosttools.go). The cache-plugin/* routes administer the gateway's edge
// cache (cacheplugin.go, docs/edge-cache.md): administrator-only except the
// two public probes (guest/sync, ping). Their arguments are declared, so
// the index describes them and the route kit validates them.

func (g *Gateway) extensionRoutes() []rest.Route {
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
	route := func(ns, path string, methods []string, args rest.Props, perm func(*rest.Request) error, h func(*rest.Request) (*rest.Response, error)) rest.Route {
		return rest.Route{Namespace: ns, Path: path, Endpoints: []rest.Endpoint{{Methods: methods, Args: args, Permission: perm, Handler: h}}}
	}
	notifyArgs := rest.Props{urlsArg("Site URLs (REST or upload files) whose cached answers are dropped, on every replica.")}
	var out []rest.Route
	if g.cfg.Site.Extensions.CachePlugin {
		out = append(out,
			route("cache-plugin/v1", "/toggle_crawler_state", rest.Creatable, rest.Props{
				{Name: "enabled", Schema: &rest.Schema{Description: "Set the crawler on or off; without it the switch is flipped.", Type: "boolean"}},
			}, admin, g.toggleCrawler),
			route("cache-plugin/v1", "/tool/check_ip", rest.Readable, nil, admin, func(r *rest.Request) (*rest.Response, error) {
				return rest.OK(rest.Object{{Key: "success", Value: true}, {Key: "ip", Value: clientIP(r)}}), nil
			}),
			route("cache-plugin/v1", "/guest/sync", rest.Readable, nil, nil, ok(rest.Member{Key: "data", Value: []any{}})),
			route("cache-plugin/v1", "/notify_img", rest.Creatable, notifyArgs, admin, g.purgeURLs),
			route("cache-plugin/v1", "/notify_ccss", rest.Creatable, notifyArgs, admin, g.purgeURLs),
			route("cache-plugin/v1", "/notify_ucss", rest.Creatable, notifyArgs, admin, g.purgeURLs),
			route("cache-plugin/v1", "/notify_vpi", rest.Creatable, notifyArgs, admin, g.purgeURLs),
			route("cache-plugin/v1", "/check_img", rest.Creatable, rest.Props{urlsArg("Site URLs to look up in this replica's cache.")}, admin, g.checkURLs),
			route("cache-plugin/v3", "/ip_validate", rest.Creatable, rest.Props{
				{Name: "ip", Schema: &rest.Schema{Description: "The address the caller believes it has; without it, the answer says whether the gateway sees an address at all.", Type: "string", Format: "ip"}},
			}, admin, g.validateIP),
			route("cache-plugin/v3", "/cms_rest_echo", rest.Creatable, nil, admin, func(r *rest.Request) (*rest.Response, error) {
				body := r.JSONParams()
				if body == nil {
					body = map[string]any{}
				}
				return rest.OK(rest.Object{{Key: "success", Value: true}, {Key: "ip", Value: clientIP(r)}, {Key: "echo", Value: body}}), nil
			}),
			route("cache-plugin/v3", "/ping", rest.Creatable, nil, nil, ok()),
			route("cache-plugin/v3", "/cdn_status", rest.Creatable, nil, admin, g.cacheStatus),
			route("cache-plugin/v3", "/err_domains", rest.Creatable, purgeArgs(), admin, g.purgeTags),
		)
	}
	if g.cfg.Site.Extensions.HostTools {
		// Health and versions (hosttools.go), with declared arguments.
		out = append(out, rest.Route{Namespace: "host-tools/v1", Path: "/host-api", Endpoints: []rest.Endpoint{
			{Methods: rest.Creatable, Args: hostAPIArgs(), Permission: admin, Handler: g.serveHostAPI}}})
	}
	return out
}

// validateIP is ip_validate. The seed's call has no ip: there is nothing to
// compare, so "valid" says whether the gateway could tell the caller's
// address, and "ip" is that address.
func (g *Gateway) validateIP(r *rest.Request) (*rest.Response, error) {
	seen := clientIP(r)
	valid := sameIP(seen, seen)
	if r.Supplied("ip") {
		valid = sameIP(r.String("ip"), seen)
	}
	return rest.OK(rest.Object{{Key: "success", Value: true}, {Key: "ip", Value: seen}, {Key: "valid", Value: valid}}), nil
}

func clientIP(r *rest.Request) string {
	ip, _ := r.Context().Value(remoteIPKey{}).(string)
	return ip
}

// sameIP compares two addresses as addresses ("::ffff:192.0.2.1" is
// "192.0.2.1").
func sameIP(a, b string) bool {
	x, err1 := netip.ParseAddr(a)
	y, err2 := netip.ParseAddr(b)
	return err1 == nil && err2 == nil && x.Unmap() == y.Unmap()
}
