package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"sort"
	"strconv"
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

// writeBody writes the status and the body: the error, the data or their
// _envelope, as JSON or JSONP; nothing for HEAD, 204 or an empty answer.
func (s *Server) writeBody(w http.ResponseWriter, req *Request, hr *http.Request, jp jsonp, status int, header http.Header, resp *Response, rerr *Error) {
	_, envelope := req.query.get("_envelope")
	var body any
	hasBody := true
	if rerr != nil {
		body = rerr.body()
	} else {
		body = resp.Data
		hasBody = resp.Data != nil
	}
	if envelope {
		body = envelopeOf(status, header, body)
		status = http.StatusOK
		hasBody = true
	}
	if req.Method == http.MethodHead || hr.Method == http.MethodHead || status == http.StatusNoContent || !hasBody {
		w.WriteHeader(status)
		return
	}
	if raw, ok := body.(Raw); ok && !jp.use {
		w.Header().Set("Content-Length", strconv.Itoa(len(raw)))
		w.WriteHeader(status)
		_, _ = w.Write(raw)
		return
	}
	bp := bufPool.Get().(*[]byte)
	buf := (*bp)[:0]
	if jp.use {
		buf = append(buf, "/**/"...)
		buf = append(buf, jp.callback...)
		buf = append(buf, '(')
	}
	buf = s.encode(buf, req, body, rerr == nil && !envelope, envelope && rerr == nil)
	if jp.use {
		buf = append(buf, ')')
	}
	// The whole body is known: with its length the answer is not chunked,
	// and a proxy in front (the gateway) copies it without flushing each
	// piece.
	w.Header().Set("Content-Length", strconv.Itoa(len(buf)))
	w.WriteHeader(status)
	_, _ = w.Write(buf)
	if cap(buf) <= 1<<20 {
		*bp = buf
		bufPool.Put(bp)
	}
}

var hvOrigin = []string{"Origin"}

// AllowedOrigin is the Access-Control-Allow-Origin value WordPress answers a
// request's Origin with: the origin through esc_url_raw (control characters
// dropped, spaces encoded, unknown schemes refused), "null" as it is.
func AllowedOrigin(origin string) string {
	if origin == "null" {
		return origin
	}
	return sanitizeURL(origin)
}

func addVaryOrigin(h http.Header) {
	if len(h["Vary"]) == 0 {
		h["Vary"] = hvOrigin
		return
	}
	h["Vary"] = append(h["Vary"][:len(h["Vary"]):len(h["Vary"])], "Origin")
}

// firstHeader reads a header by its canonical name without re-canonicalising.
func firstHeader(h http.Header, canonical string) string {
	if v := h[canonical]; len(v) > 0 {
		return v[0]
	}
	return ""
}

