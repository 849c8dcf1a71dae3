package gateway

import (
	"net/http/httptest"
	"testing"
)

// The edge cache reads a request as the route kit does (issue 26): queries
// the kit reads differently never share an entry, every method override
// the kit honours invalidates, and no caller's per-request headers are
// replayed to another.
func TestEdgeCacheReadsRequestsAsTheKit(t *testing.T) {
	t.Run("queries the kit reads differently", func(t *testing.T) {
		f, _ := cacheFixture(t)
		tests := []struct{ first, second, want string }{
			// per.page is per_page to PHP, and the last one wins: 3, then 1.
			{"per_page=1&per.page=3", "per.page=3&per_page=1", "miss"},
			{"per_page=5&per_page=6", "per_page=6&per_page=5", "miss"},
			// Spelled differently, read the same: one entry.
			{"per.page=4", "per_page=4", "hit"},
		}
		for _, tc := range tests {
			f.do("GET", "/cms-json/cms/v2/posts?"+tc.first, nil)
			rec, _ := f.do("GET", "/cms-json/cms/v2/posts?"+tc.second, nil)
			if got := rec.Header().Get("X-Cache"); got != tc.want {
				t.Errorf("?%s after ?%s: X-Cache %q, want %q", tc.second, tc.first, got, tc.want)
			}
		}
	})
	t.Run("method overrides the kit honours", func(t *testing.T) {
		f, c := cacheFixture(t)
		for _, q := range []string{"+_method=POST", "%5Fmethod=POST", "%20_method=DELETE", "_method=POST"} {
			gen, _ := c.Generation()
			f.do("GET", "/cms-json/cms/v2/posts/1?"+q, basic("admin", f.adminPW))
			if g, _ := c.Generation(); g == gen {
				t.Errorf("GET ?%s did not start a new generation", q)
			}
		}
		// Anonymous, such a GET is not answered from the cache either.
		f.do("GET", "/cms-json/cms/v2/posts/1", nil)
		if rec, _ := f.do("GET", "/cms-json/cms/v2/posts/1?+_method=POST", nil); rec.Header().Get("X-Cache") != "" {
			t.Errorf("GET ?+_method=POST went through the cache: X-Cache %q", rec.Header().Get("X-Cache"))
		}
	})
	t.Run("per-request headers", func(t *testing.T) {
		f, _ := cacheFixture(t)
		for i, id := range []string{"first-caller", "second-caller"} {
			req := httptest.NewRequest("GET", "/cms-json/cms/v2/posts?page=1", nil)
			rec := httptest.NewRecorder()
			// As the server's middleware does before the gateway runs.
			rec.Header().Set("X-Request-ID", id)
			f.gw.ServeHTTP(rec, req)
			if got := rec.Header().Values("X-Request-Id"); len(got) != 1 || got[0] != id {
				t.Errorf("caller %d: X-Request-Id %q, want %q (X-Cache %s)", i, got, id, rec.Header().Get("X-Cache"))
			}
			if i == 1 && rec.Header().Get("X-Cache") != "hit" {
				t.Errorf("second caller: X-Cache %q, want hit", rec.Header().Get("X-Cache"))
			}
		}
	})
}
