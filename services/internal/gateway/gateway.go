// Package gateway is the public entry point of a site: it authenticates
// application passwords, routes REST requests to the owning service with the
// caller's signed identity, proxies the public marketplace and upload URLs,
// and serves the routes it owns itself (index, batch, oEmbed, users,
// extensions, the block editor's url-details).
package gateway

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/gateway/edgecache"
	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/metrics"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// RESTPrefix is the path of the REST root under the site URL ({rest_root}).
const RESTPrefix = "/cms-json"

// Config wires a Gateway.
type Config struct {
	Store  *accounts.Store
	Routes *routing.Source
	Proxy  *routing.Proxy
	// Keys are the internal keys that sign identity headers.
	Keys identity.Keys
	// Secret is the gateway's own, non-rotating secret: the nonce key and
	// the accounts' password pepper derive from it.
	Secret []byte
	Site   contract.Site
	Logger *slog.Logger
	// IdentityTTL is how long a signed identity stays valid (default 2 min).
	IdentityTTL time.Duration
	Now         func() time.Time
	// Throttle limits failed logins at /cms-login.php (default
	// accounts.DefaultThrottle).
	Throttle accounts.Throttle
	// OEmbed configures the oEmbed proxy's outbound fetches.
	OEmbed OEmbedConfig
	// TrustedProxies are the ranges whose X-Forwarded-For is believed
	// (clientaddr.go).
	TrustedProxies []netip.Prefix
	// Cache is the edge cache of anonymous reads (cache.go); nil switches
	// it off.
	Cache *edgecache.Cache
	// Changes holds the site's change generations (a new one for every
	// committed write, heard on siteplane_changes) even when Cache is nil:
	// the settings the index shows are kept for one generation. nil: Cache.
	Changes *edgecache.Cache
	// Notify announces a write of the gateway's own routes to the other
	// replicas (postgres.NotifyChanged); nil for none.
	Notify func(ctx context.Context, payload string) error
	// Credentials caches verified application passwords (credentials.go);
	// nil: every request is checked in the database.
	Credentials *accounts.CredentialCache
}

// Gateway is the gateway's HTTP handler.
type Gateway struct {
	cfg   Config
	local *rest.Server
	// bare answers, with the whole REST pipeline (JSONP checks, _envelope,
	// CORS, Vary, no-cache), what the gateway refuses before any route is
	// involved: failed authentication and routes nobody serves.
	bare *rest.Server
	desc *descriptions
	// index is the merged route index last built (index.go)
	index atomic.Pointer[mergedIndex]
	// settings are the site settings of the current cache generation
	// (settings.go).
	settings settingsMemo
	// site is cfg.Site.URL parsed once (nil if it does not parse): every
	// embedded link and oEmbed URL is compared with it.
	site *url.URL
	// nonces signs REST nonces and form tokens (nonce.go); pages renders
	// the sign-in and authorisation pages (pages.go).
	nonces nonceKeys
	pages  *pageSet
	// admin names the embedded admin bundle's files (admin.go).
	admin  adminBundle
	oembed *oembedProxy
	// urlDetails fetches pages for cms-block-editor/v1/url-details
	// (urldetails.go), as safely as the oEmbed proxy
	urlDetails *safeFetcher
	// alias translates the wp/v2 alias's answers (alias.go); nil when the
	// site does not serve it.
	alias *aliasRewriter
}

// New returns a gateway.
func New(cfg Config) (*Gateway, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.IdentityTTL <= 0 || cfg.IdentityTTL > identity.MaxLifetime {
		cfg.IdentityTTL = 2 * time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Throttle.Window <= 0 {
		cfg.Throttle = accounts.DefaultThrottle
	}
	if cfg.Changes == nil {
		cfg.Changes = cfg.Cache
	}
	g := &Gateway{cfg: cfg, nonces: newNonceKeys(cfg.Secret), pages: loadPages(), admin: embeddedAdmin()}
	g.site, _ = url.Parse(cfg.Site.URL)
	if cfg.Site.WPAlias {
		g.alias = newAliasRewriter(cfg.Site.URL)
	}
	oe, err := newOEmbedProxy(cfg.OEmbed)
	if err != nil {
		return nil, err
	}
	g.oembed = oe
	g.urlDetails = newSafeFetcher(oe.cfg.AllowLoopbackForTests, oe.cfg.Timeout, urlDetailsMaxBytes)
	g.urlDetails.userAgent = "Siteplane-URLDetails (+" + cfg.Site.URL + ")"
	g.desc = newDescriptions(cfg.Proxy.Transport(), g.apiRoot())
	cfg.Routes.OnChange(func(*routing.Table) { g.desc.invalidate() })
	local, err := g.buildLocal()
	if err != nil {
		return nil, err
	}
	g.local = local
	g.bare, err = rest.New(rest.Options{RootURL: g.apiRoot(), Prefix: RESTPrefix, Caller: callerOf, Logger: cfg.Logger,
		Authenticate: func(r *http.Request) error {
			if e, ok := r.Context().Value(earlyErrorKey{}).(*rest.Error); ok {
				return e
			}
			return nil
		}})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// earlyErrorKey carries an error decided before any route ran (failed
// authentication, an unreachable service) to the bare server, which
// answers it like WordPress's authentication errors: whatever the route.
type earlyErrorKey struct{}

// ServeHTTP routes one client request.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if g.alias != nil {
		if ar, ok := aliasRequest(r); ok {
			g.serveAlias(w, ar)
			return
		}
	}
	g.serve(w, r)
}

