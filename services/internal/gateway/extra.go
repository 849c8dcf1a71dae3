package gateway

import "siteplane.dev/services/internal/platform/rest"

// extraRoutes are the gateway's routes beyond the index and batch, in the
// order WordPress registers them: oEmbed, the extensions, then users, then
// url-details (its namespace is placed after cms/v2 by merge).
func (g *Gateway) extraRoutes() []rest.Route {
	var out []rest.Route
	out = append(out, g.oembedRoutes()...)
	out = append(out, g.extensionRoutes()...)
	out = append(out, g.usersRoutes()...)
	out = append(out, g.appPasswordRoutes()...)
	out = append(out, g.urlDetailsRoutes()...)
	return out
}
