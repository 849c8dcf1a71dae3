package content

import (
	"fmt"
	"testing"
)

func TestTermsCRUD(t *testing.T) {
	e := newEnv(t)
	wantError(t, e.do(anon, "POST", "/cms/v2/categories", map[string]any{"name": "x"}), 401, "rest_cannot_create",
		"Sorry, you are not allowed to create terms in this taxonomy.")
	wantError(t, e.do(author, "POST", "/cms/v2/categories", map[string]any{"name": "x"}), 403, "rest_cannot_create", "")
	wantError(t, e.do(editor, "POST", "/cms/v2/categories", map[string]any{}), 400, "rest_missing_callback_param", "Missing parameter(s): name")
	// tags are flat: assigning rights suffice to create one
	wantStatus(t, e.do(contributor, "POST", "/cms/v2/tags", map[string]any{"name": "Go"}), 201)

	c := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "News & Views", "description": "d"})
	wantStatus(t, c, 201)
	if c.obj()["slug"] != "news-views" || c.obj()["taxonomy"] != "category" || c.obj()["parent"] != float64(0) ||
		c.Header.Get("Location") != fmt.Sprintf("http://example.test/cms-json/cms/v2/categories/%d", c.id()) {
		t.Fatalf("category: %s", c.Raw)
	}
	r := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "News & Views"})
	wantError(t, r, 400, "term_exists", "A term with the name provided already exists with this parent.")
	if field(r.obj(), "data", "term_id") != float64(c.id()) || fmt.Sprint(r.obj()["additional_data"]) != fmt.Sprint([]any{float64(c.id()), float64(c.id())}) {
		t.Fatalf("term_exists data: %s", r.Raw)
	}
	wantError(t, e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": "go"}), 400, "term_exists",
		"A term with the name provided already exists in this taxonomy.")
	wantError(t, e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "Child", "parent": 9999}), 400,
		"rest_term_invalid", "Parent term does not exist.")
	wantError(t, e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": "Child", "parent": c.id()}), 400,
		"rest_taxonomy_not_hierarchical", "Cannot set parent term, taxonomy is not hierarchical.")
	child := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "Child", "parent": c.id()})
	wantStatus(t, child, 201)

	// the post filter and counts
	post := seedPosts(e, map[string]any{"title": "p", "categories": []int64{child.id()}})[0]
	l := e.do(anon, "GET", fmt.Sprintf("/cms/v2/categories?post=%d", post), nil)
	if len(l.list()) != 1 || l.list()[0]["id"] != float64(child.id()) || l.list()[0]["count"] != float64(1) {
		t.Fatalf("post filter: %s", l.Raw)
	}
	l = e.do(anon, "GET", "/cms/v2/categories?hide_empty=true", nil)
	if len(l.list()) != 1 || l.Header.Get("X-WP-Total") != "1" {
		t.Fatalf("hide_empty: %s", l.Raw)
	}
	l = e.do(anon, "GET", fmt.Sprintf("/cms/v2/categories?parent=%d", c.id()), nil)
	if len(l.list()) != 1 {
		t.Fatalf("parent filter: %s", l.Raw)
	}
	wantError(t, e.do(anon, "GET", "/cms/v2/categories?post=999999", nil), 400, "rest_post_invalid_id", "Invalid post ID.")
	wantError(t, e.do(anon, "GET", "/cms/v2/categories?context=edit", nil), 401, "rest_forbidden_context",
		"Sorry, you are not allowed to edit terms in this taxonomy.")

	// update and delete
	path := fmt.Sprintf("/cms/v2/categories/%d", child.id())
	wantError(t, e.do(author, "POST", path, map[string]any{"name": "x"}), 403, "rest_cannot_update", "Sorry, you are not allowed to edit this term.")
	u := e.do(editor, "PATCH", path, map[string]any{"name": "Renamed", "slug": "renamed"})
	if u.obj()["name"] != "Renamed" || u.obj()["slug"] != "renamed" {
		t.Fatalf("update: %s", u.Raw)
	}
	wantError(t, e.do(editor, "PATCH", path, map[string]any{"slug": "news-views"}), 400, "duplicate_term_slug",
		"The slug &#8220;news-views&#8221; is already in use by another term.")
	wantError(t, e.do(editor, "DELETE", path, nil), 501, "rest_trash_not_supported", "Terms do not support trashing. Set 'force=true' to delete.")
	wantError(t, e.do(author, "DELETE", path+"?force=true", nil), 403, "rest_cannot_delete", "Sorry, you are not allowed to delete this term.")
	d := e.do(editor, "DELETE", path+"?force=true", nil)
	if d.obj()["deleted"] != true || field(d.obj(), "previous", "name") != "Renamed" {
		t.Fatalf("delete: %s", d.Raw)
	}
	wantError(t, e.do(anon, "GET", path, nil), 404, "rest_term_invalid", "Term does not exist.")
	// the post lost the term
	p := e.do(anon, "GET", fmt.Sprintf("/cms/v2/posts/%d", post), nil)
	if fmt.Sprint(p.obj()["categories"]) != "[]" {
		t.Fatalf("post categories after term delete: %v", p.obj()["categories"])
	}
}

