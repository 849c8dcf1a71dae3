package content

import (
	"fmt"
	"testing"
)

func TestTypes(t *testing.T) {
	e := newEnv(t)
	l := e.do(anon, "GET", "/cms/v2/types", nil)
	wantStatus(t, l, 200)
	o := l.obj()
	for _, name := range []string{"post", "page", "attachment", "nav_menu_item", "wp_block", "wp_navigation"} {
		if o[name] == nil {
			t.Fatalf("type %s missing: %s", name, l.Raw)
		}
	}
	post := o["post"].(map[string]any)
	if post["slug"] != "post" || post["rest_base"] != "posts" || post["rest_namespace"] != "cms/v2" || post["name"] != "Posts" ||
		fmt.Sprint(post["taxonomies"]) != "[category post_tag]" || post["capabilities"] != nil || post["labels"] != nil {
		t.Fatalf("post (view): %v", post)
	}
	g := e.do(editor, "GET", "/cms/v2/types/page?context=edit", nil)
	wantStatus(t, g, 200)
	if field(g.obj(), "capabilities", "edit_posts") != "edit_pages" || field(g.obj(), "labels", "singular_name") != "Page" ||
		field(g.obj(), "supports", "page-attributes") != true || g.obj()["hierarchical"] != true || g.obj()["viewable"] != true {
		t.Fatalf("page (edit): %s", g.Raw)
	}
	em := e.do(anon, "GET", "/cms/v2/types/post?context=embed", nil)
	if em.obj()["description"] != nil || em.obj()["slug"] != "post" {
		t.Fatalf("embed: %s", em.Raw)
	}
	wantError(t, e.do(anon, "GET", "/cms/v2/types/nope", nil), 404, "rest_type_invalid", "Invalid post type.")
	wantError(t, e.do(anon, "GET", "/cms/v2/types?context=edit", nil), 401, "rest_cannot_view", "Sorry, you are not allowed to edit posts in this post type.")
	wantError(t, e.do(subscriber, "GET", "/cms/v2/types?context=edit", nil), 403, "rest_cannot_view", "")
	wantError(t, e.do(author, "GET", "/cms/v2/types/page?context=edit", nil), 403, "rest_forbidden_context", "")
	// edit context lists only the types the caller can edit
	ce := e.do(contributor, "GET", "/cms/v2/types?context=edit", nil)
	if ce.obj()["post"] == nil || ce.obj()["page"] != nil || ce.obj()["wp_navigation"] != nil {
		t.Fatalf("contributor edit list: %s", ce.Raw)
	}
}

func TestTaxonomies(t *testing.T) {
	e := newEnv(t)
	l := e.do(anon, "GET", "/cms/v2/taxonomies", nil)
	if len(l.obj()) != 4 || field(l.obj(), "category", "rest_base") != "categories" || field(l.obj(), "nav_menu", "rest_base") != "menus" {
		t.Fatalf("taxonomies: %s", l.Raw)
	}
	if f := e.do(anon, "GET", "/cms/v2/taxonomies?type=wp_block", nil); len(f.obj()) != 1 || f.obj()["cms_pattern_category"] == nil {
		t.Fatalf("type filter: %s", f.Raw)
	}
	g := e.do(editor, "GET", "/cms/v2/taxonomies/post_tag?context=edit", nil)
	if field(g.obj(), "capabilities", "assign_terms") != "assign_post_tags" || field(g.obj(), "labels", "popular_items") != "Popular Tags" ||
		g.obj()["show_cloud"] != true || g.obj()["hierarchical"] != false || fmt.Sprint(g.obj()["types"]) != "[post]" {
		t.Fatalf("post_tag (edit): %s", g.Raw)
	}
	wantError(t, e.do(anon, "GET", "/cms/v2/taxonomies/nope", nil), 404, "rest_taxonomy_invalid", "Invalid taxonomy.")
	wantError(t, e.do(anon, "GET", "/cms/v2/taxonomies?context=edit", nil), 401, "rest_cannot_view", "Sorry, you are not allowed to manage terms in this taxonomy.")
	wantError(t, e.do(subscriber, "GET", "/cms/v2/taxonomies/category?context=edit", nil), 403, "rest_forbidden_context", "")
	// a contributor assigns categories and tags but not menus
	ce := e.do(contributor, "GET", "/cms/v2/taxonomies?context=edit", nil)
	if ce.obj()["category"] == nil || ce.obj()["nav_menu"] != nil {
		t.Fatalf("contributor edit list: %s", ce.Raw)
	}
}

func TestStatuses(t *testing.T) {
	e := newEnv(t)
	if l := e.do(anon, "GET", "/cms/v2/statuses", nil); len(l.obj()) != 1 || field(l.obj(), "publish", "name") != "Published" {
		t.Fatalf("anonymous statuses: %s", l.Raw)
	}
	if l := e.do(subscriber, "GET", "/cms/v2/statuses", nil); len(l.obj()) != 1 {
		t.Fatalf("subscriber statuses: %s", l.Raw)
	}
	l := e.do(contributor, "GET", "/cms/v2/statuses?context=edit", nil)
	if len(l.obj()) != 6 || field(l.obj(), "draft", "date_floating") != true || field(l.obj(), "private", "private") != true {
		t.Fatalf("contributor statuses: %s", l.Raw)
	}
	wantStatus(t, e.do(anon, "GET", "/cms/v2/statuses/publish", nil), 200)
	wantError(t, e.do(anon, "GET", "/cms/v2/statuses/draft", nil), 401, "rest_cannot_read_status", "Cannot view status.")
	wantError(t, e.do(subscriber, "GET", "/cms/v2/statuses/draft", nil), 403, "rest_cannot_read_status", "")
	wantError(t, e.do(anon, "GET", "/cms/v2/statuses/nope", nil), 404, "rest_status_invalid", "Invalid status.")
	wantError(t, e.do(subscriber, "GET", "/cms/v2/statuses?context=edit", nil), 403, "rest_cannot_view", "Sorry, you are not allowed to manage post statuses.")
	d := e.do(editor, "GET", "/cms/v2/statuses/draft", nil)
	if field(d.obj(), "_links", "archives") == nil || d.obj()["protected"] != nil {
		t.Fatalf("draft (view): %s", d.Raw)
	}
}