func (g *Gateway) serve(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	// Read once, as the route kit reads it, for both rest_route checks
	// below: "rest.route" or "+rest_route" is rest_route to the service,
	// so it is to the gateway too.
	query := rest.ParseQuery(r.URL.RawQuery)
	restRoute, hasRoute := query.Scalar("rest_route")
	// A "." or ".." segment is never forwarded: a service might resolve it
	// to somewhere else (its internal endpoints, say).
	dots := hasDotSegment(path) || hasDotSegment(restRoute)
	if strings.HasPrefix(path, "/internal/") {
		// The service-to-service endpoints are served on the internal
		// listener only (InternalHandler); from outside they do not exist.
		metrics.SetRoute(r.Context(), "unmatched")
		rest.WriteError(w, rest.NoRoute())
		return
	}
	// Only the gateway mints identities: whatever a client sent is dropped.
	// So is a replica position to wait for (only serveCached asks one).
	r.Header.Del(contract.IdentityHeader)
	r.Header.Del(postgres.HeaderWantLSN)
	pretty := path == RESTPrefix || strings.HasPrefix(path, RESTPrefix+"/")
	switch {
	case pretty && !hasRoute:
		g.serveREST(w, r, strings.TrimPrefix(path, RESTPrefix), r.URL.RawQuery)
	case hasRoute && (pretty || path == "/" || path == "/index.php"):
		// A rest_route query parameter wins over the pretty path, as
		// WordPress's query vars do (and as the route kit reads it).
		route, query := splitRESTRoute(r.URL.RawQuery)
		g.serveREST(w, r, route, query)
	case dots:
		metrics.SetRoute(r.Context(), "unmatched")
		rest.WriteError(w, rest.NoRoute())
	case isPagePath(path):
		// The sign-in and authorisation pages (pages.go).
		g.servePage(w, r)
	case isAdminPath(path):
		// The admin's screens and bundle (admin.go).
		g.serveAdmin(w, r)
	default:
		g.servePublic(w, r)
	}
}

// splitRESTRoute takes the rest_route parameter (in every spelling the
// route kit reads as it) out of a raw query and keeps the other parameters
// in their order (collection Link headers are built from them). The route
// is the one the kit reads: the last scalar value.
func splitRESTRoute(raw string) (route, query string) {
	route, _ = rest.ParseQuery(raw).Scalar("rest_route")
	var keep []string
	for _, part := range strings.Split(raw, "&") {
		k, _, _ := strings.Cut(part, "=")
		if base, _ := rest.ParamName(k); base == "rest_route" {
			continue
		}
		if part != "" {
			keep = append(keep, part)
		}
	}
	return route, strings.Join(keep, "&")
}

