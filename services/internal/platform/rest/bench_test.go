package rest

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// discardWriter is a ResponseWriter that reuses its header map, so the
// benchmark measures the kit rather than the recorder.
type discardWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(status int)      { w.status = status }
func (w *discardWriter) Write(b []byte) (int, error) { w.n += len(b); return len(b), nil }

func benchServer(b *testing.B) *Server {
	item := postSchema()
	r := &Request{srv: nil}
	s, err := New(Options{RootURL: "https://example.com/cms-json/"}, Route{
		Namespace: "cms/v2", Path: "/posts", Schema: item, AllowBatch: &Batch{V1: true},
		Endpoints: []Endpoint{
			{Methods: Readable, Args: postsArgs(item), Handler: nil},
			{Methods: Creatable, Args: ArgsFromSchema(item, true), Permission: canEdit},
		},
	}, Route{
		Namespace: "cms/v2", Path: `/posts/(?P<id>[\d]+)`, Schema: item, AllowBatch: &Batch{V1: true},
		Endpoints: []Endpoint{
			{Methods: Readable, Args: Props{{Name: "id", Schema: &Schema{Type: "integer"}}, {Name: "context", Schema: ContextArg(item, "view")}}},
			{Methods: Editable, Args: ArgsFromSchema(item, false), Permission: canEdit},
			{Methods: Deletable, Args: Props{{Name: "force", Schema: &Schema{Type: "boolean", Default: false}}}, Permission: canEdit},
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	r.srv = s
	// The result set is built once: the benchmark measures parsing,
	// validating and enveloping, not the service's row mapping.
	items := []Item{post(r, 11, "Eleven"), post(r, 12, "Twelve"), post(r, 13, "Thirteen")}
	s.routes[0].Endpoints[0].Handler = func(r *Request) (*Response, error) {
		resp := &Response{Data: items}
		Paginate(r, resp, 13, int(r.Int("page")), int(r.Int("per_page")))
		return resp, nil
	}
	return s
}

func runCollectionBench(b *testing.B, target string) {
	s := benchServer(b)
	req := httptest.NewRequest("GET", target, nil)
	w := &discardWriter{h: make(http.Header, 16)}
	s.ServeHTTP(w, req)
	if w.status != 200 || w.n == 0 {
		b.Fatalf("status %d", w.status)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		clear(w.h)
		s.ServeHTTP(w, req)
	}
}

// BenchmarkCollectionRequest is the reference request: a posts
// collection with paging, a status filter, a term filter in bracket syntax
// and _fields, three items in the result.
func BenchmarkCollectionRequest(b *testing.B) {
	runCollectionBench(b, "/cms/v2/posts?per_page=5&page=2&status=publish&categories[]=3&_fields=id,title")
}

// BenchmarkCollectionRequestFull renders whole items: context filtering of
// every field, _links with curies and targetHints (a permission round per
// self link).
func BenchmarkCollectionRequestFull(b *testing.B) {
	runCollectionBench(b, "/cms/v2/posts?per_page=5&page=2&status=publish&categories[]=3")
}

// BenchmarkEncode measures the encoder alone (encoder.value writes every
// response): "values" is a list of objects with the kinds a response
// carries (scalars, nested objects and maps, lists), "schema" a route's
// item schema as the index writes it.
func BenchmarkEncode(b *testing.B) {
	row := Object{}.
		With("id", int64(11)).
		With("title", Object{}.With("raw", "Eleven").With("rendered", "Eleven – “quoted” a/b")).
		With("sticky", false).
		With("score", 1.5).
		With("author", 1).
		With("meta", map[string]any{"a": "x", "b": []any{int64(1), "two", nil}}).
		With("tags", []int64{3, 4}).
		With("cached", Encoded(`{"k":"v"}`))
	cases := []struct {
		name string
		v    any
	}{
		{"values", []any{row, row, row}},
		{"schema", postSchema()},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				appendJSON(c.v, false)
			}
		})
	}
}
