package stack

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// linkPath returns the path (after the site URL) of an item's first link of rel.
func linkPath(t *testing.T, o map[string]any, rel string) string {
	t.Helper()
	links, _ := o["_links"].(map[string]any)
	l, _ := links[rel].([]any)
	if len(l) == 0 {
		t.Fatalf("no %s link in %v", rel, o["_links"])
	}
	href, _ := l[0].(map[string]any)["href"].(string)
	return strings.TrimPrefix(href, st.SiteURL)
}

// Themes, templates and global styles through the gateway: the index links
// the active theme, its user-global-styles link resolves, a theme template is
// customised and reverted, and global styles keep revisions.
func TestThemeTemplatesAndGlobalStylesOverHTTP(t *testing.T) {
	idx := call(t, "GET", "/cms-json/", nil, admin()...)
	themePath := linkPath(t, idx.Obj(), "wp:active-theme")
	th := call(t, "GET", themePath, nil, admin()...)
	if th.Status != 200 || th.Obj()["stylesheet"] != "siteplane" || th.Obj()["status"] != "active" {
		t.Fatalf("active theme: %d %s", th.Status, th.Raw)
	}
	if anonIdx := call(t, "GET", "/cms-json/", nil); strings.Contains(string(anonIdx.Raw), "wp:active-theme") {
		t.Error("anonymous index links the active theme")
	}
	// global-styles routes are listed with allow_batch {"v1": false}; templates without allow_batch
	routes, _ := idx.Obj()["routes"].(map[string]any)
	gsRoute, _ := routes[`/cms/v2/global-styles/(?P<id>[\/\w-]+)`].(map[string]any)
	if gsRoute == nil || !strings.Contains(fmt.Sprint(gsRoute["endpoints"]), "allow_batch:map[v1:false]") {
		t.Errorf("global styles route in the index: %v", gsRoute)
	}
	if tr, _ := routes["/cms/v2/templates"].(map[string]any); tr == nil || strings.Contains(fmt.Sprint(tr["endpoints"]), "allow_batch") {
		t.Errorf("templates route in the index: %v", tr)
	}

	// global styles: the theme's link, an update, its revision
	gsPath := linkPath(t, th.Obj(), "wp:user-global-styles")
	// The site editor's tests of the same stack save styles too: the
	// update adds one revision to what is there.
	before, _ := strconv.Atoi(call(t, "GET", gsPath+"/revisions", nil, admin()...).Header.Get("X-WP-Total"))
	up := call(t, "PUT", gsPath, map[string]any{"styles": map[string]any{"color": map[string]any{"background": "#000000"}}}, admin()...)
	if up.Status != 200 {
		t.Fatalf("update global styles: %d %s", up.Status, up.Raw)
	}
	// The later tests of the stack (the page validators' contrast checks
	// among them) see the theme's own colours again.
	t.Cleanup(func() {
		call(t, "PUT", gsPath, map[string]any{"styles": map[string]any{}, "settings": map[string]any{}}, admin()...)
	})
	if rv := call(t, "GET", gsPath+"/revisions", nil, admin()...); rv.Status != 200 || rv.Header.Get("X-WP-Total") != strconv.Itoa(before+1) {
		t.Errorf("global styles revisions: %d %s", rv.Status, rv.Raw)
	}
	expectError(t, call(t, "PUT", gsPath, map[string]any{"styles": map[string]any{"css": "<b>"}}, admin()...), 400, "rest_custom_css_illegal_markup")
	if base := call(t, "GET", "/cms-json/cms/v2/global-styles/themes/siteplane", nil, admin()...); base.Status != 200 || base.Obj()["styles"] == nil {
		t.Errorf("theme styles: %d %s", base.Status, base.Raw)
	}
	if v := call(t, "GET", "/cms-json/cms/v2/global-styles/themes/siteplane/variations", nil, admin()...); v.Status != 200 || !strings.HasPrefix(string(v.Raw), "[{") {
		t.Errorf("variations: %d %s", v.Status, v.Raw)
	}
	expectError(t, call(t, "GET", "/cms-json/cms/v2/global-styles/themes/nope", nil, admin()...), 404, "rest_theme_not_found")
	// neither global styles nor templates may be written through a batch
	b := call(t, "POST", "/cms-json/batch/v1", map[string]any{"requests": []any{
		map[string]any{"method": "PUT", "path": strings.TrimPrefix(gsPath, "/cms-json"), "body": map[string]any{"title": "batched"}},
		map[string]any{"method": "POST", "path": "/cms/v2/templates", "body": map[string]any{"slug": "batched"}},
	}}, admin()...)
	if b.Status != 207 {
		t.Fatalf("batch: %d %s", b.Status, b.Raw)
	}
	for i, it := range b.Obj()["responses"].([]any) {
		m := it.(map[string]any)
		if m["status"] != float64(400) || m["body"].(map[string]any)["code"] != "rest_batch_not_allowed" {
			t.Errorf("batch item %d: %v", i, m)
		}
	}

	// templates: a theme template customised (single-slash id) and reverted
	expectError(t, call(t, "GET", "/cms-json/cms/v2/templates", nil), 401, "rest_cannot_manage_templates")
	c := call(t, "POST", "/cms-json/cms/v2/templates/siteplane/page", map[string]any{"content": "<!-- wp:post-content /-->"}, admin()...)
	if c.Status != 200 || c.Obj()["source"] != "custom" || c.Obj()["origin"] != "theme" || c.Obj()["id"] != "siteplane//page" {
		t.Fatalf("customise: %d %s", c.Status, c.Raw)
	}
	call(t, "POST", "/cms-json/cms/v2/templates/siteplane//page", map[string]any{"title": "Pages, edited"}, admin()...)
	if rv := call(t, "GET", "/cms-json/cms/v2/templates/siteplane//page/revisions", nil, admin()...); rv.Status != 200 || rv.Header.Get("X-WP-Total") != "1" {
		t.Errorf("template revisions: %d %s", rv.Status, rv.Raw)
	}
	if l := call(t, "GET", "/cms-json/cms/v2/templates/lookup?slug=page-about", nil, admin()...); l.Obj()["id"] != "siteplane//page" || l.Obj()["source"] != "custom" {
		t.Errorf("lookup: %s", l.Raw)
	}
	expectError(t, call(t, "DELETE", "/cms-json/cms/v2/templates/siteplane//index", nil, admin()...), 400, "rest_invalid_template")
	if d := call(t, "DELETE", "/cms-json/cms/v2/templates/siteplane%2F%2Fpage?force=true", nil, admin()...); d.Status != 200 || d.Obj()["deleted"] != true {
		t.Fatalf("revert: %d %s", d.Status, d.Raw)
	}
	if g := call(t, "GET", "/cms-json/cms/v2/templates/siteplane//page", nil, admin()...); g.Obj()["source"] != "theme" {
		t.Errorf("after revert: %s", g.Raw)
	}
	// a custom template
	n := call(t, "POST", "/cms-json/cms/v2/template-parts", map[string]any{"slug": "promo", "area": "footer", "content": "<!-- wp:paragraph --><p>Sale</p><!-- /wp:paragraph -->"}, admin()...)
	if n.Status != 201 || n.Header.Get("Location") != st.SiteURL+"/cms-json/cms/v2/template-parts/siteplane//promo" {
		t.Fatalf("create part: %d %s %s", n.Status, n.Header.Get("Location"), n.Raw)
	}
	if at, _ := n.Obj()["author_text"].(string); at == "" || at == "Unknown author" || n.Obj()["original_source"] != "user" {
		t.Errorf("a user's part names its author (display name from the gateway): %s", n.Raw)
	}

	// a contributor reads templates but may not change them
	r := call(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": "themecontrib", "email": "themecontrib@example.com",
		"password": "unused", "roles": []string{"contributor"}}, admin()...)
	if r.Status != 201 {
		t.Fatalf("create user: %d %s", r.Status, r.Raw)
	}
	r = call(t, "POST", fmt.Sprintf("/cms-json/cms/v2/users/%v/application-passwords", r.Obj()["id"]), map[string]any{"name": "ci"}, admin()...)
	pw, _ := r.Obj()["password"].(string)
	if g := call(t, "GET", "/cms-json/cms/v2/template-parts?area=footer", nil, "themecontrib", pw); g.Status != 200 || !strings.Contains(string(g.Raw), `"siteplane\/\/promo"`) {
		t.Errorf("contributor list: %d %s", g.Status, g.Raw)
	}
	expectError(t, call(t, "POST", "/cms-json/cms/v2/templates", map[string]any{"slug": "x"}, "themecontrib", pw), 403, "rest_cannot_manage_templates")
	expectError(t, call(t, "PUT", gsPath, map[string]any{"title": "x"}, "themecontrib", pw), 403, "rest_cannot_edit")
	if ci := call(t, "GET", "/cms-json/", nil, "themecontrib", pw); !strings.Contains(string(ci.Raw), "wp:active-theme") {
		t.Error("a contributor may read the active theme: the index links it")
	}
}
