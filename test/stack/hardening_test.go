package stack

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// rawCall sends a request whose path, query and body are exactly as given
// (no re-encoding), with an optional raw Authorization header.
func rawCall(t *testing.T, method, pathAndQuery, contentType string, body []byte, authorization string) *Response {
	t.Helper()
	req, err := http.NewRequest(method, st.Gateway, strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	p, q, _ := strings.Cut(pathAndQuery, "?")
	req.URL.Opaque = p
	req.URL.RawQuery = q
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, pathAndQuery, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := &Response{Status: res.StatusCode, Header: res.Header, Raw: raw}
	_ = json.Unmarshal(raw, &out.JSON)
	return out
}

func basicHeader(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// The table: each input answers a 4xx in WordPress's envelope.
func TestHostileInputsAnswer4xx(t *testing.T) {
	needs(t, contract.ServiceContent, contract.ServiceMarketplace)
	adminAuth := basicHeader(st.AdminUser, st.AdminPass)
	// A published post, so that a page past the end is an error, not [].
	if r := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "Hostile", "status": "publish"}, admin()...); r.Status != 201 {
		t.Fatalf("create: %d %.300s", r.Status, r.Raw)
	}
	terms := strings.TrimSuffix(strings.Repeat("a+", 70000), "+")
	tests := []struct {
		name, method, path, ctype, body, auth string
		status                                int
		code                                  string
	}{
		{"search NUL", "GET", "/cms-json/cms/v2/posts?search=%00", "", "", "", 400, "rest_invalid_param"},
		{"search invalid UTF-8", "GET", "/cms-json/cms/v2/posts?search=%ff", "", "", "", 400, "rest_invalid_param"},
		{"slug NUL", "GET", "/cms-json/cms/v2/posts?slug=%00", "", "", "", 400, "rest_invalid_param"},
		{"posts offset -1", "GET", "/cms-json/cms/v2/posts?offset=-1", "", "", "", 400, "rest_invalid_param"},
		{"users offset -1", "GET", "/cms-json/cms/v2/users?offset=-1", "", "", adminAuth, 400, "rest_invalid_param"},
		{"huge page", "GET", "/cms-json/cms/v2/posts?page=9223372036854775807", "", "", "", 400, "rest_post_invalid_page_number"},
		{"users search NUL", "GET", "/cms-json/cms/v2/users?search=%00", "", "", adminAuth, 400, "rest_invalid_param"},
		{"title NUL", "POST", "/cms-json/cms/v2/posts", "application/json", `{"title":"a\u0000b"}`, adminAuth, 400, "rest_invalid_param"},
		{"basic auth NUL login", "GET", "/cms-json/cms/v2/posts", "", "", basicHeader("adm\x00in", "x"), 401, "invalid_username"},
		{"basic auth invalid UTF-8 login", "GET", "/cms-json/cms/v2/posts", "", "", basicHeader("adm\xffin", "x"), 401, "invalid_username"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rawCall(t, tt.method, tt.path, tt.ctype, []byte(tt.body), tt.auth)
			expectError(t, r, tt.status, tt.code)
		})
	}
	// More than nine words make one phrase, as in WP_Query: 200, not 500.
	for _, p := range []string{"/cms-json/cms/v2/posts?search=", "/cms-json/cms/v2/posts?orderby=relevance&search=", "/cms-json/cms/v2/search?search="} {
		if r := rawCall(t, "GET", p+terms, "", nil, ""); r.Status != 200 {
			t.Fatalf("70,000 terms %s: %d %.300s", p, r.Status, r.Raw)
		}
	}
	// The marketplace answers in its own envelope.
	for _, q := range []string{"purchase_code=%00", "purchase_code=%ff", "api_key=%00&purchase_code=x"} {
		r := rawCall(t, "POST", "/api/purchases/validation?"+q, "", nil, "Bearer some-key")
		if r.Status != 400 || r.Obj()["status"] != "error" {
			t.Fatalf("marketplace %s: %d %s", q, r.Status, r.Raw)
		}
	}
}

// A 40,000-key form body is refused at once (it cost 1.75 s of CPU).
func TestManyFormKeysRefusedQuickly(t *testing.T) {
	needs(t, contract.ServiceContent)
	var b strings.Builder
	for i := 0; i < 40000; i++ {
		fmt.Fprintf(&b, "k%d=v&", i)
	}
	start := time.Now()
	r := rawCall(t, "POST", "/cms-json/cms/v2/posts", "application/x-www-form-urlencoded", []byte(b.String()), "")
	if took := time.Since(start); took > time.Second {
		t.Fatalf("took %v", took)
	}
	expectError(t, r, 400, "rest_too_many_params")
}

