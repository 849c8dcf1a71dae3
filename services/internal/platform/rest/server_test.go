package rest

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
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

func TestMissingAndDefaults(t *testing.T) {
	s, err := New(Options{}, Route{Namespace: "t/v1", Path: "/x", Endpoints: []Endpoint{{
		Methods: Readable,
		Args: Props{
			{Name: "a", Schema: &Schema{Type: "string", Required: true}},
			{Name: "b", Schema: &Schema{Type: "integer", Required: true}},
			{Name: "c", Schema: &Schema{Type: "integer", Default: "abc"}},
			{Name: "d", Schema: &Schema{Type: "integer", Default: 7}},
		},
		Handler: func(r *Request) (*Response, error) {
			return OK(Object{}.With("a", r.Param("a")).With("b", r.Param("b")).With("d", r.Param("d"))), nil
		},
	}}}, Route{Namespace: "t/v1", Path: "/y", Endpoints: []Endpoint{{
		Methods: Readable,
		Args:    Props{{Name: "d", Schema: &Schema{Type: "integer", Default: 7}}},
		Handler: func(r *Request) (*Response, error) { return OK(Object{}.With("d", r.Param("d"))), nil },
	}}})
	if err != nil {
		t.Fatal(err)
	}
	res := do(t, s, "GET", "/t/v1/x", nil, "")
	if want := `{"code":"rest_missing_callback_param","message":"Missing parameter(s): a, b","data":{"status":400,"params":["a","b"]}}`; res.body != want {
		t.Fatalf("got %s", res.body)
	}
	// A default is validated like a supplied value.
	res = do(t, s, "GET", "/t/v1/x?a=1&b=2", nil, "")
	if !strings.Contains(res.body, `"params":{"c":"c is not of type integer."}`) {
		t.Fatalf("invalid default not reported: %s", res.body)
	}
	res = do(t, s, "GET", "/t/v1/y", nil, "")
	if res.body != `{"d":7}` {
		t.Fatalf("default: %s", res.body)
	}
	res = do(t, s, "GET", "/t/v1/y?d=9", nil, "")
	if res.body != `{"d":9}` {
		t.Fatalf("supplied: %s", res.body)
	}
}

