package rest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/metrics"
)

func TestErrorsAndStatus(t *testing.T) {
	s := newTestServer(t)
	noRoute := `{"code":"rest_no_route","message":"No route was found matching the URL and request method.","data":{"status":404}}`
	tests := []struct {
		name   string
		method string
		target string
		caller Caller
		body   string
		header []string
		status int
		want   string // exact body when it starts with "{", else a substring
	}{
		{"unknown route", "GET", "/cms/v2/nothing", nil, "", nil, 404, noRoute},
		{"wrong method is 404 not 405", "PUT", "/cms/v2/posts", nil, "", nil, 404, noRoute},
		{"non-digit id", "GET", "/cms/v2/posts/abc", nil, "", nil, 404, noRoute},
		{"handler error", "GET", "/cms/v2/posts/2", nil, "", nil, 404, `{"code":"rest_post_invalid_id","message":"Invalid post ID.","data":{"status":404}}`},
		{"per_page bounds", "GET", "/cms/v2/posts?per_page=101", nil, "", nil, 400,
			`{"code":"rest_invalid_param","message":"Invalid parameter(s): per_page","data":{"status":400,"params":{"per_page":"per_page must be between 1 (inclusive) and 100 (inclusive)"},"details":{"per_page":{"code":"rest_out_of_bounds","message":"per_page must be between 1 (inclusive) and 100 (inclusive)","data":null}}}}`},
		{"context enum", "GET", "/cms/v2/posts?context=bogus", nil, "", nil, 400,
			`{"code":"rest_invalid_param","message":"Invalid parameter(s): context","data":{"status":400,"params":{"context":"context is not one of view, embed, and edit."},"details":{"context":{"code":"rest_not_in_enum","message":"context is not one of view, embed, and edit.","data":null}}}}`},
		{"several invalid in arg order", "GET", "/cms/v2/posts?order=up&page=x&sticky=yes", nil, "", nil, 400,
			`"message":"Invalid parameter(s): page, order, sticky"`},
		{"type error data", "GET", "/cms/v2/posts?page=x", nil, "", nil, 400,
			`"details":{"page":{"code":"rest_invalid_type","message":"page is not of type integer.","data":{"param":"page"}}}`},
		{"validation before permission", "POST", "/cms/v2/posts", nil, `{"status":"bogus"}`, []string{"Content-Type", "application/json"}, 400,
			`"params":{"status":"status is not one of publish, future, draft, pending, and private."}`},
		{"anonymous gets 401", "POST", "/cms/v2/posts", nil, `{"slug":"a"}`, []string{"Content-Type", "application/json"}, 401,
			`{"code":"rest_cannot_create","message":"Sorry, you are not allowed to create posts as this user.","data":{"status":401}}`},
		{"logged-in gets 403", "POST", "/cms/v2/posts", subscriber, `{"slug":"a"}`, []string{"Content-Type", "application/json"}, 403,
			`{"code":"rest_cannot_create","message":"Sorry, you are not allowed to create posts as this user.","data":{"status":403}}`},
		{"edit context anonymous", "GET", "/cms/v2/posts?context=edit", nil, "", nil, 401, `"code":"rest_forbidden_context"`},
		{"invalid json", "POST", "/cms/v2/posts", admin, `{"slug":`, []string{"Content-Type", "application/json; charset=utf-8"}, 400,
			`{"code":"rest_invalid_json","message":"Invalid JSON body passed.","data":{"status":400,"json_error_code":4,"json_error_message":"Syntax error"}}`},
		{"invalid json on unknown route is 404", "POST", "/cms/v2/nothing", admin, `{`, []string{"Content-Type", "application/json"}, 404, noRoute},
		{"missing required", "POST", "/batch/v1", nil, `{}`, []string{"Content-Type", "application/json"}, 400,
			`{"code":"rest_missing_callback_param","message":"Missing parameter(s): requests","data":{"status":400,"params":["requests"]}}`},
		{"json null counts as missing", "POST", "/batch/v1", nil, `{"requests":null}`, []string{"Content-Type", "application/json"}, 400,
			`"message":"Missing parameter(s): requests"`},
		{"batch limit", "POST", "/batch/v1", nil, `{"requests":[` + strings.Repeat(`{"path":"/cms/v2/posts"},`, 25) + `{"path":"/cms/v2/posts"}]}`, []string{"Content-Type", "application/json"}, 400,
			`{"code":"rest_invalid_param","message":"Invalid parameter(s): requests","data":{"status":400,"params":{"requests":"requests must contain at most 25 items."},"details":{"requests":{"code":"rest_too_many_items","message":"requests must contain at most 25 items.","data":null}}}}`},
		{"batch method enum", "POST", "/batch/v1", nil, `{"requests":[{"method":"GET","path":"/x"}]}`, []string{"Content-Type", "application/json"}, 400,
			`"params":{"requests":"requests[0][method] is not one of POST, PUT, PATCH, and DELETE."}`},
		{"batch path required", "POST", "/batch/v1", nil, `{"requests":[{"method":"POST"}]}`, []string{"Content-Type", "application/json"}, 400,
			`"params":{"requests":"path is a required property of requests[0]."}`},
		{"batch ok", "POST", "/batch/v1", nil, `{"requests":[{"path":"/cms/v2/posts","body":{"a":1}}]}`, []string{"Content-Type", "application/json"}, 207, `{"responses":[]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := do(t, s, tc.method, tc.target, tc.caller, tc.body, tc.header...)
			if res.status != tc.status {
				t.Fatalf("status %d, want %d\n%s", res.status, tc.status, res.body)
			}
			if strings.HasPrefix(tc.want, "{") {
				if res.body != tc.want {
					t.Fatalf("body\n got %s\nwant %s", res.body, tc.want)
				}
			} else if !strings.Contains(res.body, tc.want) {
				t.Fatalf("body %s\ndoes not contain %s", res.body, tc.want)
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	s := newTestServer(t)
	res := do(t, s, "GET", "/cms/v2/posts?per_page=5&page=2&categories[]=3&_fields=id", nil, "")
	if res.status != 200 {
		t.Fatalf("%d %s", res.status, res.body)
	}
	want := map[string]string{
		"Content-Type":                  "application/json; charset=UTF-8",
		"X-Robots-Tag":                  "noindex",
		"X-Content-Type-Options":        "nosniff",
		"Access-Control-Expose-Headers": "X-WP-Total, X-WP-TotalPages, Link",
		"Access-Control-Allow-Headers":  "Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type",
		"Allow":                         "GET",
		"X-WP-Total":                    "42",
		"X-WP-TotalPages":               "9",
		"Vary":                          "Origin",
	}
	for k, v := range want {
		if got := res.header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	links := res.header.Values("Link")
	wantLinks := []string{
		// _http_build_query encodes the brackets of nested keys.
		`<https://example.com/cms-json/cms/v2/posts?per_page=5&page=1&categories%5B0%5D=3&_fields=id>; rel="prev", <https://example.com/cms-json/cms/v2/posts?per_page=5&page=3&categories%5B0%5D=3&_fields=id>; rel="next"`,
		`<https://example.com/cms-json/>; rel="https://api.w.org/"`,
	}
	if strings.Join(links, "\n") != strings.Join(wantLinks, "\n") {
		t.Errorf("Link\n got %q\nwant %q", links, wantLinks)
	}
	for _, k := range []string{"Expires", "Cache-Control", "Access-Control-Allow-Origin"} {
		if res.header.Get(k) != "" {
			t.Errorf("%s set for an anonymous request without Origin", k)
		}
	}

	// Logged in: Allow reflects permissions, no-cache headers, no Vary.
	res = do(t, s, "GET", "/cms/v2/posts", admin, "", "Last-Modified", "x")
	if got := res.header.Get("Allow"); got != "GET, POST" {
		t.Errorf("admin Allow %q", got)
	}
	if res.header.Get("Expires") != "Wed, 11 Jan 1984 05:00:00 GMT" || res.header.Get("Cache-Control") != "no-cache, must-revalidate, max-age=0, no-store, private" {
		t.Errorf("no-cache headers: %v", res.header)
	}
	if res.header.Get("Vary") != "" {
		t.Errorf("Vary for logged-in without Origin")
	}
	// Page 1 has only next; the page parameter is appended when absent.
	res = do(t, s, "GET", "/cms/v2/posts?per_page=20", nil, "")
	if got := res.header.Values("Link")[0]; got != `<https://example.com/cms-json/cms/v2/posts?per_page=20&page=2>; rel="next"` {
		t.Errorf("first page Link %q", got)
	}
	// Last page has only prev.
	res = do(t, s, "GET", "/cms/v2/posts?page=5&per_page=10&_fields=a%20b", nil, "")
	if got := res.header.Values("Link")[0]; got != `<https://example.com/cms-json/cms/v2/posts?page=4&per_page=10&_fields=a+b>; rel="prev"` {
		t.Errorf("last page Link %q", got)
	}
	// CORS with an Origin.
	res = do(t, s, "GET", "/cms/v2/posts", nil, "", "Origin", "https://app.example")
	if res.header.Get("Access-Control-Allow-Origin") != "https://app.example" ||
		res.header.Get("Access-Control-Allow-Methods") != "OPTIONS, GET, POST, PUT, PATCH, DELETE" ||
		res.header.Get("Access-Control-Allow-Credentials") != "true" || res.header.Get("Vary") != "Origin" {
		t.Errorf("CORS headers: %v", res.header)
	}
	// Errors after matching carry Allow; unknown routes do not.
	res = do(t, s, "GET", "/cms/v2/posts?per_page=0", nil, "")
	if res.header.Get("Allow") != "GET" {
		t.Errorf("Allow on validation error: %q", res.header.Get("Allow"))
	}
	res = do(t, s, "GET", "/cms/v2/none", nil, "")
	if res.header.Get("Allow") != "" || res.header.Get("Link") == "" {
		t.Errorf("unknown route headers: %v", res.header)
	}
	// Item route: admin may use every method.
	res = do(t, s, "GET", "/cms/v2/posts/1", admin, "")
	if got := res.header.Get("Allow"); got != "GET, POST, PUT, PATCH, DELETE" {
		t.Errorf("item Allow %q", got)
	}
}

func TestRouting(t *testing.T) {
	s := newTestServer(t)
	for _, target := range []string{"/cms/v2/Posts/", "/cms/v2/posts//", "/?rest_route=/cms/v2/posts", "/anything?rest_route=/cms/v2/posts/"} {
		if res := do(t, s, "GET", target, nil, ""); res.status != 200 {
			t.Errorf("%s: %d %s", target, res.status, res.body)
		}
	}
	p, err := New(Options{Prefix: "/cms-json", RootURL: "https://example.com/?rest_route=/"}, postsRoutes()...)
	if err != nil {
		t.Fatal(err)
	}
	res := do(t, p, "GET", "/cms-json/cms/v2/posts?per_page=10", nil, "")
	if res.status != 200 {
		t.Fatalf("prefix: %d", res.status)
	}
	if got := res.header.Values("Link"); got[1] != `<https://example.com/?rest_route=/>; rel="https://api.w.org/"` || !strings.HasPrefix(got[0], `<https://example.com/?rest_route=/cms/v2/posts&per_page=10&page=2>`) {
		t.Errorf("plain permalinks links %q", got)
	}
	if !strings.Contains(res.body, `"href":"https:\/\/example.com\/?rest_route=\/cms\/v2\/posts\/1","targetHints":{"allow":["GET"]}`) {
		t.Errorf("plain self link: %s", res.body)
	}
}

func TestOptionsAndHead(t *testing.T) {
	s := newTestServer(t)
	res := do(t, s, "OPTIONS", "/cms/v2/posts/1", nil, "")
	if res.status != 200 || res.header.Get("Allow") != "GET" {
		t.Fatalf("%d %v", res.status, res.header)
	}
	v := res.json(t).(map[string]any)
	if v["namespace"] != "cms/v2" || mustJSON(v["methods"]) != `["GET","POST","PUT","PATCH","DELETE"]` || v["schema"] == nil || v["_links"] != nil {
		t.Fatalf("options body %s", res.body)
	}
	if !strings.HasPrefix(res.body, `{"namespace":"cms\/v2","methods":["GET","POST","PUT","PATCH","DELETE"],"endpoints":[{"methods":["GET"],"allow_batch":{"v1":true},"args":{"id":{"description":"Unique identifier for the post.","type":"integer","required":false},"context":{"description":"Scope under which the request is made; determines fields present in response.","default":"view","type":"string","enum":["view","embed","edit"],"required":false}}}`) {
		t.Fatalf("options layout %s", res.body)
	}
	// OPTIONS never validates nor checks permissions, and answers [] when nothing matches.
	if res := do(t, s, "OPTIONS", "/cms/v2/posts?per_page=0", nil, ""); res.status != 200 || !strings.Contains(res.body, `"_links":{"self":[{"href":"https:\/\/example.com\/cms-json\/cms\/v2\/posts"}]}`) {
		t.Fatalf("collection options %d %s", res.status, res.body)
	}
	if res := do(t, s, "OPTIONS", "/nothing", nil, ""); res.status != 200 || res.body != "[]" {
		t.Fatalf("unmatched options %d %s", res.status, res.body)
	}
	res = do(t, s, "HEAD", "/cms/v2/posts", nil, "")
	if res.status != 200 || res.body != "" || res.header.Get("X-WP-Total") != "42" || res.header.Get("Allow") != "GET" {
		t.Fatalf("HEAD %d %q %v", res.status, res.body, res.header)
	}
}

func TestInProcess(t *testing.T) {
	s := newTestServer(t)
	ctx := context.WithValue(context.Background(), callerKey{}, Caller(admin))
	tests := []struct {
		name string
		call Call
		code string
	}{
		{"ok", Call{Method: "POST", Path: "/cms/v2/posts", Body: map[string]any{"slug": "a"}}, ""},
		{"default method is POST", Call{Path: "/cms/v2/posts/1?force=true"}, ""},
		{"no route", Call{Method: "POST", Path: "/cms/v2/nothing"}, "rest_no_route"},
		{"not batchable", Call{Method: "POST", Path: "/cms/v2/media"}, "rest_batch_not_allowed"},
		{"invalid", Call{Method: "POST", Path: "/cms/v2/posts", Body: map[string]any{"status": "bogus"}}, "rest_invalid_param"},
		{"query params", Call{Method: "DELETE", Path: "/cms/v2/posts/1?force=maybe"}, "rest_invalid_param"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Check(ctx, tc.call)
			if tc.code == "" && err != nil || tc.code != "" && (err == nil || err.Code != tc.code) {
				t.Fatalf("Check = %v, want %q", err, tc.code)
			}
		})
	}
	res := s.Do(ctx, Call{Method: "POST", Path: "/cms/v2/posts?_fields=id", Body: map[string]any{"slug": "a"}})
	if res.Status != 201 || string(res.Body) != `{"id":9}` || res.Header.Get("Location") == "" || res.Header.Get("Allow") != "GET, POST" {
		t.Fatalf("Do: %d %s %v", res.Status, res.Body, res.Header)
	}
	res = s.Do(context.Background(), Call{Method: "POST", Path: "/cms/v2/posts", Body: map[string]any{"slug": "a"}})
	if res.Status != 401 || !strings.Contains(string(res.Body), "rest_cannot_create") {
		t.Fatalf("Do anonymous: %d %s", res.Status, res.Body)
	}
}

