package gateway

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// helpURL is the index's _links.help, as WordPress has it.
const helpURL = "https://developer.wordpress.org/rest-api/"

// helperNamespaces are listed after cms/v2 as the seed's site index lists
// them (WordPress's wp-site-health/v1, wp-block-editor/v1, wp-abilities/v1).
// Their routes are outside the specification: until a service declares some,
// each has just its namespace index (cms-block-editor/v1 has the block
// editor's url-details, urldetails.go).
var helperNamespaces = []string{"cms-site-health/v1", "cms-block-editor/v1", "cms-abilities/v1"}

// merged returns every route description of the site, grouped the way
// WordPress lists them: the root routes ("/", "/batch/v1"), then each
// namespace's index route followed by that namespace's routes, namespaces in
// first-seen order (the gateway's oEmbed and extension namespaces first,
// then the services' in route-file order). A pattern declared twice keeps
// its first declaration.
func (g *Gateway) merged(ctx context.Context) (descs []rest.RouteDescription, namespaces []string) {
	m := g.mergedIndex(ctx)
	return m.descs, m.namespaces
}

// mergedIndex is the merged index with its encoded routes, built once per
// route table and services' descriptions (the gateway's own routes never
// change): the index answers without rebuilding or re-encoding ~100 KB of
// route descriptions per request.
type mergedIndex struct {
	table      *routing.Table
	version    uint64
	descs      []rest.RouteDescription
	namespaces []string

	once   [2]sync.Once
	routes [2]rest.Encoded // without, with schemas (context=help)
}

func (m *mergedIndex) encodedRoutes(withSchema bool) rest.Encoded {
	i := 0
	if withSchema {
		i = 1
	}
	m.once[i].Do(func() { m.routes[i] = rest.Encode(rest.RoutesObject(m.descs, withSchema)) })
	return m.routes[i]
}

func (g *Gateway) mergedIndex(ctx context.Context) *mergedIndex {
	t := g.cfg.Routes.Current()
	indexes, version := g.desc.getVersioned(ctx, t)
	if m := g.index.Load(); m != nil && m.table == t && m.version == version {
		return m
	}
	m := &mergedIndex{table: t, version: version}
	m.descs, m.namespaces = g.merge(t, indexes)
	g.index.Store(m)
	return m
}

// merge builds the merged index from the gateway's own routes and the
// services' indexes.
func (g *Gateway) merge(t *routing.Table, indexes map[string]*serviceIndex) (descs []rest.RouteDescription, namespaces []string) {
	own := g.local.Describe()
	var first, last []rest.RouteDescription
	for _, d := range own {
		if strings.HasPrefix(d.Route, usersRoutePrefix) {
			last = append(last, d) // users live in cms/v2, after the content routes
		} else {
			first = append(first, d)
		}
	}
	all := first
	for _, b := range t.Describing() {
		if si := indexes[b.Name]; si != nil {
			all = append(all, si.index.Routes...)
		}
	}
	all = append(all, last...)

	seen := map[string]bool{}
	byNS := map[string][]rest.RouteDescription{}
	for _, d := range all {
		if seen[d.Route] {
			continue
		}
		seen[d.Route] = true
		if d.Namespace != "" && !slices.Contains(namespaces, d.Namespace) {
			namespaces = append(namespaces, d.Namespace)
		}
		byNS[d.Namespace] = append(byNS[d.Namespace], d)
	}
	// the helper namespaces close the list in the seed's order, whether or
	// not a route of theirs was seen
	namespaces = slices.DeleteFunc(namespaces, func(ns string) bool { return slices.Contains(helperNamespaces, ns) })
	namespaces = append(namespaces, helperNamespaces...)
	descs = append(descs, byNS[""]...)
	for _, ns := range namespaces {
		descs = append(descs, g.namespaceRoute(ns))
		for _, d := range byNS[ns] {
			if d.Route != "/"+ns {
				descs = append(descs, d)
			}
		}
	}
	return descs, namespaces
}

// namespaceRoute describes the route WordPress registers for every
// namespace: GET /{namespace} with args namespace and context.
func (g *Gateway) namespaceRoute(ns string) rest.RouteDescription {
	return rest.RouteDescription{
		Route: "/" + ns, Namespace: ns, Methods: []string{"GET"},
		Endpoints: []rest.EndpointDescription{{Methods: []string{"GET"}, Args: rest.Props{
			{Name: "namespace", Schema: &rest.Schema{Default: ns}},
			{Name: "context", Schema: &rest.Schema{Default: "view"}},
		}}},
		Self: g.local.URL("/" + ns),
	}
}

