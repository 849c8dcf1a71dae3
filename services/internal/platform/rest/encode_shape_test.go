package rest

import (
	"testing"
)

// Shaping a response while it is written: context filtering, _fields and
// _links (encode_shape.go).

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