func TestAuthenticateRunsBeforeRouting(t *testing.T) {
	s, err := New(Options{Authenticate: func(*http.Request) error {
		return NewError("incorrect_password", "The provided password is an invalid application password.", 401)
	}}, postsRoutes()...)
	if err != nil {
		t.Fatal(err)
	}
	res := do(t, s, "GET", "/cms/v2/nothing", nil, "")
	if res.status != 401 || !strings.Contains(res.body, "incorrect_password") {
		t.Fatalf("%d %s", res.status, res.body)
	}
}

func TestPanicsBecome500(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := New(Options{Logger: quiet}, Route{Namespace: "t/v1", Path: "/p", Endpoints: []Endpoint{{Methods: Readable, Handler: func(*Request) (*Response, error) { panic("boom") }}}})
	if err != nil {
		t.Fatal(err)
	}
	res := do(t, s, "GET", "/t/v1/p", nil, "")
	if res.status != 500 || !strings.Contains(res.body, `"code":"internal_server_error"`) {
		t.Fatalf("%d %s", res.status, res.body)
	}
}

func TestIdentityIsTheDefaultCaller(t *testing.T) {
	s, err := New(Options{RootURL: "https://example.com/cms-json/"}, postsRoutes()...)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/cms/v2/posts?_fields=id", nil)
	req = req.WithContext(identity.NewContext(req.Context(), identity.Identity{UserID: 3, Role: identity.Administrator}))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Header().Get("Allow") != "GET, POST" || rec.Header().Get("Cache-Control") == "" {
		t.Fatalf("administrator: %v", rec.Header())
	}
	res := do(t, s, "POST", "/cms/v2/posts", nil, `{"slug":"x"}`, "Content-Type", "application/json")
	if res.status != 401 {
		t.Fatalf("anonymous: %d", res.status)
	}
}

