package rest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/metrics"
	"siteplane.dev/services/pkg/contract"
)

// Options configure a Server.
type Options struct {
	// RootURL is the absolute REST root with a trailing slash, e.g.
	// "https://example.com/cms-json/" (or the plain form
	// "https://example.com/?rest_route=/"). It is announced in the discovery
	// Link header and prefixes self links, Location and pagination links.
	RootURL string
	// Prefix is stripped from the URL path before routing (the gateway
	// serves "/cms-json/..."; services receive bare REST routes and leave it
	// empty). A "rest_route" query parameter always wins over the path.
	Prefix string
	// Caller returns the caller of a request from its context. Nil uses
	// identity.FromContext (the identity middleware's signed header).
	Caller CallerFunc
	// Authenticate, when set, runs before routing; an error (a *Error for a
	// WordPress body) is the response even for unknown routes (§1.1 step 6).
	Authenticate func(*http.Request) error
	// DisableJSONP answers _jsonp requests with rest_callback_disabled.
	DisableJSONP bool
	// MaxBodyBytes limits request bodies (default contract.DefaultMaxBodyBytes).
	MaxBodyBytes int64
	// Logger receives handler failures and panics (default slog.Default()).
	Logger *slog.Logger
}

// Server serves declared routes with WordPress's REST behaviour. It is an
// http.Handler; Do and Check serve in-process (batch) requests.
type Server struct {
	opts   Options
	routes []*compiledRoute
	root   string // RootURL, normalised
	plain  bool   // RootURL uses ?rest_route=
	// discovery is the Link header announcing the API root (shared, never
	// modified).
	discovery []string
}

// New compiles the routes (patterns, schemas, defaults) and returns a
// Server. Routes are matched in the order given.
func New(opts Options, routes ...Route) (*Server, error) {
	s := &Server{opts: opts}
	if s.opts.MaxBodyBytes <= 0 {
		s.opts.MaxBodyBytes = contract.DefaultMaxBodyBytes
	}
	if s.opts.Logger == nil {
		s.opts.Logger = slog.Default()
	}
	root := opts.RootURL
	if root == "" {
		root = "/"
	}
	if i := strings.Index(root, "rest_route="); i >= 0 {
		s.plain = true
		root = root[:i+len("rest_route=")]
	} else if !strings.HasSuffix(root, "/") {
		root += "/"
	}
	s.root = root
	s.discovery = []string{"<" + s.rootLink() + `>; rel="https://api.w.org/"`}
	for i := range routes {
		rt := routes[i]
		cr, err := compileRoute(&rt)
		if err != nil {
			return nil, err
		}
		for j := range rt.Endpoints {
			cacheDefaults(rt.Endpoints[j].Args)
		}
		s.routes = append(s.routes, cr)
	}
	return s, nil
}

// cacheDefaults validates and sanitises callback-free defaults once; the
// result is what every request without the parameter gets.
func cacheDefaults(args Props) {
	for _, a := range args {
		sc := a.Schema
		if sc.Default == nil || sc.Validate != nil || sc.Sanitize != nil || sc.def.ready {
			continue
		}
		var buf [8]pathSeg
		p := newPath(a.Name, buf[:])
		if err := validate(sc.Default, sc, p); err != nil {
			sc.def = defaultCache{ready: true, err: err}
			continue
		}
		v, err := sanitizeArg(sc.Default, sc, p)
		sc.def = defaultCache{ready: true, value: v, err: err}
	}
}

// URL returns the absolute REST URL of route ("/cms/v2/posts" →
// "https://example.com/cms-json/cms/v2/posts").
func (s *Server) URL(route string) string {
	if s.plain {
		if route == "" {
			route = "/"
		}
		return s.root + route
	}
	return s.root + strings.TrimPrefix(route, "/")
}

// appendURL appends URL(route) to buf.
func (s *Server) appendURL(buf []byte, route string) []byte {
	buf = append(buf, s.root...)
	if s.plain {
		if route == "" {
			route = "/"
		}
		return append(buf, route...)
	}
	return append(buf, strings.TrimPrefix(route, "/")...)
}

// rootLink is the API root announced by the discovery header.
func (s *Server) rootLink() string { return s.URL("/") }

