package stack

// Regressions of the gateway and route-kit compliance audit against
// docs/reference/wp-rest-behavior.md (§1, §2, §11, §12, §13, §14a): each
// test drives the real binaries and names the rule it guards.

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

// rawHeaderNames sends a request over a plain TCP connection and returns the
// response's header names exactly as written on the wire (net/http would
// canonicalise them).
func rawHeaderNames(t *testing.T, method, path string, auth ...string) []string {
	t.Helper()
	u, err := url.Parse(st.Gateway)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := method + " " + path + " HTTP/1.1\r\nHost: " + u.Host + "\r\nConnection: close\r\n"
	if len(auth) == 2 {
		req += "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(auth[0]+":"+auth[1])) + "\r\n"
	}
	if _, err := conn.Write([]byte(req + "\r\n")); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(conn)
	var names []string
	for i := 0; sc.Scan(); i++ {
		line := sc.Text()
		if line == "" {
			break
		}
		if i == 0 {
			continue // status line
		}
		if name, _, ok := strings.Cut(line, ":"); ok {
			names = append(names, name)
		}
	}
	return names
}

// §1.8: X-WP-Total and X-WP-TotalPages are sent with WordPress's spelling,
// from a service (posts) and from the gateway's own routes (users).
func TestPaginationHeaderSpelling(t *testing.T) {
	for _, path := range []string{"/cms-json/cms/v2/posts?per_page=1", "/cms-json/cms/v2/users?per_page=1"} {
		names := rawHeaderNames(t, "GET", path, admin()...)
		seen := map[string]bool{}
		for _, n := range names {
			seen[n] = true
		}
		if !seen["X-WP-Total"] || !seen["X-WP-TotalPages"] || seen["X-Wp-Total"] || seen["X-Wp-Totalpages"] {
			t.Errorf("%s: header names %v", path, names)
		}
	}
}