// describeNamespace is what OPTIONS /{namespace} serves: the namespace's own
// route description, as in the index (WordPress registers one route per
// namespace, so its default and _links.self name that namespace).
func (g *Gateway) describeNamespace(r *rest.Request) (rest.RouteDescription, bool) {
	ns, ok := g.knownNamespace(r.Context(), r.Route)
	if !ok {
		return rest.RouteDescription{}, false
	}
	return g.namespaceRoute(ns), true
}

// isNamespace keeps the namespace-index pattern to announced namespaces:
// "/batch/v1" looks like one but is a POST-only route (GET is rest_no_route).
func (g *Gateway) isNamespace(ctx context.Context, route string) bool {
	_, ok := g.knownNamespace(ctx, route)
	return ok
}

// knownNamespace returns the namespace a route names exactly, if any.
func (g *Gateway) knownNamespace(ctx context.Context, route string) (string, bool) {
	// Namespaces are two segments ("cms/v2"): only "/a/b" can name one, so
	// ordinary requests never pay for the merge.
	if strings.Count(route, "/") != 2 {
		return "", false
	}
	_, namespaces := g.merged(ctx)
	for _, ns := range namespaces {
		if strings.EqualFold(route, "/"+ns) {
			return ns, true
		}
	}
	return "", false
}

// serveIndex is GET / (reference §2.1).
func (g *Gateway) serveIndex(r *rest.Request) (*rest.Response, error) {
	m := g.mergedIndex(r.Context())
	namespaces := m.namespaces
	var routes any = m.encodedRoutes(r.String("context") == "help")
	if strings.Contains(r.String("_fields"), "routes.") {
		// _fields names members inside the routes: the kit filters them
		routes = rest.RoutesObject(m.descs, r.String("context") == "help")
	}
	site := g.siteSettings(r.Context())
	if namespaces == nil {
		namespaces = []string{}
	}
	data := rest.Object{
		{Key: "name", Value: site.Title},
		{Key: "description", Value: site.Description},
		{Key: "url", Value: site.URL},
		{Key: "home", Value: site.URL},
		{Key: "gmt_offset", Value: gmtOffset(site.Location(), g.cfg.Now())},
		{Key: "timezone_string", Value: site.Timezone},
		{Key: "page_for_posts", Value: site.PageForPosts},
		{Key: "page_on_front", Value: site.PageOnFront},
		{Key: "show_on_front", Value: site.ShowOnFront},
		{Key: "namespaces", Value: namespaces},
		{Key: "authentication", Value: rest.Object{{Key: "application-passwords", Value: rest.Object{
			{Key: "endpoints", Value: rest.Object{{Key: "authorization", Value: site.URL + "/cms-admin/authorize-application.php"}}},
		}}}},
		{Key: "routes", Value: routes},
		{Key: "site_logo", Value: 0},
		{Key: "site_icon", Value: 0},
		{Key: "site_icon_url", Value: ""},
	}
	links := rest.Links{{Rel: "help", Href: helpURL}}
	if who := identity.FromContext(r.Context()); who.Can("switch_themes") || who.Can("edit_posts") || who.Can("edit_pages") {
		// callers who may read the active theme (the themes route's rule)
		links = append(links, rest.Link{Rel: rest.APIRelPrefix + "active-theme", Href: g.local.URL("/cms/v2/themes/" + g.cfg.Site.Stylesheet())})
	}
	return rest.OK(rest.Item{Data: data, Links: links}), nil
}

// serveNamespace is GET /{namespace} (reference §2.5).
func (g *Gateway) serveNamespace(r *rest.Request) (*rest.Response, error) {
	want := r.String("namespace")
	descs, namespaces := g.merged(r.Context())
	ns := ""
	for _, n := range namespaces {
		if strings.EqualFold(n, want) {
			ns = n
		}
	}
	if ns == "" {
		return nil, rest.NewError("rest_invalid_namespace", "The specified namespace could not be found.", http.StatusNotFound)
	}
	var mine []rest.RouteDescription
	for _, d := range descs {
		if d.Namespace == ns {
			mine = append(mine, d)
		}
	}
	data := rest.Object{
		{Key: "namespace", Value: ns},
		{Key: "routes", Value: rest.RoutesObject(mine, r.String("context") == "help")},
	}
	return rest.OK(rest.Item{Data: data, Links: rest.Links{{Rel: "up", Href: g.local.URL("/")}}}), nil
}

// gmtOffset is the site's current UTC offset in hours as WordPress stores
// the option: a string such as "0", "5.5" or "-3".
func gmtOffset(loc *time.Location, now time.Time) string {
	_, secs := now.In(loc).Zone()
	return strconv.FormatFloat(float64(secs)/3600, 'f', -1, 64)
}
