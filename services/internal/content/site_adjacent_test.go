package content

import (
	"strings"
	"testing"
)

// A post page's previous and next links (the built-in single template's
// post-navigation-link blocks with showTitle) name the published posts
// just older and newer by date: a draft, a page or a private post between
// them is passed over, and the oldest and newest posts have no link on
// their open side.
func TestSitePostNavigationLinks(t *testing.T) {
	e := newEnv(t)
	post := func(title, status, typ, date string) (int64, string) {
		r := e.do(admin, "POST", "/cms/v2/"+typ, map[string]any{"title": title, "status": status, "date_gmt": date, "content": "<p>x</p>"})
		if r.Status != 201 {
			t.Fatalf("create %s: %d %s", title, r.Status, r.Raw)
		}
		o := r.obj()
		return int64(o["id"].(float64)), o["slug"].(string)
	}
	_, oldest := post("Oldest & first", "publish", "posts", "2026-01-01T00:00:00")
	_, middle := post("Middle one", "publish", "posts", "2026-01-03T00:00:00")
	post("A draft between", "draft", "posts", "2026-01-04T00:00:00")
	post("A private between", "private", "posts", "2026-01-04T06:00:00")
	post("A page between", "publish", "pages", "2026-01-04T12:00:00")
	_, newest := post("Newest", "publish", "posts", "2026-01-05T00:00:00")
	link := func(rel, slug, label string) string {
		return `<a href="` + e.svc.site.URL + "/" + slug + `/" rel="` + rel + `">` + label + `</a>`
	}
	tests := []struct {
		slug      string
		want, not []string
	}{
		{oldest, []string{link("next", middle, "Middle one")}, []string{`rel="prev"`}},
		{middle, []string{link("prev", oldest, "Oldest &amp; first"), link("next", newest, "Newest")}, []string{`rel="next">A `}},
		{newest, []string{link("prev", middle, "Middle one")}, []string{`rel="next"`}},
	}
	// (the header's page list names the page between: only the links are
	// looked at)
	for _, tc := range tests {
		t.Run(tc.slug, func(t *testing.T) {
			before := e.queries.n.Load()
			r := e.page(anon, "/"+tc.slug+"/")
			body := string(r.Raw)
			if r.Status != 200 {
				t.Fatalf("status %d", r.Status)
			}
			// the neighbours (and that there are no comments) come with the
			// post, in its statement: none of its own for them
			n := int(e.queries.n.Load() - before)
			if n > 16 {
				t.Fatalf("%d statements: more than the counter keeps", n)
			}
			for _, sql := range e.queries.lastSQL(n) {
				neighbours := strings.Contains(sql, "date_gmt <") && !strings.Contains(sql, "p.slug = $1")
				if neighbours || strings.Contains(sql, "FROM comments WHERE post = $1") {
					t.Errorf("a statement of its own for the neighbours or comments: %.80s", sql)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("no %s in the page", w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(body, n) {
					t.Errorf("%q in the page", n)
				}
			}
		})
	}
}
