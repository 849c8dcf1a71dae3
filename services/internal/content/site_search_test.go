package content

import (
	"strings"
	"testing"
)

// The site search lists pages beside posts, as WP_Query's search does
// (post_type any): by relevance (a title match first), then date; a
// nested page at its path; private ones for readers who may read them;
// protected ones not for anonymous visitors.
func TestSiteSearchFindsPages(t *testing.T) {
	e := newEnv(t)
	parent := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "Guides", "status": "publish"}).id()
	e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "Zebra care", "status": "publish", "parent": parent,
		"content": "<!-- wp:paragraph --><p>All about them.</p><!-- /wp:paragraph -->"})
	e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "A walk", "status": "publish",
		"content": "<!-- wp:paragraph --><p>We saw a zebra.</p><!-- /wp:paragraph -->"})
	e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "Zebra secrets", "status": "private"})
	e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Zebra locked", "status": "publish", "password": "pw"})
	for _, tt := range []struct {
		who      string
		want     []string // in this order
		not      []string
		template string
	}{
		{anon, []string{`href="http://example.test/guides/zebra-care/"`, `>Zebra care<`, `>A walk<`}, []string{"secrets", "locked"}, "search"},
		{editor, []string{`>Private: Zebra secrets<`, `>Zebra care<`, `>A walk<`}, nil, "search"},
	} {
		t.Run(tt.who, func(t *testing.T) {
			r := e.page(tt.who, "/?s=zebra")
			wantPage(t, r, 200, tt.template, tt.want...)
			body := string(r.Raw)
			for i := 1; i < len(tt.want); i++ {
				if strings.Index(body, tt.want[i-1]) > strings.Index(body, tt.want[i]) {
					t.Errorf("%q is listed after %q", tt.want[i-1], tt.want[i])
				}
			}
			for _, n := range tt.not {
				if strings.Contains(body, n) {
					t.Errorf("shows %q", n)
				}
			}
		})
	}
}
