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