func TestMenusAndPatternCategories(t *testing.T) {
	e := newEnv(t)
	wantError(t, e.do(anon, "GET", "/cms/v2/menus", nil), 401, "rest_cannot_view", "Sorry, you are not allowed to view menus.")
	wantError(t, e.do(subscriber, "GET", "/cms/v2/menus", nil), 403, "rest_cannot_view", "")
	wantError(t, e.do(editor, "POST", "/cms/v2/menus", map[string]any{"name": "Main"}), 403, "rest_cannot_create", "")
	m := e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "Main"})
	wantStatus(t, m, 201)
	if _, ok := m.obj()["taxonomy"]; ok {
		t.Fatalf("menus have no taxonomy field: %s", m.Raw)
	}
	wantStatus(t, e.do(contributor, "GET", "/cms/v2/menus", nil), 200)
	// WordPress 6.9.7's order: the term (404), then the edit context, then
	// the menus' read-only access.
	menu := fmt.Sprintf("/cms/v2/menus/%d", m.id())
	for _, c := range []struct {
		who, path     string
		status        int
		code, message string
	}{
		{anon, "/cms/v2/menus?context=edit", 401, "rest_forbidden_context", "Sorry, you are not allowed to edit terms in this taxonomy."},
		{subscriber, "/cms/v2/menus?context=edit", 403, "rest_forbidden_context", ""},
		{anon, menu + "?context=edit", 401, "rest_forbidden_context", "Sorry, you are not allowed to edit this term."},
		{anon, "/cms/v2/menus/999999", 404, "rest_term_invalid", "Term does not exist."},
		{subscriber, "/cms/v2/menus/999999?context=edit", 404, "rest_term_invalid", ""},
		{anon, menu, 401, "rest_cannot_view", "Sorry, you are not allowed to view menus."},
	} {
		wantError(t, e.do(c.who, "GET", c.path, nil), c.status, c.code, c.message)
	}

	pc := e.do(author, "POST", "/cms/v2/cms_pattern_category", map[string]any{"name": "Heroes"})
	wantStatus(t, pc, 201)
	if pc.obj()["taxonomy"] != "cms_pattern_category" {
		t.Fatalf("pattern category: %s", pc.Raw)
	}
	b := e.do(author, "POST", "/cms/v2/blocks", map[string]any{"title": "Hero", "content": "<!-- wp:heading --><h2>x</h2><!-- /wp:heading -->",
		"status": "publish", "cms_pattern_category": []int64{pc.id()}, "meta": map[string]any{"cms_pattern_sync_status": "unsynced"}})
	wantStatus(t, b, 201)
	o := b.obj()
	if fmt.Sprint(o["cms_pattern_category"]) != fmt.Sprint([]any{float64(pc.id())}) || o["cms_pattern_sync_status"] != "unsynced" {
		t.Fatalf("block: %s", b.Raw)
	}
	if field(o, "title", "rendered") != nil || field(o, "content", "rendered") != nil || field(o, "title", "raw") != "Hero" {
		t.Fatalf("block title/content shape: %s", b.Raw)
	}
	if _, ok := o["author"]; ok {
		t.Fatalf("blocks have no author field")
	}
	l := e.do(anon, "GET", fmt.Sprintf("/cms/v2/blocks?cms_pattern_category=%d", pc.id()), nil)
	if len(l.list()) != 0 || l.Header.Get("X-WP-Total") != "1" {
		t.Fatalf("anonymous blocks list: %s %v", l.Raw, l.Header)
	}
	if l := e.do(contributor, "GET", fmt.Sprintf("/cms/v2/blocks?cms_pattern_category=%d", pc.id()), nil); len(l.list()) != 1 {
		t.Fatalf("contributor blocks list: %s", l.Raw)
	}
	wantError(t, e.do(anon, "GET", fmt.Sprintf("/cms/v2/blocks/%d", b.id()), nil), 401, "rest_forbidden", "Sorry, you are not allowed to do that.")
	wantError(t, e.do(contributor, "POST", "/cms/v2/blocks", map[string]any{"title": "x"}), 403, "rest_cannot_create", "")
	// meta values are validated on write with the path meta.<key> (§4.3), not as rest_invalid_param
	wantError(t, e.do(author, "POST", "/cms/v2/blocks", map[string]any{"meta": map[string]any{"cms_pattern_sync_status": "bogus"}}), 400,
		"rest_not_in_enum", "meta.cms_pattern_sync_status is not one of partial and unsynced.")
}

func TestDefaultCategory(t *testing.T) {
	e := newEnv(t)
	r := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "no category"})
	if fmt.Sprint(r.obj()["categories"]) != "[1]" {
		t.Fatalf("default category: %v", r.obj()["categories"])
	}
	r = e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "explicitly none", "categories": []int{}})
	if fmt.Sprint(r.obj()["categories"]) != "[]" {
		t.Fatalf("explicit empty categories: %v", r.obj()["categories"])
	}
	if c := e.do(anon, "GET", "/cms/v2/categories/1", nil); c.obj()["slug"] != "uncategorized" {
		t.Fatalf("uncategorized: %s", c.Raw)
	}
	wantError(t, e.do(admin, "DELETE", "/cms/v2/categories/1?force=true", nil), 500, "rest_cannot_delete", "The term cannot be deleted.")
}
