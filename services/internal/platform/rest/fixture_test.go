package rest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// testCaller is a caller with a fixed set of capabilities.
type testCaller struct {
	id   int64
	caps []string
}

func (c testCaller) ID() int64      { return c.id }
func (c testCaller) LoggedIn() bool { return c.id != 0 }
func (c testCaller) Can(capability string) bool {
	return slices.Contains(c.caps, capability)
}

type callerKey struct{}

func withCaller(r *http.Request, c Caller) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), callerKey{}, c))
}

func callerFromContext(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}

var (
	admin      = testCaller{id: 1, caps: []string{"edit_posts", "publish_posts", "delete_posts"}}
	subscriber = testCaller{id: 2}
)

func ctxList(c ...string) []string { return c }

// postSchema is a trimmed posts item schema.
func postSchema() *Schema {
	rendered := func(ctxRaw, ctxRendered []string) *Schema {
		return &Schema{Type: "object", Context: []string{"view", "edit", "embed"}, Properties: Props{
			{Name: "raw", Schema: &Schema{Type: "string", Context: ctxRaw}},
			{Name: "rendered", Schema: &Schema{Type: "string", Context: ctxRendered, Readonly: true}},
		}}
	}
	return &Schema{
		SchemaURI: "http://json-schema.org/draft-04/schema#",
		Title:     "post",
		Type:      "object",
		Properties: Props{
			{Name: "id", Schema: &Schema{Description: "Unique identifier for the post.", Type: "integer", Context: ctxList("view", "edit", "embed"), Readonly: true}},
			{Name: "date", Schema: &Schema{Types: []string{"string", "null"}, Format: "date-time", Context: ctxList("view", "edit", "embed")}},
			{Name: "password", Schema: &Schema{Type: "string", Context: ctxList("edit")}},
			{Name: "slug", Schema: &Schema{Type: "string", Context: ctxList("view", "edit", "embed")}},
			{Name: "status", Schema: &Schema{Type: "string", Enum: []any{"publish", "future", "draft", "pending", "private"}, Context: ctxList("view", "edit")}},
			{Name: "title", Schema: rendered(ctxList("edit"), ctxList("view", "edit", "embed"))},
			{Name: "author", Schema: &Schema{Type: "integer", Context: ctxList("view", "edit", "embed")}},
			{Name: "sticky", Schema: &Schema{Type: "boolean", Context: ctxList("view", "edit")}},
			{Name: "categories", Schema: &Schema{Type: "array", Items: &Schema{Type: "integer"}, Context: ctxList("view", "edit")}},
		},
	}
}

func termQuery() *Schema {
	return &Schema{
		Types: []string{"object", "array"},
		OneOf: []*Schema{
			{Title: "Term ID List", Type: "array", Items: &Schema{Type: "integer"}},
			{Title: "Term ID Taxonomy Query", Type: "object", AdditionalProperties: false, Properties: Props{
				{Name: "terms", Schema: &Schema{Type: "array", Items: &Schema{Type: "integer"}, Default: []any{}}},
				{Name: "include_children", Schema: &Schema{Type: "boolean", Default: false}},
				{Name: "operator", Schema: &Schema{Type: "string", Enum: []any{"AND", "OR"}, Default: "OR"}},
			}},
		},
	}
}

// postsArgs are the collection parameters used by the tests and benchmark.
func postsArgs(item *Schema) Props {
	args := CollectionArgs(item)
	args = append(args,
		Prop{Name: "author", Schema: &Schema{Type: "array", Items: &Schema{Type: "integer"}, Default: []any{}}},
		Prop{Name: "include", Schema: &Schema{Type: "array", Items: &Schema{Type: "integer"}, Default: []any{}}},
		Prop{Name: "order", Schema: &Schema{Type: "string", Default: "desc", Enum: []any{"asc", "desc"}}},
		Prop{Name: "orderby", Schema: &Schema{Type: "string", Default: "date", Enum: []any{"author", "date", "id", "include", "modified", "parent", "relevance", "slug", "include_slugs", "title"}}},
		Prop{Name: "status", Schema: &Schema{Type: "array", Default: "publish", Items: &Schema{Type: "string", Enum: []any{"publish", "future", "draft", "pending", "private", "trash", "auto-draft", "inherit", "request-pending", "request-confirmed", "request-failed", "request-completed", "any"}}}},
		Prop{Name: "sticky", Schema: &Schema{Type: "boolean"}},
		Prop{Name: "after", Schema: &Schema{Type: "string", Format: "date-time"}},
		Prop{Name: "categories", Schema: termQuery()},
		Prop{Name: "tax_relation", Schema: &Schema{Type: "string", Enum: []any{"AND", "OR"}}},
	)
	return args
}

