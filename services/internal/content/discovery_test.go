package content

import (
	"encoding/json"
	"fmt"
	"reflect"
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

// /types and /taxonomies carry what WordPress 6.9.7 lists (asked of the
// peer): the types it registers with REST routes, supports with editor
// notes on posts and pages, and the term form's field descriptions.
func TestDiscoveryAsWordPress69(t *testing.T) {
	e := newEnv(t)
	types := e.do(admin, "GET", "/cms/v2/types?context=edit", nil)
	taxes := e.do(admin, "GET", "/cms/v2/taxonomies?context=edit", nil)
	slugDesc := "The &#8220;slug&#8221; is the URL-friendly version of the name. It is usually all lowercase and contains only letters, numbers, and hyphens."
	cases := []struct {
		name string
		got  any
		want string // JSON
	}{
		{"post supports", field(types.obj(), "post", "supports"), `{"title":true,"editor":[{"notes":true}],"author":true,"thumbnail":true,"excerpt":true,"trackbacks":true,"custom-fields":true,"comments":true,"revisions":true,"post-formats":true,"autosave":true}`},
		{"page editor", field(types.obj(), "page", "supports", "editor"), `[{"notes":true}]`},
		{"menu item supports", field(types.obj(), "nav_menu_item", "supports"), `{"title":true,"editor":true,"autosave":true}`},
		{"block supports", field(types.obj(), "wp_block", "supports"), `{"title":true,"excerpt":true,"editor":true,"revisions":true,"custom-fields":true,"autosave":true}`},
		{"global styles", field(types.obj(), "wp_global_styles", "rest_base"), `"global-styles"`},
		{"global styles read", field(types.obj(), "wp_global_styles", "capabilities", "read"), `"edit_posts"`},
		{"font families", field(types.obj(), "wp_font_family", "supports"), `{"title":true}`},
		{"font faces", field(types.obj(), "wp_font_face", "rest_base"), `"font-families/(?P<font_family_id>[\\d]+)/font-faces"`},
		{"category name field", field(taxes.obj(), "category", "labels", "name_field_description"), `"The name is how it appears on your site."`},
		{"category slug field", field(taxes.obj(), "category", "labels", "slug_field_description"), string(mustJSON(t, slugDesc))},
		{"tag parent field", field(taxes.obj(), "post_tag", "labels", "parent_field_description"), `null`},
		{"menu desc field", field(taxes.obj(), "nav_menu", "labels", "desc_field_description"), `"The description is not prominent by default; however, some themes may show it."`},
		{"category template name", field(taxes.obj(), "category", "labels", "template_name"), `"Category Archives"`},
	}
	for _, c := range cases {
		var want any
		if err := json.Unmarshal([]byte(c.want), &want); err != nil {
			t.Fatal(err)
		}
		if got, _ := json.Marshal(c.got); !reflect.DeepEqual(c.got, want) {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	if _, has := field(taxes.obj(), "post_tag", "labels").(map[string]any)["parent_field_description"]; !has {
		t.Error("post_tag labels without parent_field_description (WordPress: null)")
	}
}

// /types has template and template_lock in every context, embed included,
// as WordPress 6.9.7's schema declares them.
func TestTypesTemplateInEveryContext(t *testing.T) {
	e := newEnv(t)
	cases := []struct{ who, path string }{
		{anon, "/cms/v2/types/post?context=embed"},
		{anon, "/cms/v2/types/page"},
		{admin, "/cms/v2/types/wp_block?context=edit"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			r := e.do(c.who, "GET", c.path, nil)
			wantStatus(t, r, 200)
			if tpl, ok := r.obj()["template"].([]any); !ok || len(tpl) != 0 || r.obj()["template_lock"] != false {
				t.Errorf("template %v, template_lock %v: %s", r.obj()["template"], r.obj()["template_lock"], r.Raw)
			}
		})
	}
	r := e.do(anon, "GET", "/cms/v2/types?context=embed", nil)
	if _, ok := field(r.obj(), "post").(map[string]any)["template_lock"]; !ok {
		t.Errorf("list in embed context: %s", r.Raw)
	}
}

// Taxonomy labels are get_taxonomy_labels' (WordPress 6.9.7): generic tag
// or category defaults under each taxonomy's own labels, archives only
// where the taxonomy names itself, name_admin_bar the taxonomy's name when
// it has no singular name of its own.
func TestTaxonomyLabels(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		tax, key string
		want     any // "absent": no such key
	}{
		{"category", "archives", "absent"},
		{"category", "name_admin_bar", "category"},
		{"category", "add_or_remove_items", nil},
		{"category", "popular_items", nil},
		{"category", "template_name", "Category Archives"},
		{"category", "add_new_item", "Add Category"},
		{"post_tag", "archives", "absent"},
		{"post_tag", "name_admin_bar", "post_tag"},
		{"post_tag", "parent_item", nil},
		{"post_tag", "add_or_remove_items", "Add or remove tags"},
		{"nav_menu", "archives", "Navigation Menus"},
		{"nav_menu", "search_items", "Search Tags"},
		{"nav_menu", "name_admin_bar", "Navigation Menu"},
		{"nav_menu", "menu_name", "Navigation Menus"},
		{"cms_pattern_category", "archives", "Pattern Categories"},
		{"cms_pattern_category", "popular_items", "Popular Pattern Categories"},
		{"cms_pattern_category", "filter_by_item", nil},
	}
	r := e.do(admin, "GET", "/cms/v2/taxonomies?context=edit", nil)
	wantStatus(t, r, 200)
	for _, c := range cases {
		t.Run(c.tax+"/"+c.key, func(t *testing.T) {
			if got := label(r, c.tax, c.key); got != c.want {
				t.Errorf("%s labels.%s = %v, want %v", c.tax, c.key, got, c.want)
			}
		})
	}
}

// Post type labels have WordPress 6.9.7's keys (as the peer answers them):
// template_name ("Single item: …", which get_post_type_labels adds; post
// and page have none) and the parent_item_colon the site editor's flat
// types register; other flat types have null.
func TestPostTypeLabelKeys(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		typ, key string
		want     any
	}{
		{"post", "template_name", "absent"},
		{"page", "template_name", "absent"},
		{"attachment", "template_name", "Single item: Media"},
		{"wp_block", "template_name", "Single item: Pattern"},
		{"post", "parent_item_colon", nil},
		{"page", "parent_item_colon", "Parent Page:"},
		{"wp_template", "parent_item_colon", "Parent Template:"},
		{"wp_template_part", "parent_item_colon", "Parent Template Part:"},
		{"wp_navigation", "parent_item_colon", "Parent Navigation Menu:"},
	}
	r := e.do(admin, "GET", "/cms/v2/types?context=edit", nil)
	wantStatus(t, r, 200)
	for _, c := range cases {
		t.Run(c.typ+"/"+c.key, func(t *testing.T) {
			if got := label(r, c.typ, c.key); got != c.want {
				t.Errorf("%s labels.%s = %v, want %v", c.typ, c.key, got, c.want)
			}
		})
	}
}

// label is labels.key of one entry of a /types or /taxonomies answer,
// "absent" when it has no such key.
func label(r *resp, entry, key string) any {
	labels, _ := field(r.obj(), entry, "labels").(map[string]any)
	if v, ok := labels[key]; ok {
		return v
	}
	return "absent"
}