// §1.1 steps 2, 6, 9, 10 and §1.8: what the gateway answers before any route
// (bad credentials, unknown routes) has the REST pipeline's headers and
// global parameters.
func TestGatewayAnswersLikeWordPress(t *testing.T) {
	r := call(t, "GET", "/cms-json/no-such/v1/thing", nil)
	expectError(t, r, 404, "rest_no_route")
	if r.Header.Get("Vary") != "Origin" || r.Header.Get("Cache-Control") != "" {
		t.Errorf("anonymous GET: Vary %q Cache-Control %q", r.Header.Get("Vary"), r.Header.Get("Cache-Control"))
	}
	r = call(t, "GET", "/cms-json/no-such/v1/thing", nil, admin()...)
	expectError(t, r, 404, "rest_no_route")
	if r.Header.Get("Cache-Control") != "no-cache, must-revalidate, max-age=0, no-store, private" || r.Header.Get("Vary") != "" {
		t.Errorf("logged in: Vary %q Cache-Control %q", r.Header.Get("Vary"), r.Header.Get("Cache-Control"))
	}
	r = call(t, "GET", "/cms-json/no-such/v1/thing?_envelope", nil, "nobody", "x")
	if r.Status != 200 || string(r.Raw) != `{"body":{"code":"invalid_username","message":"<strong>Error:<\/strong> Unknown username. Check again or try your email address.","data":{"status":401}},"status":401,"headers":[]}` {
		t.Errorf("enveloped auth failure: %d %s", r.Status, r.Raw)
	}
	r = call(t, "GET", "/cms-json/?_jsonp=no-good", nil, "nobody", "x")
	if r.Status != 400 || string(r.Raw) != `{"code":"rest_callback_invalid","message":"Invalid JSONP callback function."}` {
		t.Errorf("JSONP before authentication: %d %s", r.Status, r.Raw)
	}
	req, _ := http.NewRequest("POST", st.Gateway+"/cms-json/no-such/v1/thing", nil)
	req.Header.Set("X-HTTP-Method-Override", "PUT")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 || res.Header.Get("Cache-Control") != "no-cache, must-revalidate, max-age=0" {
		t.Errorf("override 4xx: %d Cache-Control %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
}

// §1.9, §2.2: OPTIONS on a namespace index describes that namespace's route;
// §2.1 / seed §1.1: the namespaces list ends with the helper namespaces.
func TestNamespaceOptionsAndList(t *testing.T) {
	r := call(t, "OPTIONS", "/cms-json/cms/v2", nil)
	want := `{"namespace":"cms\/v2","methods":["GET"],"endpoints":[{"methods":["GET"],"args":{"namespace":{"default":"cms\/v2","required":false},"context":{"default":"view","required":false}}}],"_links":{"self":[{"href":"` +
		strings.ReplaceAll(st.SiteURL, "/", `\/`) + `\/cms-json\/cms\/v2"}]}}`
	if r.Status != 200 || string(r.Raw) != want || r.Header.Get("Allow") != "GET" {
		t.Errorf("OPTIONS /cms/v2: %d %s", r.Status, r.Raw)
	}
	// /batch/v1 is a POST-only route, not a namespace index (§1.3: no 405).
	r = call(t, "GET", "/cms-json/batch/v1", nil)
	expectError(t, r, 404, "rest_no_route")
	if r.Header.Get("Allow") != "" {
		t.Errorf("GET /batch/v1: Allow %q", r.Header.Get("Allow"))
	}
	r = call(t, "GET", "/cms-json/?_fields=namespaces", nil)
	if got := string(r.Raw); !strings.HasSuffix(got, `"cms\/v2","cms-site-health\/v1","cms-block-editor\/v1","cms-abilities\/v1"]}`) {
		t.Errorf("namespaces %s", got)
	}
}

// §11.2 step 5: in normal mode an item that failed pre-validation after its
// route matched carries the route's Allow for the caller; an unmatched one
// has no headers ([]).
func TestBatchPrevalidationFailureHeaders(t *testing.T) {
	r := call(t, "POST", "/cms-json/batch/v1", map[string]any{"requests": []any{
		map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"status": "bogus"}},
		map[string]any{"path": "/cms/v2/users", "body": map[string]any{"username": "never"}}, // batchable, as in WordPress 6.9.7
		map[string]any{"path": "/nowhere/v1/thing"},
	}}, admin()...)
	if r.Status != 207 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	want := []struct {
		status  float64
		code    string
		headers string
	}{{400, "rest_invalid_param", `{"Allow":"GET, POST"}`}, {400, "rest_missing_callback_param", `{"Allow":"GET, POST"}`}, {404, "rest_no_route", `[]`}}
	rs, _ := r.Obj()["responses"].([]any)
	if len(rs) != len(want) {
		t.Fatalf("responses %s", r.Raw)
	}
	for i, w := range want {
		o := rs[i].(map[string]any)
		h, _ := json.Marshal(o["headers"])
		if o["status"] != w.status || o["body"].(map[string]any)["code"] != w.code || string(h) != w.headers {
			t.Errorf("response %d: %v (headers %s), want %v %s %s", i, o, h, w.status, w.code, w.headers)
		}
	}
	// Anonymous: the same failure, with what an anonymous caller may do.
	r = call(t, "POST", "/cms-json/batch/v1", map[string]any{"requests": []any{
		map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"status": "bogus"}},
	}})
	if h, _ := json.Marshal(r.Obj()["responses"].([]any)[0].(map[string]any)["headers"]); string(h) != `{"Allow":"GET"}` {
		t.Errorf("anonymous headers %s", h)
	}
}

// §1.7 _embed: a relation whose embeds are all empty is left out (a block
// without pattern categories embeds no wp:term); a single item asked for
// "_fields=id,_embedded" keeps its links and is embedded.
func TestEmbedEmptyRelationsAndFields(t *testing.T) {
	needs(t, contract.ServiceContent)
	r := call(t, "POST", "/cms-json/cms/v2/blocks", map[string]any{"title": "Lonely block", "status": "publish"}, admin()...)
	if r.Status != 201 {
		t.Fatalf("create block: %d %.300s", r.Status, r.Raw)
	}
	r = call(t, "GET", fmt.Sprintf("/cms-json/cms/v2/blocks/%v?_embed", r.Obj()["id"]), nil, admin()...)
	if links, _ := r.Obj()["_links"].(map[string]any); r.Status != 200 || links["wp:term"] == nil {
		t.Fatalf("block: %d %.300s", r.Status, r.Raw)
	}
	if emb, ok := r.Obj()["_embedded"]; ok {
		t.Errorf("empty relations embedded: %v", emb)
	}

	r = call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "Fields and embed", "status": "publish"}, admin()...)
	if r.Status != 201 {
		t.Fatalf("create post: %d %.300s", r.Status, r.Raw)
	}
	id := r.Obj()["id"]
	r = call(t, "GET", fmt.Sprintf("/cms-json/cms/v2/posts/%v?_embed=author&_fields=id,_embedded", id), nil)
	emb, _ := r.Obj()["_embedded"].(map[string]any)
	if r.Status != 200 || emb == nil || emb["author"] == nil || r.Obj()["_links"] == nil || r.Obj()["title"] != nil {
		t.Fatalf("single item _fields=id,_embedded: %d %.500s", r.Status, r.Raw)
	}
	// List items carry their links as data: without _links in _fields
	// there is nothing to embed, as in WordPress.
	r = call(t, "GET", "/cms-json/cms/v2/posts?per_page=1&_embed=author&_fields=id,_embedded", nil)
	if string(r.Raw) != fmt.Sprintf(`[{"id":%v}]`, r.JSON.([]any)[0].(map[string]any)["id"]) {
		t.Fatalf("list _fields=id,_embedded: %s", r.Raw)
	}
}