// routeOfURL maps an absolute REST URL back to its route.
func (s *Server) routeOfURL(href string) (string, bool) {
	if !strings.HasPrefix(href, s.root) {
		return "", false
	}
	rest := href[len(s.root):]
	if s.plain {
		if i := strings.IndexAny(rest, "&#"); i >= 0 {
			rest = rest[:i]
		}
		return normalizeRoute(rest), true
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	// The root ends with "/", so the route (with its slash) is a substring.
	return normalizeRoute(href[len(s.root)-1 : len(s.root)+len(rest)]), true
}

// match finds the first route matching path with an endpoint for method.
func (s *Server) match(ctx context.Context, route, method string) (*compiledRoute, *Endpoint, map[string]string) {
	for _, cr := range s.routes {
		params, ok := cr.match(route)
		if !ok || cr.Accept != nil && !cr.Accept(ctx, route) {
			continue
		}
		if ep := cr.findEndpoint(method); ep != nil {
			return cr, ep, params
		}
	}
	return nil, nil, nil
}

func (s *Server) caller(ctx context.Context) Caller {
	if s.opts.Caller != nil {
		if c := s.opts.Caller(ctx); c != nil {
			return c
		}
		return Anonymous
	}
	if id := identity.FromContext(ctx); id.LoggedIn() {
		return id
	}
	return Anonymous
}

// Static header values, shared to keep the hot path allocation-free.
var (
	hvJSON          = []string{"application/json; charset=UTF-8"}
	hvJavaScript    = []string{"application/javascript; charset=UTF-8"}
	hvNoIndex       = []string{"noindex"}
	hvNoSniff       = []string{"nosniff"}
	hvExposeHeaders = []string{"X-WP-Total, X-WP-TotalPages, Link"}
	hvAllowHeaders  = []string{"Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type"}
	hvAllowMethods  = []string{"OPTIONS, GET, POST, PUT, PATCH, DELETE"}
	hvTrue          = []string{"true"}
	hvExpires       = []string{"Wed, 11 Jan 1984 05:00:00 GMT"}
	hvNoCacheUser   = []string{"no-cache, must-revalidate, max-age=0, no-store, private"}
	hvNoCache       = []string{"no-cache, must-revalidate, max-age=0"}
)

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// ServeHTTP serves a REST request: the route is the URL path (minus
// Options.Prefix) or the rest_route query parameter. The steps are
// WordPress's serve_request (§1.1), in its order.
func (s *Server) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	h := w.Header()
	query, queryErr := parseInput(hr.URL.RawQuery)
	jp := jsonpOf(query, s.opts.DisableJSONP)
	s.baseHeaders(h, jp.use)
	if jp.asked && !jp.valid(s.opts.DisableJSONP, w) {
		return
	}
	req, overrideHeader := s.newRequest(hr, query)
	req.inputErr = queryErr
	// Step 5: CORS headers on every response.
	h["Access-Control-Expose-Headers"] = hvExposeHeaders
	h["Access-Control-Allow-Headers"] = hvAllowHeaders
	resp, rerr := s.answer(req, hr, w)
	status, header := s.finish(req, resp, rerr)
	cacheHeaders(h, req, overrideHeader, status)
	corsHeaders(h, hr, req)
	mergeHeaders(h, header)
	s.writeBody(w, req, hr, jp, status, header, resp, rerr)
}

// jsonp is the request's _jsonp parameter.
type jsonp struct {
	callback string
	isString bool
	// asked: PHP truthiness decides whether JSONP was asked for: "" and
	// "0" are not; a non-empty array is (and is an invalid callback).
	asked bool
	use   bool // asked and enabled
}

func jsonpOf(query *phpArray, disabled bool) jsonp {
	v, _ := query.get("_jsonp")
	callback, isString := v.(string)
	asked := isString && callback != "" && callback != "0" || !isString && v != nil && toBool(v)
	return jsonp{callback: callback, isString: isString, asked: asked, use: asked && !disabled}
}

// valid is step 2, the JSONP checks; it writes their error (a body without
// "data") and returns false when the request ends there.
func (jp jsonp) valid(disabled bool, w http.ResponseWriter) bool {
	if disabled {
		writeBare(w, "rest_callback_disabled", "JSONP support is disabled on this site.")
		return false
	}
	if !jp.isString || !validCallback(jp.callback) {
		writeBare(w, "rest_callback_invalid", "Invalid JSONP callback function.")
		return false
	}
	return true
}

// baseHeaders is step 1: the headers sent on every response.
func (s *Server) baseHeaders(h http.Header, useJSONP bool) {
	if useJSONP {
		h["Content-Type"] = hvJavaScript
	} else {
		h["Content-Type"] = hvJSON
	}
	h["X-Robots-Tag"] = hvNoIndex
	h["Link"] = s.discovery
	h["X-Content-Type-Options"] = hvNoSniff
}

// newRequest is steps 3-4: the route, the request and the method override
// (_method, or the X-HTTP-Method-Override header, which overrideHeader
// reports for the cache headers of step 10).
func (s *Server) newRequest(hr *http.Request, query *phpArray) (req *Request, overrideHeader bool) {
	route := hr.URL.Path
	if s.opts.Prefix != "" && strings.HasPrefix(route, s.opts.Prefix) {
		route = route[len(s.opts.Prefix):]
	}
	if rr, ok := query.get("rest_route"); ok {
		if str, ok := rr.(string); ok {
			route = str
		}
	}
	req = &Request{
		Method: strings.ToUpper(hr.Method),
		Route:  normalizeRoute(route),
		Header: hr.Header,
		ctx:    hr.Context(),
		srv:    s,
		query:  query,
	}
	if m, ok := query.get("_method"); ok && isScalar(m) {
		req.Method = strings.ToUpper(phpString(m))
	} else if m := hr.Header["X-Http-Method-Override"]; len(m) > 0 && m[0] != "" {
		req.Method = strings.ToUpper(m[0])
		overrideHeader = true
	}
	req.Caller = s.caller(req.ctx)
	return req, overrideHeader
}

