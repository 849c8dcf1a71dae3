package rest

import (
	"bytes"
	"mime/multipart"
	"net/http/httptest"
	"strings"
	"testing"
)

// A request's parameters through a server: defaults, precedence between
// the URL, query and body, multipart and raw bodies, what was supplied.

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