// hasDotSegment reports whether a path has a "." or ".." segment.
func hasDotSegment(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

// servePublic proxies the raw public URLs (marketplace API, upload files)
// untouched: no REST headers, no application-password handling (the
// marketplace checks its own api_key).
func (g *Gateway) servePublic(w http.ResponseWriter, r *http.Request) {
	b, site, ok := g.cfg.Routes.Current().MatchPublicSite(r.URL.Path)
	if !ok {
		metrics.SetRoute(r.Context(), "unmatched")
		rest.WriteError(w, rest.NoRoute())
		return
	}
	if site {
		// Pages go through the edge cache like REST answers: a visitor
		// with any cookie (a session, a post password) bypasses it, and
		// every committed write starts a new generation.
		query := rest.ParseQuery(r.URL.RawQuery)
		if !edgecache.Safe(r, query) {
			w = &bumpOnAnswer{ResponseWriter: w, g: g, ctx: r.Context()}
		}
		g.serveCached(w, r, kindSite, r.URL.Path, edgecache.NormalizeQuery(r.URL.RawQuery), query, func(w http.ResponseWriter) { g.serveSite(w, r, b) })
		return
	}
	metrics.SetRoute(r.Context(), "public:"+b.Name)
	if isUpload(r.URL.Path) {
		g.serveUpload(w, r, b)
		return
	}
	g.cfg.Proxy.Forward(w, r, routing.Target{Backend: b, Path: r.URL.Path, RawQuery: r.URL.RawQuery, DropHeaders: publicCredentials(r)})
}

// publicCredentials are the client's credentials a public URL's service
// has no use for, which the gateway therefore never forwards: media gets
// the caller's signed identity for uploaded files instead (uploads.go),
// never the credentials themselves; the marketplace authenticates its own API keys (an
// api_key parameter or "Authorization: Bearer"), never a session cookie or
// the site's Basic credentials.
func publicCredentials(r *http.Request) []string {
	if isUpload(r.URL.Path) {
		return []string{"Authorization", "Cookie"}
	}
	if a := r.Header.Get("Authorization"); a != "" && !strings.HasPrefix(strings.ToLower(a), "bearer ") {
		return []string{"Authorization", "Cookie"}
	}
	return []string{"Cookie"}
}

// serveREST handles a REST request: headers, authentication before routing,
// then the gateway's own routes or the owning service.
func (g *Gateway) serveREST(w http.ResponseWriter, r *http.Request, route, rawQuery string) {
	w = &wpSpelling{ResponseWriter: w}
	route = rest.NormalizeRoute(route)
	// Read once, as the route kit reads it, for the gateway's own checks
	// (method overrides, _embed, _fields, the cache key): the service
	// behind reads the same query the same way.
	kq := rest.ParseQuery(rawQuery)
	query := kq.Values()
	var bump *bumpOnAnswer
	if !edgecache.Safe(r, kq) {
		bump = &bumpOnAnswer{ResponseWriter: w, g: g, ctx: r.Context()}
		w = bump
	}
	caller, appPassword, err := g.authenticate(w, r)
	if err != nil {
		// §1.1: the JSONP checks come first, then the authentication error
		// is the answer even for an unknown route.
		metrics.SetRoute(r.Context(), "auth")
		g.bare.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), earlyErrorKey{}, err)))
		return
	}
	ctx := identity.NewContext(r.Context(), caller)
	ctx = context.WithValue(ctx, remoteIPKey{}, g.clientAddress(r))
	if appPassword != "" {
		ctx = context.WithValue(ctx, appPasswordKey{}, appPassword)
	}
	r = r.WithContext(ctx)
	if hasDotSegment(route) {
		// No route has such a segment: rest_no_route, after
		// authentication and with the REST headers.
		metrics.SetRoute(r.Context(), "unmatched")
		g.bare.ServeHTTP(w, r)
		return
	}
	if g.owns(r.Context(), route) {
		metrics.SetRoute(r.Context(), "rest:gateway")
		if bump != nil {
			bump.owned = true
			bump.skip = strings.HasPrefix(strings.ToLower(route), "/cache-plugin/")
		}
		if r.Method == http.MethodGet && strings.EqualFold(route, "/oembed/1.0/embed") && query.Get("format") == "xml" &&
			!query.Has("_jsonp") && !query.Has("_envelope") {
			// format=xml is written at serve time (_oembed_rest_pre_serve_request),
			// after the pipeline has set its headers (Allow, Vary, no-cache).
			buf := &bufferedAnswer{header: w.Header()}
			g.local.ServeHTTP(buf, r)
			writeOEmbedXML(w, rest.Result{Status: buf.status, Body: buf.body.Bytes()})
			return
		}
		g.local.ServeHTTP(w, r)
		return
	}
	b, ok := g.cfg.Routes.Current().MatchREST(route)
	if !ok {
		// rest_no_route (OPTIONS: 200 [], so preflights pass), through
		// the same pipeline as every REST answer.
		metrics.SetRoute(r.Context(), "unmatched")
		g.bare.ServeHTTP(w, r)
		return
	}
	g.restHeaders(w.Header(), r)
	metrics.SetRoute(r.Context(), "rest:"+b.Name)
	g.serveCached(w, r, kindREST, route, edgecache.RESTQuery(rawQuery), kq, func(w http.ResponseWriter) {
		g.forwardREST(w, r, b, route, rawQuery, query, caller)
	})
}

