package content

import (
	"net/http"
	"testing"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// TestCreateTypeOnlyPlainCreates: only a plain POST to a post type's
// collection counts as a create; anything that could become another method
// or route keeps the batch from reading slugs ahead.
func TestCreateTypeOnlyPlainCreates(t *testing.T) {
	cases := []struct {
		call rest.Call
		want *store.PostType
	}{
		{rest.Call{Method: "POST", Path: "/cms/v2/posts"}, store.TypePost},
		{rest.Call{Method: "POST", Path: "/cms/v2/pages"}, store.TypePage},
		{rest.Call{Method: "PUT", Path: "/cms/v2/posts"}, nil},
		{rest.Call{Method: "POST", Path: "/cms/v2/posts/5"}, nil},
		{rest.Call{Method: "POST", Path: "/cms/v2/posts?_method=DELETE"}, nil},
		{rest.Call{Method: "POST", Path: "/cms/v2/posts", Header: http.Header{"X-Http-Method-Override": {"PUT"}}}, nil},
		{rest.Call{Method: "POST", Path: "/cms/v2/categories"}, nil},
		{rest.Call{Method: "POST", Path: "/other/v2/posts"}, nil},
	}
	for _, c := range cases {
		if got := createType(c.call); got != c.want {
			t.Errorf("createType(%s %s %v) = %v, want %v", c.call.Method, c.call.Path, c.call.Header, got, c.want)
		}
	}
}

// TestSlugSetAnswersOnlyWhatItCovers: the set answers from the posts it
// holds, and leaves to the database any want that reaches a slug it did
// not read.
func TestSlugSetAnswersOnlyWhatItCovers(t *testing.T) {
	set := &store.SlugSet{
		Covered: map[string]map[string]bool{store.TypePost.Name: {"a": true, "a-2": true, "a-3": true}},
		Rows:    map[string][]store.SlugRow{store.TypePost.Name: {{ID: 1, Slug: "a"}, {ID: 2, Slug: "a-3"}}},
	}
	if s, ok := set.Free(store.TypePost, store.SlugWant{Slug: "a"}); !ok || s != "a-2" {
		t.Fatalf("free(a) = %q, %v; want a-2", s, ok)
	}
	set.Add(store.TypePost, 3, 0, "a-2")
	if s, ok := set.Free(store.TypePost, store.SlugWant{Slug: "a"}); ok {
		t.Fatalf("free(a) with a, a-2, a-3 taken = %q; want the database to decide (a-4 was not read)", s)
	}
	if _, ok := set.Free(store.TypePost, store.SlugWant{Slug: "b"}); ok {
		t.Fatal("free(b): b was not read, yet answered")
	}
	if _, ok := set.Free(store.TypePage, store.SlugWant{Slug: "a"}); ok {
		t.Fatal("free(a) for pages: not read, yet answered")
	}
}
