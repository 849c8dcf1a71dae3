package rest

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Method sets of WordPress's WP_REST_Server constants.
var (
	Readable   = []string{"GET"}
	Creatable  = []string{"POST"}
	Editable   = []string{"POST", "PUT", "PATCH"}
	Deletable  = []string{"DELETE"}
	AllMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}
)

// Route declares one REST route: its path pattern, its endpoints and the
// schema of the resource it serves. Everything the kit does for the route —
// matching, parameters, validation, permission order, OPTIONS, Allow, the
// index description, context filtering — is derived from this value.
type Route struct {
	// Namespace is "cms/v2", "oembed/1.0", or "" for "/" and "/batch/v1".
	Namespace string
	// Path is the WordPress-style pattern after the namespace, e.g.
	// `/posts/(?P<id>[\d]+)`; "" for the namespace index itself. With an
	// empty Namespace it is the whole route ("/", "/batch/v1"). The full
	// route is matched case-insensitively and anchored.
	Path string
	// Endpoints are tried in order; the first whose methods include the
	// request method handles it.
	Endpoints []Endpoint
	// Schema is the item schema: served by OPTIONS (and the index with
	// context=help) and used to filter responses by context.
	Schema *Schema
	// AllowBatch is the default of the endpoints' AllowBatch.
	AllowBatch *Batch
	// Hidden keeps the route out of route descriptions (show_in_index false).
	Hidden bool
	// Describe, when set, gives the description OPTIONS serves for the
	// matched URL (ok false falls back to the declared one). A pattern that
	// stands for many WordPress routes — the gateway's namespace indexes,
	// each registered separately in WordPress — needs it to describe the
	// one that was asked for.
	Describe func(r *Request) (d RouteDescription, ok bool)
	// Accept, when set, narrows what the pattern matches: a URL it refuses
	// is not this route's (matching goes on with the next route). The
	// gateway's namespace-index pattern accepts only announced namespaces,
	// so "/batch/v1" (a route, not a namespace) stays POST-only.
	Accept func(ctx context.Context, route string) bool
}

// Batch is the allow_batch option: nil omits it; &Batch{V1: false} is
// emitted as {"v1": false} (global styles do that) but does not allow batch.
type Batch struct {
	V1 bool `json:"v1"`
}

// Endpoint is one handler of a route.
type Endpoint struct {
	// Methods the endpoint answers, e.g. Editable.
	Methods []string
	// Args are the endpoint's parameters in declaration order.
	Args Props
	// AllowBatch overrides Route.AllowBatch.
	AllowBatch *Batch
	// Permission is WordPress's permission_callback: nil or a nil error
	// allows the request; Forbidden(r) or Denied(r, ...) refuse it. It runs
	// after validation, and again (per endpoint) to compute Allow.
	Permission func(*Request) error
	// Handler serves the request. Return a *Error for a WordPress error.
	Handler func(*Request) (*Response, error)
	// Hidden keeps the endpoint out of descriptions (show_in_index false).
	Hidden bool
	// StreamBody hands a raw body (one that is neither JSON, a form nor
	// multipart, so it carries no parameters) to the handler unread, as
	// Request.BodyReader (limited to Options.MaxBodyBytes), instead of
	// reading it into Request.Body first. The handler decides when to read
	// and how much to hold: media uploads wait for their decode budget
	// before reading, so queued uploads stay in the socket, not the heap.
	StreamBody bool
	// MaxBody is the most bytes this endpoint's request body may hold,
	// chosen from what the endpoint needs (0: Options.MaxBodyBytes, which
	// also caps it). It is enforced while reading, and a Content-Length
	// over it is refused before anything is read: 413 rest_body_too_large.
	MaxBody int64
}

// HandlerFunc is the type of Endpoint.Handler, for functions that build
// handlers.
type HandlerFunc = func(*Request) (*Response, error)

// PermissionFunc is the type of Endpoint.Permission.
type PermissionFunc = func(*Request) error

// FullPath is the route as WordPress keys it: "/" + namespace + path.
func (rt *Route) FullPath() string {
	if rt.Namespace == "" {
		if rt.Path == "" {
			return "/"
		}
		return rt.Path
	}
	return "/" + rt.Namespace + rt.Path
}

type compiledRoute struct {
	*Route
	full    string
	re      *regexp.Regexp
	names   []string // named groups, by submatch index
	hasVars bool     // has named groups (no _links.self in descriptions)
	literal bool     // no regex syntax: compared without the regexp engine

	allowCache sync.Map // endpoint mask (uint64) -> *allowSet
}

// allowSet is the Allow header and the targetHints list of one set of
// permitted endpoints; cached because it is computed on every response.
type allowSet struct {
	header  []string // nil when nothing is allowed; shared, never modified
	methods []string
}

