package content

import (
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
)

// Every kind of website answer carries the page headers; the /embed/ page
// alone may be framed by other sites.
func TestSitePageHeaders(t *testing.T) {
	e := newEnv(t)
	wantStatus(t, e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "Header post", "slug": "header-post", "status": "publish", "content": "Words"}), 201)
	wantStatus(t, e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "About", "slug": "about", "status": "publish", "content": "About"}), 201)
	csp := "default-src 'self'; script-src " + blocks.NavScriptHash() + "; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'; " +
		"img-src 'self' https: data:; media-src 'self' https:; style-src 'self' 'unsafe-inline'"
	for _, tt := range []struct {
		kind, path string
		status     int
		embed      bool
	}{
		{"front page", "/", 200, false},
		{"post", "/header-post/", 200, false},
		{"page", "/about/", 200, false},
		{"category archive", "/category/uncategorized/", 200, false},
		{"search", "/?s=Words", 200, false},
		{"not found", "/no-such-thing/", 404, false},
		{"redirect", "/?p=" + store.Itoa(1), 301, false},
		{"rss", "/feed/", 200, false},
		{"atom", "/feed/atom/", 200, false},
		{"sitemap", "/cms-sitemap.xml", 200, false},
		{"robots", "/robots.txt", 200, false},
		{"embed", "/header-post/embed/", 200, true},
		{"embed not found", "/nothing/embed/", 404, true},
	} {
		t.Run(tt.kind, func(t *testing.T) {
			r := e.page(anon, tt.path)
			if r.Status != tt.status {
				t.Fatalf("status %d, want %d: %.300s", r.Status, tt.status, r.Raw)
			}
			want := map[string]string{
				"X-Content-Type-Options":  "nosniff",
				"Referrer-Policy":         "strict-origin-when-cross-origin",
				"X-Frame-Options":         "SAMEORIGIN",
				"Content-Security-Policy": csp,
			}
			if tt.embed {
				want["X-Frame-Options"] = ""
				want["Content-Security-Policy"] = strings.Replace(csp, " frame-ancestors 'self';", "", 1)
			}
			for k, v := range want {
				if got := r.Header.Get(k); got != v {
					t.Errorf("%s: %q, want %q", k, got, v)
				}
			}
		})
	}
}
