package gateway

import (
	"context"
	"strings"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// Route prefixes the gateway serves itself (besides "/", "/batch/v1" and the
// namespace indexes).
const (
	usersRoutePrefix = "/cms/v2/users"
	// urlDetailsRoute is the one cms-block-editor/v1 route the gateway
	// serves (it fetches through the SSRF-safe client); the rest of that
	// namespace belongs to the services.
	urlDetailsRoute = "/" + blockEditorNamespace + "/url-details"
	oembedNamespace = "oembed/1.0"
)

// ownedPrefixes are matched on whole segments, case-insensitively.
func (g *Gateway) ownedPrefixes() []string {
	p := []string{"/" + oembedNamespace, usersRoutePrefix, urlDetailsRoute}
	if g.cfg.Site.Extensions.CachePlugin {
		p = append(p, "/cache-plugin/v1", "/cache-plugin/v3")
	}
	if g.cfg.Site.Extensions.HostTools {
		p = append(p, "/host-tools/v1")
	}
	return p
}

// owns reports whether the gateway serves route itself.
func (g *Gateway) owns(ctx context.Context, route string) bool {
	lr := strings.ToLower(route)
	if lr == "/" || lr == "/batch/v1" {
		return true
	}
	for _, p := range g.ownedPrefixes() {
		if lr == p || strings.HasPrefix(lr, p+"/") {
			return true
		}
	}
	_, ok := g.knownNamespace(ctx, route)
	return ok
}

func callerOf(ctx context.Context) rest.Caller { return identity.FromContext(ctx) }

// buildLocal declares the gateway's own routes with the route kit.
func (g *Gateway) buildLocal() (*rest.Server, error) {
	routes := []rest.Route{
		{Path: "/", Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Args:    rest.Props{{Name: "context", Schema: &rest.Schema{Default: "view"}}},
			Handler: g.serveIndex}}},
		{Path: "/batch/v1", Endpoints: []rest.Endpoint{{Methods: rest.Creatable,
			Args: rest.BatchArgs(maxBatch), Handler: g.serveBatch, MaxBody: maxBatchBody}}},
		// Every namespace's index; described per namespace by merged().
		{Path: `/(?P<namespace>[\w-]+/[\w.-]+)`, Hidden: true, Describe: g.describeNamespace, Accept: g.isNamespace, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Args: rest.Props{
				{Name: "namespace", Schema: &rest.Schema{}},
				{Name: "context", Schema: &rest.Schema{Default: "view"}},
			},
			Handler: g.serveNamespace}}},
	}
	routes = append(routes, g.extraRoutes()...)
	limitBodies(routes)
	return rest.New(rest.Options{RootURL: g.apiRoot(), Prefix: RESTPrefix, Caller: callerOf, Logger: g.cfg.Logger}, routes...)
}

// Body limits of the gateway's own routes (rest.Endpoint.MaxBody), chosen
// from what they need: a batch carries up to 25 writes of any service, so
// it keeps the services' limit; every other route of the gateway (users,
// application passwords, oEmbed, the extensions) takes a few fields.
const (
	maxBatchBody = contract.DefaultMaxBodyBytes
	maxOwnBody   = 1 << 20
)

// limitBodies gives every endpoint that declares no body limit maxOwnBody.
func limitBodies(routes []rest.Route) {
	for i := range routes {
		for j := range routes[i].Endpoints {
			if ep := &routes[i].Endpoints[j]; ep.MaxBody == 0 {
				ep.MaxBody = maxOwnBody
			}
		}
	}
}