// Batch sub-requests: what the gateway validated is what runs. Every
// spelling of _method and rest_route that PHP would read is stripped.
func TestBatchCannotChangeMethodOrRoute(t *testing.T) {
	needs(t, contract.ServiceContent)
	for _, spelling := range []string{"_method", "+_method", "%20_method", "%2B_method", "_method[]", "_method%5B%5D", "%5F_method"} {
		t.Run(spelling, func(t *testing.T) {
			r := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "Batch target", "status": "publish"}, admin()...)
			if r.Status != 201 {
				t.Fatalf("create: %d %.300s", r.Status, r.Raw)
			}
			id := r.Obj()["id"]
			r = call(t, "POST", "/cms-json/batch/v1", map[string]any{"requests": []any{
				map[string]any{"path": fmt.Sprintf("/cms/v2/posts/%v?%s=DELETE", id, spelling), "body": map[string]any{"title": "Updated"}},
			}}, admin()...)
			if r.Status != 207 {
				t.Fatalf("batch: %d %s", r.Status, r.Raw)
			}
			if r = call(t, "GET", fmt.Sprintf("/cms-json/cms/v2/posts/%v?_fields=status", id), nil, admin()...); r.Status != 200 || r.Obj()["status"] != "publish" {
				t.Fatalf("the post was deleted or trashed: %d %s", r.Status, r.Raw)
			}
		})
	}
	for _, spelling := range []string{"rest_route", "rest.route", "rest%2Eroute", "rest+route", "rest%20route", "rest[route", "+rest_route"} {
		t.Run(spelling, func(t *testing.T) {
			slug := "batch-route-" + strings.NewReplacer("%", "", "+", "", "[", "", ".", "").Replace(spelling)
			for _, mode := range []string{"", "require-all-validate"} {
				body := map[string]any{"requests": []any{
					map[string]any{"path": "/cms/v2/posts?" + spelling + "=/cms/v2/pages", "body": map[string]any{"title": "Routed", "slug": slug, "status": "draft"}},
				}}
				if mode != "" {
					body["validation"] = mode
				}
				r := call(t, "POST", "/cms-json/batch/v1", body, admin()...)
				if r.Status != 207 {
					t.Fatalf("batch: %d %s", r.Status, r.Raw)
				}
			}
			r := call(t, "GET", "/cms-json/cms/v2/pages?status=any&slug="+slug, nil, admin()...)
			if l, _ := r.JSON.([]any); r.Status != 200 || len(l) != 0 {
				t.Fatalf("a page was created: %d %s", r.Status, r.Raw)
			}
		})
	}
}

// badValues are values no route may answer with a 5xx. Writes get only the
// ones every route refuses before running (NUL, invalid UTF-8), so the walk
// never changes data.
var badValues = []struct {
	query string // raw, already escaped
	json  any
	write bool
}{
	{"%00", "\x00", true},
	{"a%00b", "a\x00b", true},
	{"%ff", "\xff", false}, // not representable in a JSON body
	{"%C0%80", nil, true},
	{"-1", -1, false},
	{"0", 0, false},
	{"9223372036854775807", 9223372036854775807, false},
	{"99999999999999999999999", 1e300, false},
	{"1e400", nil, false},
	{"", "", false},
	{"%5B%5D", []any{}, false},
}

var groupRe = regexp.MustCompile(`\(\?P<([a-zA-Z_]+)>[^()]*(\([^()]*\)[^()]*)*\)`)

// TestEveryRouteRefusesBadInput walks the index: every route, every method,
// every declared argument set to each bad value (and the URL groups), as
// the administrator so that validation and the handlers are reached. No
// answer may be a 5xx.
func TestEveryRouteRefusesBadInput(t *testing.T) {
	needs(t, contract.ServiceContent)
	idx := call(t, "GET", "/cms-json/?context=help", nil, admin()...)
	routes, _ := idx.Obj()["routes"].(map[string]any)
	if len(routes) < 50 {
		t.Fatalf("index lists %d routes", len(routes))
	}
	patterns := make([]string, 0, len(routes))
	for p := range routes {
		patterns = append(patterns, p)
	}
	sort.Strings(patterns)
	auth := basicHeader(st.AdminUser, st.AdminPass)
	sent := 0
	for _, pattern := range patterns {
		rt, _ := routes[pattern].(map[string]any)
		eps, _ := rt["endpoints"].([]any)
		for _, e := range eps {
			ep, _ := e.(map[string]any)
			methods, _ := ep["methods"].([]any)
			args, _ := ep["args"].(map[string]any)
			for _, m := range methods {
				method, _ := m.(string)
				write := method != "GET"
				for _, bv := range badValues {
					if write && !bv.write {
						continue
					}
					for _, group := range []string{"1", bv.query} {
						path := "/cms-json" + groupRe.ReplaceAllString(pattern, group)
						body := map[string]any{}
						var rawQuery []string
						for name := range args {
							if write && bv.json != nil {
								body[name] = bv.json
							} else {
								rawQuery = append(rawQuery, url.QueryEscape(name)+"="+bv.query)
							}
						}
						sort.Strings(rawQuery)
						pq := path
						if len(rawQuery) > 0 {
							pq += "?" + strings.Join(rawQuery, "&")
						}
						var raw []byte
						ctype := ""
						if len(body) > 0 {
							raw, _ = json.Marshal(body)
							ctype = "application/json"
						}
						if write && len(body) == 0 && len(rawQuery) == 0 {
							continue // nothing bad to send: it would just run
						}
						r := rawCall(t, method, pq, ctype, raw, auth)
						sent++
						if r.Status >= 500 {
							t.Errorf("%s %s %.200s: %d %.300s", method, pq, raw, r.Status, r.Raw)
						}
					}
				}
			}
		}
	}
	// Then each argument of each GET endpoint on its own, so that no
	// other argument's error hides it.
	for _, pattern := range patterns {
		rt, _ := routes[pattern].(map[string]any)
		eps, _ := rt["endpoints"].([]any)
		path := "/cms-json" + groupRe.ReplaceAllString(pattern, "1")
		for _, e := range eps {
			ep, _ := e.(map[string]any)
			methods, _ := ep["methods"].([]any)
			args, _ := ep["args"].(map[string]any)
			if len(methods) == 0 || methods[0] != "GET" {
				continue
			}
			for name := range args {
				for _, v := range []string{"%00", "%ff", "-1", "9223372036854775807", "99999999999999999999999", "%5B%5D"} {
					pq := path + "?" + url.QueryEscape(name) + "=" + v
					r := rawCall(t, "GET", pq, "", nil, auth)
					sent++
					if r.Status >= 500 {
						t.Errorf("GET %s: %d %.300s", pq, r.Status, r.Raw)
					}
				}
			}
		}
	}
	t.Logf("%d requests over %d routes", sent, len(patterns))
}
