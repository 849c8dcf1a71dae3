package content

import (
	"testing"

	"siteplane.dev/services/internal/content/store"
)

func TestNavigationFallback(t *testing.T) {
	const path = "/cms-block-editor/v1/navigation-fallback"
	e := newEnv(t)
	cases := []routeCase{
		{name: "anonymous", who: anon, path: path, status: 401, code: "rest_cannot_create", message: "Sorry, you are not allowed to create Navigation Menus as this user."},
		{name: "an editor cannot edit theme options", who: editor, path: path, status: 403, code: "rest_cannot_create"},
		{name: "an author", who: author, path: path + "?context=edit", status: 403, code: "rest_cannot_create"},
	}
	runRouteCases(t, e, cases)
	// No navigation and no classic menu: a "Navigation" post listing the
	// pages is made, once.
	first := e.do(admin, "GET", path, nil)
	wantStatus(t, first, 200)
	id := first.id()
	nav := e.do(admin, "GET", "/cms/v2/navigation/"+store.Itoa(id)+"?context=edit", nil)
	wantStatus(t, nav, 200)
	if field(nav.obj(), "title", "raw") != "Navigation" || nav.obj()["slug"] != "navigation" || nav.obj()["status"] != "publish" ||
		field(nav.obj(), "content", "raw") != "<!-- wp:page-list /-->" {
		t.Fatalf("default fallback: %s", nav.Raw)
	}
	want := `{"id":` + store.Itoa(id) + `,"_links":{"self":[{"embeddable":true,"href":"http:\/\/example.test\/cms-json\/cms\/v2\/navigation\/` + store.Itoa(id) +
		`","targetHints":{"allow":["GET","POST","PUT","PATCH","DELETE"]}}]}}`
	if again := e.do(admin, "GET", path+"?context=edit", nil); !sameJSON(t, string(again.Raw), want) {
		t.Fatalf("second call\n got %s\nwant %s", again.Raw, want)
	}
}

// A site with a classic menu gets a navigation post converted from it, as
// WP_Classic_To_Block_Menu_Converter writes it.
func TestNavigationFallbackFromClassicMenu(t *testing.T) {
	e := newEnv(t)
	page := e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "About", "status": "publish"})
	wantStatus(t, page, 201)
	e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "Old"})
	menu := e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "Main", "locations": []string{"primary"}})
	wantStatus(t, menu, 201)
	e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "Newest"})
	parent := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"title": "", "type": "post_type", "object": "page",
		"object_id": page.id(), "menus": menu.id(), "status": "publish"})
	wantStatus(t, parent, 201)
	child := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"title": "Docs & <more>", "url": "https://docs.example/", "menus": menu.id(),
		"parent": parent.id(), "target": "_blank", "xfn": []string{"nofollow"}, "status": "publish"})
	wantStatus(t, child, 201)

	r := e.do(admin, "GET", "/cms-block-editor/v1/navigation-fallback", nil)
	wantStatus(t, r, 200)
	nav := e.do(admin, "GET", "/cms/v2/navigation/"+store.Itoa(r.id())+"?context=edit", nil)
	want := `<!-- wp:navigation-submenu {"className":"","description":"","id":` + store.Itoa(page.id()) + `,"kind":"post-type","label":"About",` +
		`"opensInNewTab":false,"rel":null,"title":"","type":"page","url":"http://example.test/about/"} -->` +
		`<!-- wp:navigation-link {"className":"","description":"","id":null,"kind":"custom","label":"Docs \u0026 \u003cmore\u003e",` +
		`"opensInNewTab":true,"rel":"nofollow","title":"","type":"custom","url":"https://docs.example/"} /-->` +
		`<!-- /wp:navigation-submenu -->`
	if got := field(nav.obj(), "content", "raw"); got != want || field(nav.obj(), "title", "raw") != "Main" || nav.obj()["slug"] != "main" {
		t.Fatalf("converted menu\n got %v (%v, %v)\nwant %s", got, field(nav.obj(), "title", "raw"), nav.obj()["slug"], want)
	}
}
