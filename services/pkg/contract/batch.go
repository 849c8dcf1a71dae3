package contract

import "encoding/json"

// BatchPath is the services' internal all-or-nothing batch endpoint.
//
// Beyond WordPress: when every sub-request of a validated
// require-all-validate batch belongs to one service, the gateway sends them
// in one call and the service runs them in one database transaction, so the
// batch commits wholly or not at all. Protocol:
//
//	POST {service}/internal/batch/v1   (caller's signed identity header, as on a proxied request)
//	{"requests": [{"method": "POST", "route": "/cms/v2/posts", "query": "a=1",
//	               "body": {...} | null, "headers": {"x-name": ["v"]}}, ...]}
//
//	200 {"committed": true|false,
//	     "responses": [{"status": 201, "headers": {"Location": "..."}, "body": ...}, ...]}
//
// The service runs the requests in order in one transaction and stops at
// the first response with status >= 400, rolls back and answers committed
// false with the responses so far (the failing one last). The gateway then
// answers the client 207 {"failed": "execution", "responses": [...]}: the
// failing request keeps its error, every other one gets
// rest_batch_rolled_back (424). Mixed-owner batches keep WordPress's
// semantics (validated together, run one by one).
//
// A batch of reads only (GET or HEAD: the gateway's _embed fetches, one
// call per service instead of one per embedded link) runs each request on
// its own, outside any transaction, to the end: every request has its
// response, failures included, and committed is true.
const BatchPath = "/internal/batch/v1"

// BatchRequest is the body the gateway posts to BatchPath.
type BatchRequest struct {
	Requests []BatchSubRequest `json:"requests"`
}

// BatchSubRequest is one request of a batch: the route path and the raw
// query string apart, the JSON body already decoded, header names lower-case.
// An empty Method means POST.
type BatchSubRequest struct {
	Method  string              `json:"method"`
	Route   string              `json:"route"`
	Query   string              `json:"query"`
	Body    map[string]any      `json:"body"`
	Headers map[string][]string `json:"headers"`
}

// BatchResponse is the service's 200 answer on BatchPath. Responses holds
// one entry per request that ran; when Committed is false the last entry is
// the one that failed.
type BatchResponse struct {
	Committed bool               `json:"committed"`
	Responses []BatchSubResponse `json:"responses"`
}

// BatchSubResponse is the answer to one sub-request: its status, its
// headers (several values joined with ", ") and its JSON body (null when
// the response had none).
type BatchSubResponse struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body"`
}

// EmbedPath is content's internal endpoint for the gateway's _embed reads
// (docs/performance.md, _embed): the body, of type EmbedRequestType, is
// one read a line,
//
//	"GET <route>[?<query>]\n" (or HEAD)
//
// run as BatchPath runs a batch of reads, and the 200 answer, of type
// EmbedContentType, is each response's status and body only, framed rather
// than in JSON, so that neither side encodes, validates or scans JSON
// around the bodies:
//
//	"<status> <body length>\n<body>" for each read, in order
//
// A service without it answers 404; the gateway then uses BatchPath.
const EmbedPath = "/internal/embed/v1"

// EmbedRequestType and EmbedContentType are the media types of EmbedPath's
// request and answer.
const (
	EmbedRequestType = "text/plain; charset=utf-8"
	EmbedContentType = "application/vnd.siteplane.embed"
)
