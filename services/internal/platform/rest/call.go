package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

// In-process requests (batch sub-requests, the gateway's own calls).

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
