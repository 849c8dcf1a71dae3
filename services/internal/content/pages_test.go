package content

import (
	"fmt"
	"testing"
)

func TestPages(t *testing.T) {
	e := newEnv(t)
	wantError(t, e.do(author, "POST", "/cms/v2/pages", map[string]any{"title": "x"}), 403, "rest_cannot_create",
		"Sorry, you are not allowed to create posts as this user.")
	wantError(t, e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "x", "parent": 999999}), 400,
		"rest_post_invalid_id", "Invalid post parent ID.")
	parent := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "About", "status": "publish", "menu_order": 3})
	wantStatus(t, parent, 201)
	if parent.obj()["comment_status"] != "closed" || parent.obj()["menu_order"] != float64(3) {
		t.Fatalf("page defaults: %s", parent.Raw)
	}
	var kids []int64
	for i, order := range []int{2, 1} {
		r := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": fmt.Sprintf("Team %d", i), "status": "publish",
			"parent": parent.id(), "menu_order": order})
		wantStatus(t, r, 201)
		kids = append(kids, r.id())
	}
	// same slug under another parent is allowed
	dup := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "About", "status": "publish", "parent": kids[0]})
	if dup.obj()["slug"] != "about" {
		t.Fatalf("slug under another parent: %v", dup.obj()["slug"])
	}
	r := e.do(anon, "GET", fmt.Sprintf("/cms/v2/pages?parent=%d&orderby=menu_order&order=asc", parent.id()), nil)
	if !eq(ids(r), []int64{kids[1], kids[0]}) {
		t.Fatalf("menu_order: %v", ids(r))
	}
	r = e.do(anon, "GET", fmt.Sprintf("/cms/v2/pages?parent_exclude=%d&menu_order=3", parent.id()), nil)
	if !eq(ids(r), []int64{parent.id()}) {
		t.Fatalf("parent_exclude+menu_order: %v", ids(r))
	}
	one := e.do(anon, "GET", fmt.Sprintf("/cms/v2/pages/%d", kids[0]), nil).obj()
	up := one["_links"].(map[string]any)["up"].([]any)[0].(map[string]any)["href"]
	if up != fmt.Sprintf("http://example.test/cms-json/cms/v2/pages/%d", parent.id()) {
		t.Fatalf("up link: %v", up)
	}
	if one["link"] != "http://example.test/about/team-0/" {
		t.Fatalf("child page link: %v", one["link"])
	}
	for _, k := range []string{"sticky", "format", "categories", "tags"} {
		if _, ok := one[k]; ok {
			t.Fatalf("pages have no %s", k)
		}
	}
	// posts-only parameters are not pages parameters (ignored, not errors)
	wantStatus(t, e.do(anon, "GET", "/cms/v2/pages?sticky=bogus", nil), 200)
}

func TestNavigation(t *testing.T) {
	e := newEnv(t)
	wantError(t, e.do(editor, "POST", "/cms/v2/navigation", map[string]any{"title": "Nav"}), 403, "rest_cannot_create",
		"Sorry, you are not allowed to create posts as this user.")
	n := e.do(admin, "POST", "/cms/v2/navigation", map[string]any{"title": "Nav", "status": "publish",
		"content": `<!-- wp:navigation-link {"label":"Home"} /-->`})
	wantStatus(t, n, 201)
	if n.obj()["type"] != "wp_navigation" {
		t.Fatalf("navigation: %s", n.Raw)
	}
	for _, k := range []string{"author", "excerpt", "featured_media", "comment_status", "meta", "class_list"} {
		if _, ok := n.obj()[k]; ok {
			t.Fatalf("navigation has %s", k)
		}
	}
	emb := e.do(anon, "GET", fmt.Sprintf("/cms/v2/navigation/%d?context=embed", n.id()), nil).obj()
	if emb["status"] != "publish" || field(emb, "content", "raw") == nil || field(emb, "title", "raw") != "Nav" {
		t.Fatalf("navigation embed: %v", emb)
	}
	if l := e.do(anon, "GET", "/cms/v2/navigation", nil); len(l.list()) != 1 {
		t.Fatalf("navigation list: %s", l.Raw)
	}
	wantError(t, e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/navigation/%d", n.id()), nil), 403, "rest_cannot_delete", "")
	wantStatus(t, e.do(admin, "DELETE", fmt.Sprintf("/cms/v2/navigation/%d", n.id()), nil), 200)
}
