package content

import (
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// A post split with the Page Break block shows one page at /{post}/{n}/
// with wp_link_pages()'s links, as WordPress 6.9 does; page 1 is the post's
// own URL, a page past the last and a page of a post that is not split are
// 404s; a static front page's pages are /page/{n}/.
func TestSiteNextpage(t *testing.T) {
	e := newEnv(t)
	split := "<!-- wp:paragraph -->\n<p>First part.</p>\n<!-- /wp:paragraph -->\n\n" +
		"<!-- wp:nextpage -->\n<!--nextpage-->\n<!-- /wp:nextpage -->\n\n" +
		"<!-- wp:paragraph -->\n<p>Second part.</p>\n<!-- /wp:paragraph -->\n\n" +
		"<!-- wp:nextpage -->\n<!--nextpage-->\n<!-- /wp:nextpage -->\n\n" +
		"<!-- wp:paragraph -->\n<p>Third part.</p>\n<!-- /wp:paragraph -->"
	e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "Long read", "slug": "long-read", "status": "publish", "content": split})
	e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "Short read", "slug": "short-read", "status": "publish",
		"content": "<!-- wp:paragraph -->\n<p>Only part.</p>\n<!-- /wp:paragraph -->"})
	classic := e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "Old style", "slug": "old-style", "status": "publish",
		"content": "Classic one.\n<!--nextpage-->\nClassic two."}).id()
	front := e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "Cover", "status": "publish", "content": split}).id()

	const links2 = `<p class="post-nav-links">Pages: <a href="http://example.test/long-read/" class="post-page-numbers">1</a> ` +
		`<span class="post-page-numbers current" aria-current="page">2</span> <a href="http://example.test/long-read/3/" class="post-page-numbers">3</a></p>`
	for _, tt := range []struct {
		name, path string
		status     int
		want, not  []string
		location   string
	}{
		{name: "page 1 at the post's URL", path: "/long-read/", status: 200,
			want: []string{"First part.", `<span class="post-page-numbers current" aria-current="page">1</span> <a href="http://example.test/long-read/2/" class="post-page-numbers">2</a>`,
				`<link rel="canonical" href="http://example.test/long-read/">`},
			not: []string{"Second part.", "Third part.", "<!--nextpage-->"}},
		{name: "page 2", path: "/long-read/2/", status: 200,
			want: []string{"Second part.", links2 + "</div>", "<title>Long read – Page 2 – ", `<link rel="canonical" href="http://example.test/long-read/2/">`,
				"paged-2 single-paged-2"},
			not: []string{"First part.", "Third part."}},
		{name: "the last page", path: "/long-read/3/", status: 200, want: []string{"Third part."}, not: []string{"Second part."}},
		{name: "past the last page", path: "/long-read/4/", status: 404},
		{name: "a huge page number", path: "/long-read/99999999999999999999/", status: 404},
		{name: "page 1 redirects to the post", path: "/long-read/1/", status: 301, location: "http://example.test/long-read/"},
		{name: "a post that is not split", path: "/short-read/2/", status: 404},
		{name: "classic content: its pages, no links (no Page Break block)", path: "/old-style/2/", status: 200,
			want: []string{"Classic two."}, not: []string{"Classic one.", "post-nav-links"}},
		{name: "?p= with a page redirects to that page", path: "/?p=" + store.Itoa(classic) + "&page=2", status: 301,
			location: "http://example.test/old-style/2/"},
		{name: "a page of a page", path: "/cover/2/", status: 200, want: []string{"Second part.", "paged-2 page-paged-2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := e.page(anon, tt.path)
			if r.Status != tt.status || r.Header.Get("Location") != tt.location {
				t.Fatalf("status %d, Location %q; want %d %q: %.300s", r.Status, r.Header.Get("Location"), tt.status, tt.location, r.Raw)
			}
			if tt.status == 200 {
				checkHTML(t, string(r.Raw))
			}
			for _, w := range tt.want {
				if !strings.Contains(string(r.Raw), w) {
					t.Errorf("page lacks %q", w)
				}
			}
			_, body, _ := strings.Cut(string(r.Raw), "<body") // the head's description is the whole post's excerpt
			for _, n := range tt.not {
				if strings.Contains(body, n) {
					t.Errorf("page has %q", n)
				}
			}
		})
	}

	// a static front page: page 2 is /page/2/, and its links say so
	wantStatus(t, e.do(admin, "POST", "/cms/v2/settings", map[string]any{"show_on_front": "page", "page_on_front": front}), 200)
	r := e.page(anon, "/page/2/")
	wantPage(t, r, 200, "page", "Second part.", `<a href="http://example.test/" class="post-page-numbers">1</a>`,
		`<a href="http://example.test/page/3/" class="post-page-numbers">3</a>`, `<link rel="canonical" href="http://example.test/page/2/">`)
	if r := e.page(anon, "/page/4/"); r.Status != 404 {
		t.Errorf("static front page past its last page: %d", r.Status)
	}
}
