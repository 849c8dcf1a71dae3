package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// subRequest is one in-process request of a batch or an _embed: it takes
// the same route as a client request (gateway route or owning service) with
// the caller of ctx.
type subRequest struct {
	Method string
	Route  string // normalised REST route
	Query  string // raw query string
	Body   map[string]any
	Header http.Header
}

func (s subRequest) path() string {
	if s.Query == "" {
		return s.Route
	}
	return s.Route + "?" + s.Query
}

// parseSubPath splits a batch "path" into route and query (§11.2 step 1),
// once: the gateway validates and the owner runs exactly this route and
// query. The query loses every parameter that would change the route or
// the method once the request travels over HTTP (_method, rest_route, in
// any spelling PHP reads: rest.WithoutServeParams); WordPress ignores them
// in a sub-request.
func parseSubPath(p string) (route, query string, err *rest.Error) {
	// An empty path parses (to the route "", which no route matches in
	// WordPress: rest_no_route); only an unparseable one fails here.
	u, perr := url.Parse(p)
	if perr != nil {
		return "", "", rest.NewError("parse_path_failed", "Could not parse the path.", http.StatusBadRequest)
	}
	return rest.NormalizeRoute(u.Path), rest.WithoutServeParams(u.RawQuery), nil
}

// owner is where a sub-request goes: the gateway (nil backend) or a service.
type owner struct {
	local   bool
	backend *routing.Backend
}

func (g *Gateway) ownerOf(ctx context.Context, t *routing.Table, route string) (owner, bool) {
	if hasDotSegment(route) {
		return owner{}, false
	}
	if g.owns(ctx, route) {
		return owner{local: true}, true
	}
	if b, ok := t.MatchREST(route); ok {
		return owner{backend: b}, true
	}
	return owner{}, false
}

// do runs a sub-request and returns status, response headers and body.
func (g *Gateway) do(ctx context.Context, t *routing.Table, s subRequest) rest.Result {
	o, ok := g.ownerOf(ctx, t, s.Route)
	switch {
	case !ok:
		return errorResult(rest.NoRoute())
	case o.local:
		return g.local.Do(ctx, rest.Call{Method: s.Method, Path: s.path(), Body: s.Body, Header: s.Header})
	}
	return g.callService(ctx, o.backend, s)
}

func errorResult(e *rest.Error) rest.Result {
	b, _ := e.MarshalJSON()
	return rest.Result{Status: e.Status(), Body: b}
}

// callService sends a sub-request to a service over the pooled transport.
func (g *Gateway) callService(ctx context.Context, b *routing.Backend, s subRequest) rest.Result {
	var body io.Reader
	if s.Body != nil {
		buf, err := json.Marshal(s.Body)
		if err != nil {
			return errorResult(rest.NewError("rest_invalid_json", "Invalid JSON body passed.", http.StatusBadRequest))
		}
		body = bytes.NewReader(buf)
	}
	u := *b.Base
	u.Path = b.Base.Path + s.Route
	u.RawQuery = rest.WithoutServeParams(s.Query)
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, s.Method, u.String(), body)
	if err != nil {
		return errorResult(rest.NewError("parse_path_failed", "Could not parse the path.", http.StatusBadRequest))
	}
	for k, v := range s.Header {
		req.Header[http.CanonicalHeaderKey(k)] = v
	}
	req.Header.Del("Authorization")
	req.Header.Del("Cookie")
	req.Header.Del("X-Http-Method-Override") // read by serve_request only
	if s.Body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	g.signInto(ctx, req.Header, b.Name)
	res, err := g.cfg.Proxy.Transport().RoundTrip(req)
	if err != nil {
		status, code, msg := routing.Classify(err)
		logging.FromContext(ctx, g.cfg.Logger).Warn("sub-request failed", "service", b.Name, "status", status, "error", err.Error())
		return errorResult(rest.NewError(code, msg, status))
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		status, code, msg := routing.Classify(err)
		return errorResult(rest.NewError(code, msg, status))
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = nil
	}
	return rest.Result{Status: res.StatusCode, Header: ownHeaders(res.Header), Body: raw}
}

// sign returns the identity header of caller for the service audience,
// signed with the key senders use now (identity.Keyring.SigningKey).
func (g *Gateway) sign(caller identity.Identity, audience string) string {
	now := g.cfg.Now()
	return identity.Sign(g.cfg.Keys.Keyring().SigningKey(now), audience, caller, now.Add(g.cfg.IdentityTTL))
}

// signInto sets the internal headers of a gateway-made request: the
// caller's signed identity (logged-in callers only) and the request id.
func (g *Gateway) signInto(ctx context.Context, h http.Header, audience string) {
	h.Del(contract.IdentityHeader)
	if c := identity.FromContext(ctx); c.LoggedIn() {
		h.Set(contract.IdentityHeader, g.sign(c, audience))
	} else if g.cfg.Cache != nil {
		// an embedded answer may be kept (embedder.keep): as serveCached
		h.Set(postgres.HeaderWantLSN, g.cfg.Cache.Want().String())
	}
	if id := logging.RequestID(ctx); id != "" {
		h.Set(contract.RequestIDHeader, id)
	}
}

// globalHeaders are sent on every REST response or by the transport; a
// batch sub-response lists only the response's own headers (Location,
// Allow, X-WP-Total, pagination Link...), as WordPress does.
var globalHeaders = map[string]bool{
	"Content-Type": true, "Content-Length": true, "Date": true, "Connection": true, "X-Robots-Tag": true,
	"X-Content-Type-Options": true, "Access-Control-Expose-Headers": true, "Access-Control-Allow-Headers": true,
	"Access-Control-Allow-Origin": true, "Access-Control-Allow-Methods": true, "Access-Control-Allow-Credentials": true,
	"Vary": true, "Expires": true, "Cache-Control": true, "X-Request-Id": true, "Transfer-Encoding": true,
}

func ownHeaders(h http.Header) http.Header {
	out := http.Header{}
	for k, v := range h {
		if globalHeaders[k] {
			continue
		}
		if k == "Link" {
			var keep []string
			for _, l := range v {
				if !strings.Contains(l, `rel="https://api.w.org/"`) {
					keep = append(keep, l)
				}
			}
			if len(keep) == 0 {
				continue
			}
			v = keep
		}
		out[k] = v
	}
	return out
}

// headersObject renders headers as a batch response's "headers": an object
// of comma-joined values, or [] (PHP's empty array) when there are none.
func headersObject(h http.Header) any {
	if len(h) == 0 {
		return []any{}
	}
	keys := rest.HeaderKeys(h)
	o := make(rest.Object, 0, len(keys))
	for _, k := range keys {
		o = append(o, rest.Member{Key: rest.HeaderName(k), Value: strings.Join(h[k], ", ")})
	}
	return o
}

// resultObject is one entry of a batch "responses" list.
func resultObject(r rest.Result) rest.Object {
	var body any
	if len(r.Body) > 0 {
		body = json.RawMessage(r.Body)
	}
	return rest.Object{{Key: "body", Value: body}, {Key: "status", Value: r.Status}, {Key: "headers", Value: headersObject(r.Header)}}
}