// answer is steps 6-9: authentication (its error answers even an unknown
// route), the body, then routing, validation, permission and handler.
func (s *Server) answer(req *Request, hr *http.Request, w http.ResponseWriter) (*Response, *Error) {
	if s.opts.Authenticate != nil {
		if err := s.opts.Authenticate(hr); err != nil {
			return nil, s.asError(req, err)
		}
	}
	if req.inputErr != nil {
		return nil, req.inputErr
	}
	// The route is matched before the body is read: its endpoint bounds
	// the read (Endpoint.MaxBody), and no body is read for no endpoint.
	_, ep, _ := s.match(req.Context(), req.Route, req.Method)
	if err := s.readBody(req, hr, w, ep); err != nil {
		return nil, err
	}
	return s.dispatch(req)
}

// cacheHeaders is step 10: no-cache headers for logged-in callers, and for
// client errors of a request that overrode its method with the header.
func cacheHeaders(h http.Header, req *Request, overrideHeader bool, status int) {
	if req.Caller.LoggedIn() {
		h["Expires"] = hvExpires
		h["Cache-Control"] = hvNoCacheUser
		delete(h, "Last-Modified")
	} else if overrideHeader && status >= 400 && status < 500 {
		h["Expires"] = hvExpires
		h["Cache-Control"] = hvNoCache
		delete(h, "Last-Modified")
	}
}

// corsHeaders is step 11: CORS for requests with an Origin; anonymous GETs
// vary by Origin all the same.
func corsHeaders(h http.Header, hr *http.Request, req *Request) {
	if origin := firstHeader(hr.Header, "Origin"); origin != "" {
		h["Access-Control-Allow-Origin"] = []string{AllowedOrigin(origin)}
		h["Access-Control-Allow-Methods"] = hvAllowMethods
		h["Access-Control-Allow-Credentials"] = hvTrue
		addVaryOrigin(h)
	} else if hr.Method == http.MethodGet && !req.Caller.LoggedIn() {
		addVaryOrigin(h)
	}
}

// mergeHeaders sends the response's own headers as real headers in every
// case; a response Link (pagination) goes before the discovery Link.
func mergeHeaders(h, header http.Header) {
	for k, v := range header {
		if k == "Link" {
			links := make([]string, 0, len(v)+len(h["Link"]))
			h["Link"] = append(append(links, v...), h["Link"]...)
			continue
		}
		h[k] = v
	}
}

// dispatch runs §1.1 step 7 for a prepared request.
func (s *Server) dispatch(req *Request) (*Response, *Error) {
	if req.Method == http.MethodOptions {
		return s.options(req), nil
	}
	cr, ep, params := s.match(req.Context(), req.Route, req.Method)
	if cr == nil {
		return nil, errNoRoute()
	}
	req.route, req.endpoint, req.URLParams, req.Pattern = cr, ep, params, cr.full
	metrics.SetRoute(req.Context(), cr.full)
	if err := req.checkInput(); err != nil {
		return nil, err
	}
	if err := s.prepare(req); err != nil {
		return nil, err
	}
	return s.respond(req)
}

// respond runs the permission check and the handler.
func (s *Server) respond(req *Request) (resp *Response, rerr *Error) {
	defer func() {
		if p := recover(); p != nil {
			s.opts.Logger.ErrorContext(req.Context(), "rest: handler panic", "route", req.Pattern, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			resp, rerr = nil, errInternal()
		}
	}()
	ep := req.endpoint
	if ep.Permission != nil {
		if err := ep.Permission(req); !isNil(err) {
			return nil, s.asError(req, err)
		}
	}
	if ep.Handler == nil {
		return nil, NewError("rest_invalid_handler", "The handler for the route is invalid.", http.StatusInternalServerError)
	}
	resp, err := ep.Handler(req)
	if !isNil(err) {
		return nil, s.asError(req, err)
	}
	if resp == nil {
		resp = &Response{}
	}
	return resp, nil
}

func (s *Server) asError(req *Request, err error) *Error {
	var e *Error
	if errors.As(err, &e) && e != nil {
		return e
	}
	if e := FromUnavailable(err); e != nil {
		s.opts.Logger.WarnContext(req.Context(), "rest: database unavailable", "route", req.Pattern, "error", err)
		return e
	}
	s.opts.Logger.ErrorContext(req.Context(), "rest: request failed", "route", req.Pattern, "error", err)
	return errInternal()
}

// finish computes the status and the response headers, including Allow
// for a matched route (rest_send_allow_header).
func (s *Server) finish(req *Request, resp *Response, rerr *Error) (int, http.Header) {
	var header http.Header
	status := http.StatusOK
	if rerr != nil {
		status = rerr.Status()
	} else {
		header = resp.Header
		if resp.Status != 0 {
			status = resp.Status
		}
	}
	if req.route != nil {
		if allow := s.allowHeader(req, req.route); allow != nil {
			if header == nil {
				header = make(http.Header, 1)
			}
			header["Allow"] = allow
		}
	}
	return status, header
}
