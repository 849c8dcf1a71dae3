package content

import "siteplane.dev/services/internal/content/store"
import "testing"

// A page costs a fixed number of statements, whatever the number of posts
// on it: the theme rows, the listing, the term names and the navigation;
// a single post adds its lookup by path and its neighbours. A listing
// whose posts are not yet kept reads their versions, then their rows
// (store.ListPostsCached): /page/2/ is first read here.
func TestSiteStatementsPerPage(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 12; i++ {
		e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "P" + store.Itoa(int64(i)), "status": "publish"})
	}
	e.page(anon, "/") // warms the author cache
	for _, tt := range []struct {
		path string
		max  int64
	}{{"/", 5}, {"/page/2/", 6}, {"/p3/", 8}, {"/no/", 5}} {
		before := e.queries.n.Load()
		if r := e.page(anon, tt.path); r.Status != 200 && r.Status != 404 {
			t.Fatalf("%s: %d", tt.path, r.Status)
		}
		if n := e.queries.n.Load() - before; n > tt.max {
			t.Errorf("%s: %d statements, want at most %d", tt.path, n, tt.max)
		}
	}
}