func TestCallbacks(t *testing.T) {
	s, err := New(Options{Caller: callerFromContext}, Route{Namespace: "t/v1", Path: "/c", Endpoints: []Endpoint{{
		Methods: Readable,
		Args: Props{
			{Name: "a", Schema: &Schema{Type: "string", Validate: func(_ *Request, v any, _ string) error {
				if v == "bad" {
					return ErrInvalid
				}
				return nil
			}}},
			{Name: "status", Schema: &Schema{Type: "array", Items: &Schema{Type: "string", Enum: []any{"publish", "draft"}}, Default: "publish",
				Sanitize: func(r *Request, v any, param string) (any, error) {
					sv, err := ParseArg(v, &Schema{Type: "array", Items: &Schema{Type: "string", Enum: []any{"publish", "draft"}}}, param)
					if err != nil {
						return nil, err
					}
					for _, st := range sv.([]any) {
						if st != "publish" && !r.Caller.Can("edit_posts") {
							return nil, Denied(r, "rest_forbidden_status", "Status is forbidden.")
						}
					}
					return sv, nil
				}}},
		},
		Handler: func(r *Request) (*Response, error) { return OK(Object{}.With("status", r.Param("status"))), nil },
	}}})
	if err != nil {
		t.Fatal(err)
	}
	res := do(t, s, "GET", "/t/v1/c?a=bad", nil, "")
	if res.body != `{"code":"rest_invalid_param","message":"Invalid parameter(s): a","data":{"status":400,"params":{"a":"Invalid parameter."},"details":{}}}` {
		t.Fatalf("validate false: %s", res.body)
	}
	// A sanitiser's permission error surfaces as 400 rest_invalid_param (§4.7).
	res = do(t, s, "GET", "/t/v1/c?status=draft", nil, "")
	if res.status != 400 || res.body != `{"code":"rest_invalid_param","message":"Invalid parameter(s): status","data":{"status":400,"params":{"status":"Status is forbidden."},"details":{"status":{"code":"rest_forbidden_status","message":"Status is forbidden.","data":{"status":401}}}}}` {
		t.Fatalf("forbidden status: %d %s", res.status, res.body)
	}
	res = do(t, s, "GET", "/t/v1/c?status=draft,publish", admin, "")
	if res.body != `{"status":["draft","publish"]}` {
		t.Fatalf("admin status: %s", res.body)
	}
	res = do(t, s, "GET", "/t/v1/c", nil, "")
	if res.body != `{"status":["publish"]}` {
		t.Fatalf("default status: %s", res.body)
	}
}

