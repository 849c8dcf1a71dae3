package content

import "siteplane.dev/services/internal/content/store"
import "testing"

// A page costs a fixed number of statements, whatever the number of posts
// on it: the theme rows, the listing, the term names and the navigation;
// a single post adds its lookup by path, which reads its neighbours and
// whether it has comments too. A listing whose posts are not yet kept
// reads their versions, then their rows (store.ListPostsCached): /page/2/
// is first read here; a page past the first three is read in one
// statement (website.rowCachedPages): /page/4/.
func TestSiteStatementsPerPage(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 32; i++ {
		e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "P" + store.Itoa(int64(i)), "status": "publish"})
	}
	e.page(anon, "/") // warms the author cache
	for _, tt := range []struct {
		path string
		max  int64
	}{{"/", 5}, {"/page/2/", 6}, {"/page/4/", 5}, {"/p3/", 6}, {"/no/", 5}} {
		before := e.queries.n.Load()
		if r := e.page(anon, tt.path); r.Status != 200 && r.Status != 404 {
			t.Fatalf("%s: %d", tt.path, r.Status)
		}
		if n := e.queries.n.Load() - before; n > tt.max {
			t.Errorf("%s: %d statements, want at most %d", tt.path, n, tt.max)
		}
	}
}