// §11.2: a sub-request's path query is parsed into query parameters only;
// serve_request's own parameters (_method, _envelope, _jsonp, _pretty) and
// X-HTTP-Method-Override do nothing inside a batch.
func TestBatchIgnoresServeParameters(t *testing.T) {
	needs(t, contract.ServiceContent)
	r := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "Keep me", "status": "draft"}, admin()...)
	if r.Status != 201 {
		t.Fatalf("create: %d %.300s", r.Status, r.Raw)
	}
	id := r.Obj()["id"]
	r = call(t, "POST", "/cms-json/batch/v1", map[string]any{"requests": []any{
		map[string]any{"path": fmt.Sprintf("/cms/v2/posts/%v?_method=DELETE&force=true&_fields=id,title.raw", id), "body": map[string]any{"title": "Updated"}},
		map[string]any{"path": fmt.Sprintf("/cms/v2/posts/%v?_envelope&_jsonp=cb&_fields=id", id), "headers": map[string]any{"X-HTTP-Method-Override": "DELETE"}},
	}}, admin()...)
	if r.Status != 207 || r.JSON == nil {
		t.Fatalf("batch: %d %s", r.Status, r.Raw)
	}
	rs := r.Obj()["responses"].([]any)
	first, _ := json.Marshal(rs[0].(map[string]any)["body"])
	second, _ := json.Marshal(rs[1].(map[string]any)["body"])
	if rs[0].(map[string]any)["status"] != float64(200) || string(first) != fmt.Sprintf(`{"id":%v,"title":{"raw":"Updated"}}`, id) ||
		rs[1].(map[string]any)["status"] != float64(200) || string(second) != fmt.Sprintf(`{"id":%v}`, id) {
		t.Fatalf("responses %s", r.Raw)
	}
	if r = call(t, "GET", fmt.Sprintf("/cms-json/cms/v2/posts/%v?_fields=status", id), nil, admin()...); r.Status != 200 || r.Obj()["status"] != "draft" {
		t.Fatalf("the post was deleted or trashed: %d %s", r.Status, r.Raw)
	}
}

// §11.2 step 6: a sub-response's headers in WordPress's order, the
// controller's (Location) before Allow.
func TestBatchHeaderOrder(t *testing.T) {
	needs(t, contract.ServiceContent)
	r := call(t, "POST", "/cms-json/batch/v1", map[string]any{"requests": []any{
		map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"title": "Ordered", "status": "draft"}},
	}}, admin()...)
	if r.Status != 207 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	if !strings.Contains(string(r.Raw), `"headers":{"Location":"`) || !strings.HasSuffix(string(r.Raw), `","Allow":"GET, POST"}}]}`) {
		t.Fatalf("headers order: %s", r.Raw)
	}
}

// §1.10: pagination links are add_query_arg's: nested keys with encoded
// brackets, values urlencoded, an empty value without "=", page replaced in
// place or appended.
func TestPaginationLinkEncoding(t *testing.T) {
	needs(t, contract.ServiceContent)
	// Two published posts in category 1 make a second page whatever the
	// other tests left (run alone, the stack may have fewer).
	for _, title := range []string{"Link encoding one", "Link encoding two"} {
		if r := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": title, "status": "publish", "categories": []int{1}}, admin()...); r.Status != 201 {
			t.Fatalf("create %q: %d %.300s", title, r.Status, r.Raw)
		}
	}
	r := call(t, "GET", "/cms-json/cms/v2/posts?per_page=1&categories%5B%5D=1&_pretty&_fields=id,title", nil)
	if r.Status != 200 {
		t.Fatalf("%d %.300s", r.Status, r.Raw)
	}
	want := st.SiteURL + `/cms-json/cms/v2/posts?per_page=1&categories%5B0%5D=1&_pretty&_fields=id%2Ctitle&page=2>; rel="next"`
	if got := r.Header.Values("Link"); len(got) != 2 || !strings.HasSuffix(got[0], want) {
		t.Fatalf("Link %q, want <...%s", got, want)
	}
}
