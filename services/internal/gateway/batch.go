package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// maxBatch is the most requests one batch may hold (WordPress's default).
const maxBatch = 25

// batchItem is one parsed sub-request with its owner and pre-validation error.
type batchItem struct {
	sub   subRequest
	owner owner
	err   *rest.Error
}

// serveBatch is POST /batch/v1 (reference §11). The envelope (requests
// required, at most 25, method enum, path required, headers shape) was
// validated by the route kit from rest.BatchArgs before this runs.
func (g *Gateway) serveBatch(r *rest.Request) (*rest.Response, error) {
	ctx := r.Context()
	t := g.cfg.Routes.Current()
	items := g.prevalidate(ctx, t, r.List("requests"))
	failed := false
	for _, it := range items {
		if it.err != nil {
			failed = true
		}
	}
	requireAll := r.String("validation") == "require-all-validate"
	if requireAll && failed {
		responses := make([]any, len(items))
		for i, it := range items {
			if it.err != nil {
				responses[i] = resultObject(errorResult(it.err))
			}
		}
		return multiStatus(rest.Object{{Key: "failed", Value: "validation"}, {Key: "responses", Value: responses}}), nil
	}
	if requireAll {
		if b := singleService(items); b != nil {
			return multiStatus(g.atomicBatch(ctx, b, items)), nil
		}
	}
	responses := make([]any, len(items))
	for i, it := range items {
		if it.err != nil {
			res := errorResult(it.err)
			if matchedRoute(it.err) {
				res.Header = g.allowOf(ctx, t, it.sub)
			}
			responses[i] = resultObject(res)
			continue
		}
		responses[i] = resultObject(g.do(ctx, t, it.sub))
	}
	return multiStatus(rest.Object{{Key: "responses", Value: responses}}), nil
}

// matchedRoute reports whether a pre-validation error was raised after a
// route matched (so WordPress's answer carries that route's Allow header).
func matchedRoute(e *rest.Error) bool {
	switch e.Code {
	case "rest_no_route", "parse_path_failed", "rest_service_unavailable":
		return false
	}
	return true
}

// allowOf is the Allow header the owner computes for the caller on the
// sub-request's route. In normal mode WordPress answers a request that
// failed pre-validation through respond_to_request, so its "headers" hold
// Allow (§11.2 step 5); the owner is asked with OPTIONS, which runs every
// endpoint's permission check for the URL without executing anything.
// Permission checks that read body parameters see none here.
func (g *Gateway) allowOf(ctx context.Context, t *routing.Table, s subRequest) http.Header {
	res := g.do(ctx, t, subRequest{Method: http.MethodOptions, Route: s.Route, Query: s.Query, Header: s.Header})
	if allow := res.Header.Values("Allow"); res.Status == http.StatusOK && len(allow) > 0 {
		return http.Header{"Allow": allow}
	}
	return nil
}

func multiStatus(body rest.Object) *rest.Response {
	return &rest.Response{Status: http.StatusMultiStatus, Data: body}
}

// prevalidate parses every request and checks it the way its owner would
// (route match, allow_batch, arguments), without permission checks (§11.2).
func (g *Gateway) prevalidate(ctx context.Context, t *routing.Table, reqs []any) []batchItem {
	items := make([]batchItem, len(reqs))
	var indexes map[string]*serviceIndex
	for i, raw := range reqs {
		m, _ := raw.(map[string]any)
		it := &items[i]
		method, _ := m["method"].(string)
		if method == "" {
			method = http.MethodPost
		}
		path, _ := m["path"].(string)
		body, _ := m["body"].(map[string]any)
		it.sub = subRequest{Method: strings.ToUpper(method), Body: body, Header: batchHeaders(m["headers"])}
		route, query, err := parseSubPath(path)
		if err != nil {
			it.err = err
			continue
		}
		it.sub.Route, it.sub.Query = route, query
		o, ok := g.ownerOf(ctx, t, route)
		if !ok {
			it.err = rest.NoRoute()
			continue
		}
		it.owner = o
		call := rest.Call{Method: it.sub.Method, Path: it.sub.path(), Body: body, Header: it.sub.Header}
		if o.local {
			it.err = g.local.Check(ctx, call)
			continue
		}
		if indexes == nil {
			indexes = g.desc.get(ctx, t)
		}
		si := indexes[o.backend.Name]
		if si == nil {
			// Without the service's description nothing can be validated,
			// and the service is most likely down.
			it.err = rest.NewError("rest_service_unavailable", "The service that owns this route is unavailable.", http.StatusServiceUnavailable)
			continue
		}
		it.err = si.validator.Check(ctx, call)
	}
	return items
}

// batchHeaders converts a sub-request's "headers" (string or string list
// values) into an http.Header.
func batchHeaders(v any) http.Header {
	m, _ := v.(map[string]any)
	if len(m) == 0 {
		return nil
	}
	h := http.Header{}
	for k, val := range m {
		switch x := val.(type) {
		case string:
			h.Add(k, x)
		case []any:
			for _, e := range x {
				if s, ok := e.(string); ok {
					h.Add(k, s)
				}
			}
		}
	}
	return h
}

