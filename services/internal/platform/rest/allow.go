package rest

import (
	"net/http"

	"siteplane.dev/services/internal/platform/metrics"
)

// Allow and OPTIONS: which endpoints of a route the caller may use.

// allowedMask runs every endpoint's permission check for req (no check
// counts as allowed) and returns the set of permitted endpoints. This is
// WordPress's rest_send_allow_header rule, for every answer of a matched
// route, errors included: each check sees the request as dispatched, so
// after a failed validation it reads the client's raw values (a
// ?post=notanint names no post). A check WordPress makes in a permission
// callback therefore belongs in Permission, not in the handler, or Allow
// lists a method WordPress leaves out.
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