func TestParameterPrecedence(t *testing.T) {
	var got *Request
	s, err := New(Options{}, Route{Namespace: "t/v1", Path: `/p/(?P<id>[\d]+)`, Endpoints: []Endpoint{{
		Methods: []string{"GET", "POST", "PUT", "DELETE"},
		Args: Props{
			{Name: "id", Schema: &Schema{Type: "integer"}},
			{Name: "x", Schema: &Schema{Type: "string", Default: "default"}},
			{Name: "ids", Schema: &Schema{Type: "array", Items: &Schema{Type: "integer"}}},
			{Name: "q", Schema: termQuery()},
		},
		Handler: func(r *Request) (*Response, error) { got = r; return OK(nil), nil },
	}}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, method, target, ctype, body string
		check                             func(r *Request) bool
	}{
		{"url group", "GET", "/t/v1/p/5", "", "", func(r *Request) bool { return r.Int("id") == 5 && r.String("x") == "default" }},
		{"query beats url (WordPress quirk)", "GET", "/t/v1/p/5?id=7", "", "", func(r *Request) bool { return r.Int("id") == 7 }},
		{"json beats query", "POST", "/t/v1/p/5?x=query", "application/json", `{"x":"json"}`, func(r *Request) bool { return r.String("x") == "json" }},
		{"json null falls through", "POST", "/t/v1/p/5?x=query", "application/json", `{"x":null}`, func(r *Request) bool { return r.String("x") == "query" }},
		{"+json media type", "POST", "/t/v1/p/5", "application/vnd.api+json", `{"x":"j"}`, func(r *Request) bool { return r.String("x") == "j" }},
		{"form beats query", "POST", "/t/v1/p/5?x=query", "application/x-www-form-urlencoded", `x=form`, func(r *Request) bool { return r.String("x") == "form" }},
		{"form body on PUT without type", "PUT", "/t/v1/p/5", "", `x=put`, func(r *Request) bool { return r.String("x") == "put" }},
		{"body ignored for GET", "GET", "/t/v1/p/5", "application/x-www-form-urlencoded", `x=form`, func(r *Request) bool { return r.String("x") == "default" }},
		{"brackets list", "GET", "/t/v1/p/5?ids[]=1&ids[]=2", "", "", func(r *Request) bool { return mustJSON(r.Param("ids")) == "[1,2]" }},
		{"csv list", "GET", "/t/v1/p/5?ids=1,2%203", "", "", func(r *Request) bool { return mustJSON(r.Param("ids")) == "[1,2,3]" }},
		{"bracket object", "GET", "/t/v1/p/5?q[terms]=5&q[include_children]=1&q[operator]=AND", "", "", func(r *Request) bool {
			return mustJSON(r.Param("q")) == `{"include_children":true,"operator":"AND","terms":[5]}`
		}},
		{"encoded brackets", "GET", "/t/v1/p/5?q%5Bterms%5D%5B%5D=4", "", "", func(r *Request) bool { return mustJSON(r.Param("q")) == `{"terms":[4]}` }},
		{"form nested", "POST", "/t/v1/p/5", "application/x-www-form-urlencoded", `ids[]=3&ids[]=4&title[raw]=x`, func(r *Request) bool {
			return mustJSON(r.Param("ids")) == "[3,4]" && mustJSON(r.Param("title")) == `{"raw":"x"}`
		}},
		{"unregistered passes through", "GET", "/t/v1/p/5?foo.bar=1", "", "", func(r *Request) bool { return r.Param("foo_bar") == "1" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got = nil
			var h []string
			if tc.ctype != "" {
				h = []string{"Content-Type", tc.ctype}
			}
			res := do(t, s, tc.method, tc.target, nil, tc.body, h...)
			if res.status != 200 || got == nil {
				t.Fatalf("status %d: %s", res.status, res.body)
			}
			if !tc.check(got) {
				t.Fatalf("unexpected params: json=%v query=%v body=%v", got.json, got.query.asMap(), got.form.asMap())
			}
		})
	}
}

func TestMultipart(t *testing.T) {
	s := newTestServer(t)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("title", "Photo")
	fw, _ := mw.CreateFormFile("file", "a.jpg")
	_, _ = fw.Write([]byte("jpegdata"))
	_ = mw.Close()
	req := httptest.NewRequest("POST", "/cms/v2/media", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != 201 || rec.Body.String() != `{"files":["file"],"title":"Photo"}` {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	if got := rec.Header().Get("Location"); got != "https://example.com/cms-json/cms/v2/media/5" {
		t.Fatalf("Location %q", got)
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

func TestContextFieldsAndLinks(t *testing.T) {
	s := newTestServer(t)
	links := `"_links":{"self":[{"href":"https:\/\/example.com\/cms-json\/cms\/v2\/posts\/1","targetHints":{"allow":["GET"]}}],"collection":[{"href":"https:\/\/example.com\/cms-json\/cms\/v2\/posts"}],"author":[{"embeddable":true,"href":"https:\/\/example.com\/cms-json\/cms\/v2\/users\/1"}],"wp:term":[{"taxonomy":"category","embeddable":true,"href":"https:\/\/example.com\/cms-json\/cms\/v2\/categories?post=1"},{"taxonomy":"post_tag","embeddable":true,"href":"https:\/\/example.com\/cms-json\/cms\/v2\/tags?post=1"}],"curies":[{"name":"wp","href":"https:\/\/api.w.org\/{rel}","templated":true}]}`
	tests := []struct {
		name   string
		target string
		caller Caller
		want   string
	}{
		{"view", "/cms/v2/posts/1", nil,
			`{"id":1,"date":"2024-01-02T03:04:05","slug":"post-1","status":"publish","title":{"rendered":"One"},"author":1,"sticky":false,"categories":[3],` + links + `}`},
		{"embed", "/cms/v2/posts/1?context=embed", nil,
			`{"id":1,"date":"2024-01-02T03:04:05","slug":"post-1","title":{"rendered":"One"},"author":1,` + links + `}`},
		{"edit", "/cms/v2/posts/1?context=edit&_fields=id,password,title", admin,
			`{"id":1,"password":"","title":{"raw":"One","rendered":"One"}}`},
		{"fields dotted", "/cms/v2/posts/1?_fields=title.rendered,id", nil, `{"id":1,"title":{"rendered":"One"}}`},
		{"fields keep links", "/cms/v2/posts/1?_fields=id,_links.self", nil,
			`{"id":1,"_links":{"self":[{"href":"https:\/\/example.com\/cms-json\/cms\/v2\/posts\/1","targetHints":{"allow":["GET"]}}],"collection":[{"href":"https:\/\/example.com\/cms-json\/cms\/v2\/posts"}],"author":[{"embeddable":true,"href":"https:\/\/example.com\/cms-json\/cms\/v2\/users\/1"}],"wp:term":[{"taxonomy":"category","embeddable":true,"href":"https:\/\/example.com\/cms-json\/cms\/v2\/categories?post=1"},{"taxonomy":"post_tag","embeddable":true,"href":"https:\/\/example.com\/cms-json\/cms\/v2\/tags?post=1"}],"curies":[{"name":"wp","href":"https:\/\/api.w.org\/{rel}","templated":true}]}}`},
		{"fields per collection item", "/cms/v2/posts?_fields=id", nil, `[{"id":1},{"id":2}]`},
		// A single item's links are not data: asking for _embedded keeps
		// them (so they can be embedded); a list item's links are data,
		// and go unless listed, as in WordPress.
		{"single item: _embedded keeps _links", "/cms/v2/posts/1?_fields=id,_embedded", nil, `{"id":1,` + links + `}`},
		{"list items: _embedded alone drops _links", "/cms/v2/posts?_fields=id,_embedded", nil, `[{"id":1},{"id":2}]`},
		{"fields array form", "/cms/v2/posts?_fields[]=id&_fields[]=slug", nil, `[{"id":1,"slug":"post-1"},{"id":2,"slug":"post-2"}]`},
		{"targetHints admin", "/cms/v2/posts/1?_fields=_links.self", admin,
			`{"_links":{"self":[{"href":"https:\/\/example.com\/cms-json\/cms\/v2\/posts\/1","targetHints":{"allow":["GET","POST","PUT","PATCH","DELETE"]}}],"collection":[{"href":"https:\/\/example.com\/cms-json\/cms\/v2\/posts"}],"author":[{"embeddable":true,"href":"https:\/\/example.com\/cms-json\/cms\/v2\/users\/1"}],"wp:term":[{"taxonomy":"category","embeddable":true,"href":"https:\/\/example.com\/cms-json\/cms\/v2\/categories?post=1"},{"taxonomy":"post_tag","embeddable":true,"href":"https:\/\/example.com\/cms-json\/cms\/v2\/tags?post=1"}],"curies":[{"name":"wp","href":"https:\/\/api.w.org\/{rel}","templated":true}]}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := do(t, s, "GET", tc.target, tc.caller, "")
			if res.status != 200 || res.body != tc.want {
				t.Fatalf("%d\n got %s\nwant %s", res.status, res.body, tc.want)
			}
		})
	}
	// Write responses forced to edit context; nested Items are filtered too.
	res := do(t, s, "DELETE", "/cms/v2/posts/1?force=true&_fields=deleted,previous.password,previous.id", admin, "")
	if res.body != `{"deleted":true,"previous":{"id":1,"password":""}}` {
		t.Fatalf("delete: %s", res.body)
	}
	res = do(t, s, "POST", "/cms/v2/posts?_fields=id,password", admin, `{"slug":"new"}`, "Content-Type", "application/json")
	if res.status != 201 || res.body != `{"id":9,"password":""}` || res.header.Get("Location") != "https://example.com/cms-json/cms/v2/posts/9" {
		t.Fatalf("create: %d %s %v", res.status, res.body, res.header)
	}
}

func TestGlobalParameters(t *testing.T) {
	s := newTestServer(t)
	t.Run("envelope", func(t *testing.T) {
		res := do(t, s, "GET", "/cms/v2/posts?_envelope&_fields=id&per_page=40", nil, "")
		// Headers in WordPress's order: the controller's, then Allow; an
		// empty query value loses its "=" in the links (add_query_arg).
		want := `{"body":[{"id":1},{"id":2}],"status":200,"headers":{"X-WP-Total":"42","X-WP-TotalPages":"2","Link":"<https:\/\/example.com\/cms-json\/cms\/v2\/posts?_envelope&_fields=id&per_page=40&page=2>; rel=\"next\"","Allow":"GET"}}`
		if res.status != 200 || res.body != want {
			t.Fatalf("%d\n got %s\nwant %s", res.status, res.body, want)
		}
		if res.header.Get("X-WP-Total") != "42" {
			t.Fatal("enveloped headers must still be sent")
		}
	})
	t.Run("envelope error", func(t *testing.T) {
		res := do(t, s, "GET", "/cms/v2/posts/2?_envelope=1", nil, "")
		want := `{"body":{"code":"rest_post_invalid_id","message":"Invalid post ID.","data":{"status":404}},"status":404,"headers":{"Allow":"GET"}}`
		if res.status != 200 || res.body != want {
			t.Fatalf("%d %s", res.status, res.body)
		}
		res = do(t, s, "GET", "/cms/v2/none?_envelope=1", nil, "")
		if res.body != `{"body":{"code":"rest_no_route","message":"No route was found matching the URL and request method.","data":{"status":404}},"status":404,"headers":[]}` {
			t.Fatalf("%s", res.body)
		}
	})
	t.Run("jsonp", func(t *testing.T) {
		res := do(t, s, "GET", "/cms/v2/posts?_jsonp=my.cb_1&_fields=id", nil, "")
		if res.body != `/**/my.cb_1([{"id":1},{"id":2}])` || res.header.Get("Content-Type") != "application/javascript; charset=UTF-8" {
			t.Fatalf("%s %v", res.body, res.header)
		}
		res = do(t, s, "GET", "/cms/v2/posts?_jsonp=alert(1)", nil, "")
		if res.status != 400 || res.body != `{"code":"rest_callback_invalid","message":"Invalid JSONP callback function."}` {
			t.Fatalf("%d %s", res.status, res.body)
		}
		off, _ := New(Options{DisableJSONP: true}, postsRoutes()...)
		res = do(t, off, "GET", "/cms/v2/posts?_jsonp=cb", nil, "")
		if res.status != 400 || res.body != `{"code":"rest_callback_disabled","message":"JSONP support is disabled on this site."}` || res.header.Get("Content-Type") != "application/json; charset=UTF-8" {
			t.Fatalf("%d %s", res.status, res.body)
		}
	})
	t.Run("pretty", func(t *testing.T) {
		res := do(t, s, "GET", "/cms/v2/posts/1?_pretty&_fields=id,title,categories", nil, "")
		want := "{\n    \"id\": 1,\n    \"title\": {\n        \"rendered\": \"One\"\n    },\n    \"categories\": [\n        3\n    ]\n}"
		if res.body != want {
			t.Fatalf("got\n%s", res.body)
		}
	})
	t.Run("method override", func(t *testing.T) {
		res := do(t, s, "POST", "/cms/v2/posts/1?_method=delete&force=1&_fields=deleted", admin, "")
		if res.body != `{"deleted":true}` {
			t.Fatalf("_method: %d %s", res.status, res.body)
		}
		res = do(t, s, "POST", "/cms/v2/posts/1?_fields=deleted", admin, "", "X-HTTP-Method-Override", "DELETE")
		if res.body != `{"deleted":true}` {
			t.Fatalf("header override: %d %s", res.status, res.body)
		}
		// An override ending in 4xx forces no-cache even for anonymous callers.
		res = do(t, s, "POST", "/cms/v2/posts/1", nil, "", "X-HTTP-Method-Override", "DELETE")
		if res.status != 401 || res.header.Get("Cache-Control") != "no-cache, must-revalidate, max-age=0" || res.header.Get("Expires") == "" {
			t.Fatalf("override 4xx: %d %v", res.status, res.header)
		}
	})
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

func TestContextFilterCombining(t *testing.T) {
	item := &Schema{Type: "object", Properties: Props{
		{Name: "content", Schema: &Schema{Context: []string{"view", "edit"}, OneOf: []*Schema{
			{Type: "string"},
			{Type: "object", Properties: Props{
				{Name: "raw", Schema: &Schema{Type: "string", Context: []string{"edit"}}},
				{Name: "rendered", Schema: &Schema{Type: "string", Context: []string{"view", "edit"}}},
			}},
		}}},
		{Name: "tags", Schema: &Schema{Type: "array", Context: []string{"view", "edit"}, Items: &Schema{Type: "integer", Context: []string{"edit"}}}},
	}}
	s, err := New(Options{Caller: callerFromContext}, Route{Namespace: "t/v1", Path: "/c", Schema: item, Endpoints: []Endpoint{{
		Methods: Readable,
		Args:    Props{{Name: "context", Schema: ContextArg(item, "view")}},
		Handler: func(r *Request) (*Response, error) {
			return OK(Item{Data: Object{}.
				With("content", Object{}.With("raw", "r").With("rendered", "R")).
				With("tags", []any{1, 2}).
				With("extra", "kept")}), nil
		},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if res := do(t, s, "GET", "/t/v1/c", nil, ""); res.body != `{"content":{"rendered":"R"},"tags":[],"extra":"kept"}` {
		t.Fatalf("view: %s", res.body)
	}
	if res := do(t, s, "GET", "/t/v1/c?context=edit", nil, ""); res.body != `{"content":{"raw":"r","rendered":"R"},"tags":[1,2],"extra":"kept"}` {
		t.Fatalf("edit: %s", res.body)
	}
}

func TestJSONPTruthiness(t *testing.T) {
	s := newTestServer(t)
	tests := []struct{ query, want string }{
		{"_jsonp=0&_fields=id", `[{"id":1},{"id":2}]`},
		{"_jsonp=&_fields=id", `[{"id":1},{"id":2}]`},
		{"_jsonp[]=cb", `{"code":"rest_callback_invalid","message":"Invalid JSONP callback function."}`},
		{"_jsonp=c.b&_fields=id", `/**/c.b([{"id":1},{"id":2}])`},
	}
	for _, tc := range tests {
		if res := do(t, s, "GET", "/cms/v2/posts?"+tc.query, nil, ""); res.body != tc.want {
			t.Errorf("%s: %s", tc.query, res.body)
		}
	}
}

func TestRawBody(t *testing.T) {
	s, err := New(Options{}, Route{Namespace: "oembed/1.0", Path: "/embed", Endpoints: []Endpoint{{
		Methods: Readable,
		Handler: func(r *Request) (*Response, error) {
			return (&Response{Data: Raw("<oembed/>")}).SetHeader("Content-Type", "text/xml; charset=UTF-8"), nil
		},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	res := do(t, s, "GET", "/oembed/1.0/embed", nil, "")
	if res.body != "<oembed/>" || res.header.Get("Content-Type") != "text/xml; charset=UTF-8" {
		t.Fatalf("%s %v", res.body, res.header)
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

func TestUndeclaredContextIsView(t *testing.T) {
	item := &Schema{Type: "object", Properties: Props{
		{Name: "id", Schema: &Schema{Type: "integer", Context: []string{"view", "edit"}}},
		{Name: "password", Schema: &Schema{Type: "string", Context: []string{"edit"}}},
	}}
	handler := func(r *Request) (*Response, error) {
		return OK(Item{Data: Object{}.With("id", 1).With("password", "p")}), nil
	}
	s, err := New(Options{}, Route{Namespace: "t/v1", Path: "/u", Schema: item, Endpoints: []Endpoint{
		{Methods: Readable, Handler: handler},
		{Methods: Deletable, Handler: func(r *Request) (*Response, error) { r.Set("context", "edit"); return handler(r) }},
	}})
	if err != nil {
		t.Fatal(err)
	}
	// No declared context argument: a raw ?context=edit is ignored...
	if res := do(t, s, "GET", "/t/v1/u?context=edit", nil, ""); res.body != `{"id":1}` {
		t.Fatalf("raw context: %s", res.body)
	}
	// ...while the handler's r.Set("context", "edit") applies.
	if res := do(t, s, "DELETE", "/t/v1/u", nil, ""); res.body != `{"id":1,"password":"p"}` {
		t.Fatalf("forced context: %s", res.body)
	}
}

func TestParseEmbed(t *testing.T) {
	tests := []struct {
		query string
		rels  string // JSON; null is every relation
		ok    bool
	}{
		{"", "null", false},
		{"_embed", "null", true},
		{"_embed=1", "null", true},
		{"_embed=true", "null", true},
		{"_embed=0", "null", true}, // PHP's ! "0": falsy, so everything
		{"_embed=,%20", "null", true},
		{"_embed=author,%20wp:term", `["author","wp:term"]`, true},
		{"_embed[]=author&_embed[]=up", `["author","up"]`, true},
	}
	for _, tt := range tests {
		q, _ := url.ParseQuery(tt.query)
		rels, ok := ParseEmbed(q)
		if ok != tt.ok || mustJSON(rels) != tt.rels {
			t.Errorf("%q: %s %v, want %s %v", tt.query, mustJSON(rels), ok, tt.rels, tt.ok)
		}
	}
}

func TestSupplied(t *testing.T) {
	var got *Request
	s, err := New(Options{}, Route{Namespace: "t/v1", Path: "/s", Endpoints: []Endpoint{{
		Methods: Editable,
		Args:    Props{{Name: "a", Schema: &Schema{Type: "string", Default: "d"}}, {Name: "b", Schema: &Schema{Type: "string"}}},
		Handler: func(r *Request) (*Response, error) { got = r; return OK(nil), nil },
	}}})
	if err != nil {
		t.Fatal(err)
	}
	do(t, s, "PATCH", "/t/v1/s", nil, `{"b":"x"}`, "Content-Type", "application/json")
	if got == nil || got.Supplied("a") || !got.Has("a") || !got.Supplied("b") || !got.InBody("b") || got.InBody("a") {
		t.Fatalf("supplied/has/inbody wrong: %+v", got)
	}
}