func (cr *compiledRoute) allow(mask uint64) *allowSet {
	if v, ok := cr.allowCache.Load(mask); ok {
		return v.(*allowSet)
	}
	set := &allowSet{}
	for i := range cr.Endpoints {
		if i >= 64 || mask&(1<<i) == 0 {
			continue
		}
		for _, m := range cr.Endpoints[i].Methods {
			if !slices.Contains(set.methods, m) {
				set.methods = append(set.methods, m)
			}
		}
	}
	if len(set.methods) > 0 {
		set.header = []string{strings.Join(set.methods, ", ")}
	}
	v, _ := cr.allowCache.LoadOrStore(mask, set)
	return v.(*allowSet)
}

func compileRoute(rt *Route) (*compiledRoute, error) {
	full := rt.FullPath()
	re, err := regexp.Compile(`(?i)^(?:` + full + `)$`)
	if err != nil {
		return nil, fmt.Errorf("route %s: %w", full, err)
	}
	for i := range rt.Endpoints {
		ep := &rt.Endpoints[i]
		if len(ep.Methods) == 0 {
			return nil, fmt.Errorf("route %s: endpoint %d has no methods", full, i)
		}
		for j, m := range ep.Methods {
			ep.Methods[j] = strings.ToUpper(m)
		}
		seen := map[*Schema]bool{}
		for _, a := range ep.Args {
			if a.Schema == nil {
				return nil, fmt.Errorf("route %s: argument %q has no schema", full, a.Name)
			}
			if err := a.Schema.compile(seen); err != nil {
				return nil, fmt.Errorf("route %s: argument %s: %w", full, a.Name, err)
			}
		}
	}
	if rt.Schema != nil {
		if err := rt.Schema.compile(map[*Schema]bool{}); err != nil {
			return nil, fmt.Errorf("route %s: schema: %w", full, err)
		}
	}
	names := re.SubexpNames()
	hasVars := false
	for _, n := range names {
		if n != "" {
			hasVars = true
		}
	}
	literal := !strings.ContainsAny(full, `()[]\*+?{}|^$.`)
	return &compiledRoute{Route: rt, full: full, re: re, names: names, hasVars: hasVars, literal: literal}, nil
}

// match returns the named groups of the route when it matches path.
func (cr *compiledRoute) match(path string) (map[string]string, bool) {
	if cr.literal {
		return nil, strings.EqualFold(path, cr.full)
	}
	m := cr.re.FindStringSubmatchIndex(path)
	if m == nil {
		return nil, false
	}
	var params map[string]string
	for i, n := range cr.names {
		if n == "" || m[2*i] < 0 {
			continue
		}
		if params == nil {
			params = make(map[string]string, 2)
		}
		params[n] = path[m[2*i]:m[2*i+1]]
	}
	return params, true
}

func (ep *Endpoint) handles(method string) bool {
	for _, m := range ep.Methods {
		if m == method {
			return true
		}
	}
	return false
}

func (ep *Endpoint) batch(rt *Route) *Batch {
	if ep.AllowBatch != nil {
		return ep.AllowBatch
	}
	return rt.AllowBatch
}

// findEndpoint picks the endpoint for method; HEAD falls back to GET.
func (cr *compiledRoute) findEndpoint(method string) *Endpoint {
	for i := range cr.Endpoints {
		if cr.Endpoints[i].handles(method) {
			return &cr.Endpoints[i]
		}
	}
	if method == "HEAD" {
		for i := range cr.Endpoints {
			if cr.Endpoints[i].handles("GET") {
				return &cr.Endpoints[i]
			}
		}
	}
	return nil
}

// NormalizeRoute is how WordPress keys a requested route: trailing slashes
// and backslashes removed (untrailingslashit), a leading slash added; empty
// is "/". The gateway routes with it too, so both agree on every spelling.
func NormalizeRoute(route string) string { return normalizeRoute(route) }

func normalizeRoute(route string) string {
	route = strings.TrimRight(route, `/\`)
	if route == "" || route[0] != '/' {
		route = "/" + route
	}
	return route
}

// Caller is the identity of the requester, as the kit needs it: 401 versus
// 403 depends on LoggedIn, Allow and targetHints on the permission checks
// that call Can.
type Caller interface {
	ID() int64
	LoggedIn() bool
	Can(capability string) bool
}

// Anonymous is the caller of unauthenticated requests.
var Anonymous Caller = anonymous{}

type anonymous struct{}

func (anonymous) ID() int64       { return 0 }
func (anonymous) LoggedIn() bool  { return false }
func (anonymous) Can(string) bool { return false }

// CallerFunc resolves the caller of a request from its context.
// identity.Identity satisfies Caller, so the default (identity.FromContext)
// needs no adapter.
type CallerFunc func(ctx context.Context) Caller