func TestMetricsRouteTemplate(t *testing.T) {
	s := newTestServer(t)
	req := httptest.NewRequest("GET", "/cms/v2/posts/1", nil)
	ctx, slot := metrics.WithRouteSlot(req.Context())
	s.ServeHTTP(httptest.NewRecorder(), req.WithContext(ctx))
	if *slot != `/cms/v2/posts/(?P<id>[\d]+)` {
		t.Fatalf("route template %q", *slot)
	}
}

// A nil *Error returned through an error interface means success.
func TestTypedNilErrors(t *testing.T) {
	var none *Error
	s, err := New(Options{}, Route{Namespace: "t/v1", Path: "/n", Endpoints: []Endpoint{{
		Methods: Readable,
		Args: Props{{Name: "n", Schema: &Schema{Type: "integer", Default: 3, Sanitize: func(_ *Request, v any, param string) (any, error) {
			return ParseArg(v, &Schema{Type: "integer"}, param)
		}}}},
		Permission: func(*Request) error { return none },
		Handler: func(r *Request) (*Response, error) {
			return OK(Object{}.With("n", r.Param("n"))), none
		},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	res := do(t, s, "GET", "/t/v1/n", nil, "")
	if res.status != 200 || res.body != `{"n":3}` || res.header.Get("Allow") != "GET" {
		t.Fatalf("%d %s %v", res.status, res.body, res.header)
	}
}