// singleService returns the service owning every item, or nil when the
// items span several owners or the gateway itself.
func singleService(items []batchItem) *routing.Backend {
	var b *routing.Backend
	for _, it := range items {
		if it.owner.local || it.owner.backend == nil {
			return nil
		}
		if b != nil && it.owner.backend.Name != b.Name {
			return nil
		}
		b = it.owner.backend
	}
	return b
}

// errRolledBack is reported for every request of a failed all-or-nothing
// batch except the one that failed.
func errRolledBack() *rest.Error {
	return rest.NewError("rest_batch_rolled_back", "Nothing was written: another request of this batch failed.", http.StatusFailedDependency)
}

// atomicBatch sends a validated require-all-validate batch owned by one
// service to that service's internal batch endpoint (contract.BatchPath),
// which runs every request in one transaction and commits only if all
// succeed.
func (g *Gateway) atomicBatch(ctx context.Context, b *routing.Backend, items []batchItem) rest.Object {
	var payload contract.BatchRequest
	for _, it := range items {
		h := map[string][]string{}
		for k, v := range it.sub.Header {
			h[strings.ToLower(k)] = v
		}
		payload.Requests = append(payload.Requests, contract.BatchSubRequest{Method: it.sub.Method, Route: it.sub.Route,
			Query: it.sub.Query, Body: it.sub.Body, Headers: h})
	}
	fail := func(e *rest.Error) rest.Object {
		responses := make([]any, len(items))
		for i := range items {
			responses[i] = resultObject(errorResult(e))
		}
		return rest.Object{{Key: "failed", Value: "execution"}, {Key: "responses", Value: responses}}
	}
	res, err := g.postInternal(ctx, b, contract.BatchPath, payload)
	if err != nil {
		logging.FromContext(ctx, g.cfg.Logger).Error("atomic batch failed", "service", b.Name, "error", err.Error())
		status, code, msg := routing.Classify(err)
		if status == http.StatusBadGateway {
			msg = "The service could not run the batch in one transaction."
		}
		return fail(rest.NewError(code, msg, status))
	}
	if len(res.Responses) == 0 || len(res.Responses) > len(items) || (res.Committed && len(res.Responses) != len(items)) {
		return fail(rest.NewError("rest_bad_gateway", "The service answered the batch with the wrong number of responses.", http.StatusBadGateway))
	}
	responses := make([]any, len(items))
	for i := range items {
		switch {
		case res.Committed, i == len(res.Responses)-1:
			responses[i] = serviceResultObject(res.Responses[i])
		default:
			responses[i] = resultObject(errorResult(errRolledBack()))
		}
	}
	if res.Committed {
		return rest.Object{{Key: "responses", Value: responses}}
	}
	return rest.Object{{Key: "failed", Value: "execution"}, {Key: "responses", Value: responses}}
}

// serviceResultObject is the batch entry of a sub-response the service
// ran. Its body is the kit encoder's output already (rest.TxBatchHandler),
// so it is copied as it is (rest.Encoded; re-laid out only for _pretty)
// rather than walked string by string again.
func serviceResultObject(r contract.BatchSubResponse) rest.Object {
	o := resultObject(rest.Result{Status: r.Status, Header: headerOf(r.Headers)})
	if len(r.Body) > 0 {
		o[0].Value = rest.Encoded(r.Body)
	}
	return o
}

func headerOf(m map[string]string) http.Header {
	h := http.Header{}
	for k, v := range m {
		h.Set(k, v)
	}
	return h
}

// postInternal posts JSON to a service's internal endpoint with the
// caller's identity and decodes the 200 answer.
func (g *Gateway) postInternal(ctx context.Context, b *routing.Backend, path string, payload any) (*contract.BatchResponse, error) {
	buf, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	body, _, err := g.postInternalRaw(ctx, b, path, buf, "application/json", nil)
	if err != nil {
		return nil, err
	}
	out, err := decodeBatchResponse(body)
	if err != nil {
		return nil, fmt.Errorf("%s%s: %w", b.Name, path, err)
	}
	return out, nil
}

// postInternalRaw posts buf (of type ctype) to a service's internal
// endpoint with the caller's identity and returns the 200 answer's body
// (read into a buffer of bufs, when given) and content type.
func (g *Gateway) postInternalRaw(ctx context.Context, b *routing.Backend, path string, buf []byte, ctype string, bufs *embedBuffers) ([]byte, string, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.Base.String()+path, bytes.NewReader(buf))
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Content-Type", ctype)
	g.signInto(ctx, req.Header, b.Name)
	res, err := g.cfg.Proxy.Transport().RoundTrip(req)
	if err != nil {
		return nil, "", err
	}
	defer res.Body.Close()
	body, err := readBodyInto(res.Body, res.ContentLength, 64<<20, bufs)
	if err != nil {
		return nil, "", err
	}
	if res.StatusCode != http.StatusOK {
		return nil, "", fmt.Errorf("%s%s answered %d", b.Name, path, res.StatusCode)
	}
	return body, res.Header.Get("Content-Type"), nil
}
