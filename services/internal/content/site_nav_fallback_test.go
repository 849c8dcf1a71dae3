package content

import (
	"strings"
	"testing"
)

// A Navigation block without a menu of its own (the theme's header) shows
// the most recently published menu on the website, the one WordPress's
// fallback and the editors' navigation-fallback route give: the site
// editor edits that menu, and the website must show the edit.
func TestSiteNavigationFallbackIsTheNewestMenu(t *testing.T) {
	e := newEnv(t)
	var newest any
	for _, label := range []string{"Older menu link", "Newer menu link"} {
		r := e.do(admin, "POST", "/cms/v2/navigation", map[string]any{"title": label, "status": "publish",
			"content": `<!-- wp:navigation-link {"label":"` + label + `","url":"https://example.org/"} /-->`})
		if r.Status != 201 {
			t.Fatalf("create %s: %d %s", label, r.Status, r.Raw)
		}
		newest = r.obj()["id"]
	}
	if fallback := e.do(admin, "GET", "/cms-block-editor/v1/navigation-fallback", nil); fallback.obj()["id"] != newest {
		t.Fatalf("the navigation fallback: %s, want id %v", fallback.Raw, newest)
	}
	home := e.page(anon, "/")
	if !strings.Contains(string(home.Raw), ">Newer menu link<") || strings.Contains(string(home.Raw), "Older menu link") {
		t.Fatalf("the website's header shows another menu than the fallback:\n%s", home.Raw)
	}
}

// The menu WordPress's fallback makes on a site without a classic menu is
// a page list (navigation-fallback makes it when the site editor opens):
// the website's header lists the published top-level pages in its place,
// as the page-list block does, not nothing.
func TestSiteNavigationPageList(t *testing.T) {
	e := newEnv(t)
	if r := e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "A listed page", "status": "publish"}); r.Status != 201 {
		t.Fatalf("create the page: %d %s", r.Status, r.Raw)
	}
	if r := e.do(admin, "POST", "/cms/v2/navigation", map[string]any{"title": "Navigation", "status": "publish",
		"content": `<!-- wp:navigation-link {"label":"Before the list","url":"https://example.org/"} /--><!-- wp:page-list /-->`}); r.Status != 201 {
		t.Fatalf("create the menu: %d %s", r.Status, r.Raw)
	}
	home := string(e.page(anon, "/").Raw)
	if i, j := strings.Index(home, ">Before the list<"), strings.Index(home, ">A listed page<"); i < 0 || j < i {
		t.Fatalf("the website's header lacks the menu's link and then the page list:\n%s", home)
	}
}