// forwardREST proxies to a service. The service sees the REST route as its
// URL path and the caller in the signed identity header.
func (g *Gateway) forwardREST(w http.ResponseWriter, r *http.Request, b *routing.Backend, route, rawQuery string, query url.Values, caller identity.Identity) {
	set := http.Header{}
	if caller.LoggedIn() {
		set.Set(contract.IdentityHeader, g.sign(caller, b.Name))
	}
	ours := w.Header()
	rels, embed := rest.ParseEmbed(query)
	// HEAD has no body to embed into (and must not get "Content-Length: 0").
	embed = embed && fieldsAllowEmbedded(query) && r.Method != http.MethodHead
	enveloped := query.Has("_envelope")
	g.cfg.Proxy.Forward(w, r, routing.Target{
		Backend: b, Path: route, RawQuery: rawQuery, SetHeaders: set,
		// Services trust the signed identity only; the application password
		// itself never leaves the gateway.
		DropHeaders: []string{"Authorization", "Cookie"},
		// 502/503/504 through the REST pipeline too (Vary, no-cache,
		// _envelope, _jsonp), in WordPress's error envelope.
		Errors: func(w http.ResponseWriter, r *http.Request, status int, code, message string) {
			g.bare.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), earlyErrorKey{}, rest.NewError(code, message, status))))
		},
		ModifyResponse: func(res *http.Response) error {
			// The service's values win; ours fill the gaps.
			for k := range res.Header {
				ours.Del(k)
			}
			ct := res.Header.Get("Content-Type")
			if embed && res.StatusCode < 300 && (strings.HasPrefix(ct, "application/json") || strings.HasPrefix(ct, "application/javascript")) {
				return g.embedResponse(r.Context(), res, rels, enveloped)
			}
			return nil
		},
	})
}

// authenticate checks HTTP Basic application-password credentials, else a
// session cookie with its nonce (session.go). No credentials means
// anonymous; bad ones are a 401 with WordPress's codes.
func (g *Gateway) authenticate(w http.ResponseWriter, r *http.Request) (identity.Identity, string, *rest.Error) {
	login, password, ok := accounts.BasicCredentials(r)
	if !ok {
		id, err := g.cookieAuth(w, r)
		return id, "", err
	}
	u, uuid, err := g.checkPassword(r.Context(), login, password, g.clientAddress(r))
	var ae *accounts.AuthError
	var te *accounts.ThrottledError
	switch {
	case errors.As(err, &ae):
		return identity.Identity{}, "", rest.NewError(ae.Code, ae.Message, http.StatusUnauthorized)
	case errors.As(err, &te):
		// Too many failed application passwords for this account or
		// address: refused unchecked until the window ends.
		minutes := int(math.Ceil(te.Wait.Minutes()))
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(te.Wait.Seconds()))))
		return identity.Identity{}, "", rest.NewError("rest_too_many_failed_logins",
			fmt.Sprintf("Too many failed authentication attempts. Please try again in %d minutes.", minutes), http.StatusTooManyRequests)
	case err != nil:
		logging.FromContext(r.Context(), g.cfg.Logger).Error("authentication lookup failed", "error", err.Error())
		return identity.Identity{}, "", rest.NewError("rest_authentication_unavailable", "Authentication is temporarily unavailable.", http.StatusServiceUnavailable)
	}
	return u.Identity(), uuid, nil
}

// appPasswordKey carries the uuid of the application password that
// authenticated the request (introspection).
type appPasswordKey struct{}

// remoteIPKey carries the client's address (the peer of the gateway).
type remoteIPKey struct{}

func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// embedResponse rewrites a service's JSON response with its embeddable
// links resolved (the body is buffered; responses are bounded by the
// services' own page sizes).
func (g *Gateway) embedResponse(ctx context.Context, res *http.Response, rels []string, enveloped bool) error {
	bufs := &embedBuffers{}
	body, err := readBodyInto(res.Body, res.ContentLength, 64<<20, bufs)
	res.Body.Close()
	if err != nil {
		bufs.release()
		return err
	}
	// A JSONP answer (/**/cb(...)) is embedded inside its parentheses.
	prefix, inner, suffix := splitJSONP(body)
	var out []byte
	if enveloped {
		// {"body": ..., "status": ..., "headers": ...}: embed inside "body".
		out = g.embedEnvelope(ctx, inner, rels)
	} else {
		out = g.embedBodyInto(ctx, inner, rels, bufs)
	}
	if len(prefix)+len(suffix) > 0 {
		out = append(append(append(make([]byte, 0, len(prefix)+len(out)+len(suffix)), prefix...), out...), suffix...)
	}
	// the buffers (the list's, content's answer's, out's) go back to
	// the pool when the proxy has written out and closes it
	res.Body = &pooledBody{Reader: bytes.NewReader(out), bufs: bufs}
	res.ContentLength = int64(len(out))
	res.Header.Set("Content-Length", strconv.Itoa(len(out)))
	return nil
}

// splitJSONP splits "/**/cb(" + json + ")" into its three parts; any other
// body is all json.
func splitJSONP(body []byte) (prefix, json, suffix []byte) {
	if !bytes.HasPrefix(body, []byte("/**/")) || !bytes.HasSuffix(body, []byte(")")) {
		return nil, body, nil
	}
	open := bytes.IndexByte(body, '(')
	if open < 0 {
		return nil, body, nil
	}
	return body[:open+1], body[open+1 : len(body)-1], body[len(body)-1:]
}