func validCallback(cb string) bool {
	for i := 0; i < len(cb); i++ {
		c := cb[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func writeBare(w http.ResponseWriter, code, message string) {
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(appendJSON(Object{{"code", code}, {"message", message}}, false))
}

// encode writes the body; data bodies get context filtering, _fields and
// targetHints, error bodies are written as they are.
func (s *Server) encode(dst []byte, req *Request, body any, isData, enveloped bool) []byte {
	e := encoder{buf: dst, pretty: req.pretty()}
	if !isData && !enveloped {
		e.value(body)
		return e.buf
	}
	if req.route != nil {
		e.schema = req.route.Schema
		e.ctx = req.ViewContext()
	}
	e.srv, e.req = s, req
	fs := req.fieldSet()
	if enveloped {
		env := body.(Object)
		e.openObject()
		e.key("body")
		e.top(env[0].Value, fs)
		for _, m := range env[1:] {
			e.key(m.Key)
			e.value(m.Value)
		}
		e.closeObject()
		return e.buf
	}
	e.top(body, fs)
	return e.buf
}

func (r *Request) pretty() bool {
	if _, ok := r.query.get("_pretty"); ok {
		return true
	}
	if v, ok := r.json["_pretty"]; ok && v != nil {
		return true
	}
	_, ok := r.form.get("_pretty")
	return ok && r.bodyAccepted()
}

// envelopeOf builds {"body", "status", "headers"} (§1.7).
func envelopeOf(status int, header http.Header, body any) Object {
	hs := make(Object, 0, len(header))
	for _, k := range HeaderKeys(header) {
		hs = append(hs, Member{HeaderName(k), strings.Join(header[k], ", ")})
	}
	var headers any = hs
	if len(hs) == 0 {
		headers = []any{} // PHP's empty array
	}
	return Object{{"body", body}, {"status", status}, {"headers", headers}}
}

// HeaderKeys orders a response's own headers as WordPress lists them in an
// _envelope or a batch response: what the controller set (Location, then
// the collection headers X-WP-Total, X-WP-TotalPages and Link, then any
// other, sorted), and Allow last (rest_send_allow_header runs after the
// controller).
func HeaderKeys(h http.Header) []string {
	keys := make([]string, 0, len(h))
	for _, k := range headerOrder {
		if _, ok := h[k]; ok {
			keys = append(keys, k)
		}
	}
	first := len(keys)
	for k := range h {
		if headerRank(k) < 0 && k != "Allow" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys[first:])
	if _, ok := h["Allow"]; ok {
		keys = append(keys, "Allow")
	}
	return keys
}

var headerOrder = []string{"Location", "X-Wp-Total", "X-Wp-Totalpages", "Link"}

func headerRank(k string) int {
	for i, o := range headerOrder {
		if o == k {
			return i
		}
	}
	return -1
}

// HeaderName spells a canonical header name (as net/http keys it) the way
// WordPress sends it: "X-Wp-Total" is "X-WP-Total". Other names are
// returned unchanged.
func HeaderName(k string) string {
	switch k {
	case "X-Wp-Total":
		return "X-WP-Total"
	case "X-Wp-Totalpages":
		return "X-WP-TotalPages"
	case "X-Wp-Upload-Attachment-Id":
		return "X-WP-Upload-Attachment-ID"
	case "X-Wp-Nonce":
		return "X-WP-Nonce"
	}
	return k
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

// prepare gathers, validates and sanitises the endpoint's arguments:
// invalid JSON, then all missing required arguments at once, then every
// validation failure at once, then sanitisation failures.
func (s *Server) prepare(req *Request) *Error {
	if req.jsonErr != nil {
		return req.jsonErr
	}
	args := req.endpoint.Args
	req.vals = make([]any, len(args))
	var fromDefault [4]uint64
	var missing []string
	for i, a := range args {
		v, ok := req.raw(a.Name)
		if !ok && a.Schema.Default != nil {
			v = a.Schema.Default
			if i < 256 {
				fromDefault[i/64] |= 1 << (i % 64)
			}
		}
		req.vals[i] = v
		if v == nil && a.Schema.Required {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return missingParams(missing)
	}
	var segs [8]pathSeg
	isDefault := func(i int) bool { return i < 256 && fromDefault[i/64]&(1<<(i%64)) != 0 }
	var names []string
	var errs []*Error
	for i, a := range args {
		v := req.vals[i]
		if v == nil {
			continue
		}
		var err *Error
		switch {
		case a.Schema.Validate != nil:
			err = s.callbackError(req, a.Schema.Validate(req, v, a.Name))
		case isDefault(i) && a.Schema.def.ready:
			err = a.Schema.def.err
		default:
			err = validate(v, a.Schema, newPath(a.Name, segs[:]))
		}
		if err != nil {
			names = append(names, a.Name)
			errs = append(errs, err)
		}
	}
	if len(names) > 0 {
		return invalidParams(names, errs)
	}
	for i, a := range args {
		v := req.vals[i]
		if v == nil {
			continue
		}
		var err *Error
		switch {
		case a.Schema.Sanitize != nil:
			sv, e := a.Schema.Sanitize(req, v, a.Name)
			if err = s.callbackError(req, e); err == nil {
				req.vals[i] = sv
			}
		case isDefault(i) && a.Schema.def.ready:
			req.vals[i] = a.Schema.def.value
		default:
			req.vals[i], err = sanitizeArg(v, a.Schema, newPath(a.Name, segs[:]))
		}
		if err != nil {
			names = append(names, a.Name)
			errs = append(errs, err)
		}
	}
	if len(names) > 0 {
		return invalidParams(names, errs)
	}
	return nil
}

// sanitizeArg is the default sanitize_callback: only arguments with a type
// (or a combining keyword) are sanitised.
func sanitizeArg(v any, sc *Schema, p path) (any, *Error) {
	if sc.Type == "" && len(sc.Types) == 0 && len(sc.AnyOf) == 0 && len(sc.OneOf) == 0 {
		return v, nil
	}
	return sanitize(v, sc, p)
}

// errInvalidParameter marks a callback that said "false": WordPress reports
// "Invalid parameter." without details.
var errInvalidParameter = &Error{Message: "Invalid parameter."}

// ErrInvalid is what a ValidateFunc returns to reject a value without a
// specific error (WordPress's validate_callback returning false).
var ErrInvalid error = errInvalidParameter

func (s *Server) callbackError(req *Request, err error) *Error {
	if isNil(err) {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if e := FromUnavailable(err); e != nil {
		s.opts.Logger.WarnContext(req.Context(), "rest: database unavailable", "route", req.Pattern, "error", err)
		return e
	}
	s.opts.Logger.ErrorContext(req.Context(), "rest: argument callback failed", "route", req.Pattern, "error", err)
	return errInternal()
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

// allowedMask runs every endpoint's permission check for req (no check
// counts as allowed) and returns the set of permitted endpoints.
func (s *Server) allowedMask(req *Request, cr *compiledRoute) uint64 {
	var mask uint64
	for i := range cr.Endpoints {
		if i >= 64 {
			break
		}
		ep := &cr.Endpoints[i]
		if ep.Permission == nil || s.permits(req, ep) {
			mask |= 1 << i
		}
	}
	return mask
}

// allowedMethods lists the methods of route whose permission check passes
// for req: upper-case, without duplicates, in declaration order.
func (s *Server) allowedMethods(req *Request, cr *compiledRoute) []string {
	return cr.allow(s.allowedMask(req, cr)).methods
}

func (s *Server) permits(req *Request, ep *Endpoint) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			ok = false
		}
	}()
	return isNil(ep.Permission(req))
}

// isNil reports whether err is nil, including a nil *Error stored in an
// error interface (the result of "return ParseArg(...)" or a nil *Error
// variable returned as error).
func isNil(err error) bool {
	if err == nil {
		return true
	}
	e, ok := err.(*Error)
	return ok && e == nil
}

// allowHeader is the Allow header value for req ("" when nothing is allowed).
func (s *Server) allowHeader(req *Request, cr *compiledRoute) []string {
	return cr.allow(s.allowedMask(req, cr)).header
}

// targetHints computes targetHints.allow of a self link: the link's route
// is matched for GET, its parameters prepared, and every endpoint's
// permission asked, as for the Allow header.
func (s *Server) targetHints(req *Request, href string) []string {
	route, ok := s.routeOfURL(href)
	if !ok {
		return nil
	}
	cr, ep, params := s.match(req.Context(), route, http.MethodGet)
	if cr == nil {
		return nil
	}
	sub := &Request{
		Method: http.MethodGet, Route: route, Pattern: cr.full, URLParams: params,
		Header: req.Header, Caller: req.Caller, ctx: req.ctx, srv: s, route: cr, endpoint: ep,
	}
	if s.prepare(sub) != nil {
		return nil
	}
	return s.allowedMethods(sub, cr)
}

// options answers OPTIONS (§1.9): the description of the first route whose
// pattern matches, whatever the method, with its schema; [] otherwise.
func (s *Server) options(req *Request) *Response {
	for _, cr := range s.routes {
		params, ok := cr.match(req.Route)
		if !ok || cr.Accept != nil && !cr.Accept(req.Context(), req.Route) {
			continue
		}
		req.route, req.URLParams, req.Pattern = cr, params, cr.full
		metrics.SetRoute(req.Context(), cr.full)
		if n := len(cr.Endpoints); n > 0 {
			req.endpoint = &cr.Endpoints[n-1]
		}
		if cr.Describe != nil {
			if d, ok := cr.Describe(req); ok {
				return &Response{Status: http.StatusOK, Data: d.object(true, false)}
			}
		}
		return &Response{Status: http.StatusOK, Data: s.describe(cr).object(true, false)}
	}
	return &Response{Status: http.StatusOK, Data: []any{}}
}

// Call is an in-process request, such as a batch sub-request.
type Call struct {
	// Method defaults to POST (the batch default).
	Method string
	// Path is the REST route with an optional query string:
	// "/cms/v2/posts/5?force=true".
	Path string
	// Body holds the body parameters with their JSON types.
	Body map[string]any
	// Header holds request headers.
	Header http.Header
}

// Result is the outcome of an in-process request.
type Result struct {
	Status int
	Header http.Header
	// Body is the JSON body (links folded in, no embedding); nil for none.
	Body json.RawMessage
}

func (s *Server) newCallRequest(ctx context.Context, c Call) (*Request, *Error) {
	u, err := url.Parse(c.Path)
	if err != nil || c.Path == "" {
		return nil, NewError("parse_path_failed", "Could not parse the path.", http.StatusBadRequest)
	}
	method := strings.ToUpper(c.Method)
	if method == "" {
		method = http.MethodPost
	}
	header := c.Header
	if header == nil {
		header = http.Header{}
	}
	query, qerr := parseInput(u.RawQuery)
	if qerr != nil {
		return nil, qerr
	}
	req := &Request{
		Method: method,
		Route:  normalizeRoute(u.Path),
		Header: header,
		ctx:    ctx,
		srv:    s,
		query:  query,
		json:   c.Body,
	}
	req.Caller = s.caller(ctx)
	return req, nil
}

// EndpointArgs returns the arguments of the endpoint that would serve
// method on route (the first route whose pattern matches and that has an
// endpoint for the method, as for a request); ok is false when none does.
// The gateway reads the per_page maximum of an embedded collection with it.
func (s *Server) EndpointArgs(ctx context.Context, route, method string) (args Props, ok bool) {
	_, ep, _ := s.match(ctx, normalizeRoute(route), strings.ToUpper(method))
	if ep == nil {
		return nil, false
	}
	return ep.Args, true
}

// Check pre-validates a batch sub-request (§11.2 step 3): the route must
// match (rest_no_route), allow batch v1 (rest_batch_not_allowed) and its
// parameters must validate and sanitise. Permission checks are not run.
func (s *Server) Check(ctx context.Context, c Call) *Error {
	req, err := s.newCallRequest(ctx, c)
	if err != nil {
		return err
	}
	cr, ep, params := s.match(req.Context(), req.Route, req.Method)
	if cr == nil {
		return errNoRoute()
	}
	if b := ep.batch(cr.Route); b == nil || !b.V1 {
		return errBatchNotAllowed()
	}
	req.route, req.endpoint, req.URLParams, req.Pattern = cr, ep, params, cr.full
	if err := req.checkInput(); err != nil {
		return err
	}
	return s.prepare(req)
}

// Do serves an in-process request through the whole pipeline (matching,
// validation, permission, handler, Allow, context filtering, _fields) and
// returns status, headers and the JSON body, as a batch response needs.
func (s *Server) Do(ctx context.Context, c Call) Result {
	req, rerr := s.newCallRequest(ctx, c)
	var resp *Response
	if rerr == nil {
		resp, rerr = s.dispatch(req)
	} else {
		req = &Request{ctx: ctx, srv: s, Caller: s.caller(ctx)}
	}
	status, header := s.finish(req, resp, rerr)
	res := Result{Status: status, Header: header}
	if rerr != nil {
		res.Body = appendJSON(rerr.body(), false)
		return res
	}
	if status == http.StatusNoContent || resp.Data == nil || req.Method == http.MethodHead {
		return res
	}
	res.Body = s.encode(nil, req, resp.Data, true, false)
	return res
}

// Routes lists the full patterns of the declared routes, in order.
func (s *Server) Routes() []string {
	out := make([]string, len(s.routes))
	for i, cr := range s.routes {
		out[i] = cr.full
	}
	return out
}