func post(r *Request, id int64, title string) Item {
	self := r.URL("/cms/v2/posts/" + strconv.FormatInt(id, 10))
	return Item{
		Data: Object{}.
			With("id", id).
			With("date", "2024-01-02T03:04:05").
			With("password", "").
			With("slug", "post-"+strconv.FormatInt(id, 10)).
			With("status", "publish").
			With("title", Object{}.With("raw", title).With("rendered", title)).
			With("author", 1).
			With("sticky", false).
			With("categories", []any{int64(3)}),
		Links: Links{
			{Rel: "self", Href: self},
			{Rel: "collection", Href: r.URL("/cms/v2/posts")},
			EmbeddableLink("author", r.URL("/cms/v2/users/1")),
			EmbeddableLink(APIRelPrefix+"term", r.URL("/cms/v2/categories?post=1"), Member{"taxonomy", "category"}),
			EmbeddableLink(APIRelPrefix+"term", r.URL("/cms/v2/tags?post=1"), Member{"taxonomy", "post_tag"}),
		},
	}
}

func canEdit(r *Request) error {
	if r.Caller.Can("edit_posts") {
		return nil
	}
	return Denied(r, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user.")
}

// postsRoutes declares a posts-like collection and item route.
func postsRoutes() []Route {
	item := postSchema()
	return []Route{
		{
			Namespace:  "cms/v2",
			Path:       "/posts",
			Schema:     item,
			AllowBatch: &Batch{V1: true},
			Endpoints: []Endpoint{
				{
					Methods: Readable,
					Args:    postsArgs(item),
					Permission: func(r *Request) error {
						if r.ViewContext() == "edit" && !r.Caller.Can("edit_posts") {
							return Denied(r, "rest_forbidden_context", "Sorry, you are not allowed to edit posts in this post type.")
						}
						return nil
					},
					Handler: func(r *Request) (*Response, error) {
						items := []Item{post(r, 1, "One"), post(r, 2, "Two")}
						resp := OK(items)
						Paginate(r, resp, 42, int(r.Int("page")), int(r.Int("per_page")))
						return resp, nil
					},
				},
				{
					Methods:    Creatable,
					Args:       ArgsFromSchema(item, true),
					Permission: canEdit,
					Handler: func(r *Request) (*Response, error) {
						r.Set("context", "edit")
						return Created(r, "/cms/v2/posts/9", post(r, 9, r.String("slug"))), nil
					},
				},
			},
		},
		{
			Namespace:  "cms/v2",
			Path:       `/posts/(?P<id>[\d]+)`,
			Schema:     item,
			AllowBatch: &Batch{V1: true},
			Endpoints: []Endpoint{
				{
					Methods: Readable,
					Args: Props{
						{Name: "id", Schema: &Schema{Description: "Unique identifier for the post.", Type: "integer"}},
						{Name: "context", Schema: ContextArg(item, "view")},
					},
					Handler: func(r *Request) (*Response, error) {
						if r.Int("id") != 1 {
							return nil, NewError("rest_post_invalid_id", "Invalid post ID.", http.StatusNotFound)
						}
						return OK(post(r, 1, "One")), nil
					},
				},
				{
					Methods:    Editable,
					Args:       ArgsFromSchema(item, false),
					Permission: canEdit,
					Handler: func(r *Request) (*Response, error) {
						r.Set("context", "edit")
						return OK(post(r, r.Int("id"), "One")), nil
					},
				},
				{
					Methods: Deletable,
					Args:    Props{{Name: "force", Schema: &Schema{Type: "boolean", Default: false}}},
					Permission: func(r *Request) error {
						if r.Caller.Can("delete_posts") {
							return nil
						}
						return Denied(r, "rest_cannot_delete", "Sorry, you are not allowed to delete this post.")
					},
					Handler: func(r *Request) (*Response, error) {
						r.Set("context", "edit")
						return OK(Object{}.With("deleted", true).With("previous", post(r, r.Int("id"), "One"))), nil
					},
				},
			},
		},
		{
			Namespace: "cms/v2",
			Path:      "/media",
			Endpoints: []Endpoint{{Methods: Creatable, Handler: func(r *Request) (*Response, error) {
				names := []string{}
				for k := range r.Files {
					names = append(names, k)
				}
				return Created(r, "/cms/v2/media/5", Object{}.With("files", names).With("title", r.Param("title"))), nil
			}}},
		},
		{
			Path: "/batch/v1",
			Endpoints: []Endpoint{{Methods: Creatable, Args: BatchArgs(25), Handler: func(r *Request) (*Response, error) {
				return &Response{Status: http.StatusMultiStatus, Data: Object{}.With("responses", []any{})}, nil
			}}},
		},
	}
}

func newTestServer(t testing.TB) *Server {
	t.Helper()
	s, err := New(Options{RootURL: "https://example.com/cms-json/", Caller: callerFromContext}, postsRoutes()...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type result struct {
	status int
	header http.Header
	body   string
}

func (r result) json(t *testing.T) any {
	t.Helper()
	v, err := decodeJSON([]byte(r.body))
	if err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, r.body)
	}
	return v
}

// do serves one request; body may be a string (sent as is) or nil.
func do(t testing.TB, s http.Handler, method, target string, caller Caller, body string, header ...string) result {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	if caller != nil {
		req = withCaller(req, caller)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return result{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
