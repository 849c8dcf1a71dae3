package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

func TestMenuItemRoleMatrix(t *testing.T) {
	e := newEnv(t)
	menu := e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "Main"}).id()
	item := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"title": "Home", "url": "https://example.test/", "menus": menu})
	wantStatus(t, item, 201)
	path := fmt.Sprintf("/cms/v2/menu-items/%d", item.id())
	roles := []string{anon, subscriber, contributor, author, editor, admin}
	read := []int{401, 403, 200, 200, 200, 200}
	write := []int{401, 403, 403, 403, 403, 200}
	for i, who := range roles {
		t.Run(who, func(t *testing.T) {
			for _, p := range []string{"/cms/v2/menu-items", path} {
				r := e.do(who, "GET", p, nil)
				if r.Status != read[i] {
					t.Fatalf("GET %s: %d %s", p, r.Status, r.Raw)
				}
				if r.Status >= 400 {
					wantError(t, r, read[i], "rest_cannot_view", "Sorry, you are not allowed to view menu items.")
				}
			}
			c := e.do(who, "POST", "/cms/v2/menu-items", map[string]any{"title": "x", "url": "https://x.test/"})
			wantCode := map[bool]int{true: 201, false: write[i]}[write[i] == 200]
			if c.Status != wantCode || (c.Status >= 400 && c.obj()["code"] != "rest_cannot_create") {
				t.Fatalf("create: %d %s", c.Status, c.Raw)
			}
			u := e.do(who, "PATCH", path, map[string]any{"title": "Home"})
			if u.Status != write[i] || (u.Status >= 400 && u.obj()["code"] != "rest_cannot_edit") {
				t.Fatalf("update: %d %s", u.Status, u.Raw)
			}
			if who != admin {
				d := e.do(who, "DELETE", path+"?force=true", nil)
				if d.Status != write[i] || d.obj()["code"] != "rest_cannot_delete" {
					t.Fatalf("delete: %d %s", d.Status, d.Raw)
				}
			}
		})
	}
	// context=edit needs edit_theme_options: a contributor reads but not in edit
	wantError(t, e.do(contributor, "GET", "/cms/v2/menu-items?context=edit", nil), 403, "rest_forbidden_context", "")
	wantError(t, e.do(contributor, "GET", path+"?context=edit", nil), 403, "rest_forbidden_context", "")
}

func TestMenuItemFieldsAndDefaults(t *testing.T) {
	e := newEnv(t)
	menu := e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "Main"}).id()
	r := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"title": "Docs", "url": "https://docs.test/a",
		"classes": []string{"big red", "x!y"}, "xfn": []string{"friend"}, "attr_title": "<b>Read</b> it", "description": "about",
		"target": "_blank", "menus": menu})
	wantStatus(t, r, 201)
	o := r.obj()
	if r.Header.Get("Location") != fmt.Sprintf("http://example.test/cms-json/cms/v2/menu-items/%d", r.id()) {
		t.Fatalf("Location: %v", r.Header)
	}
	want := map[string]any{"type": "custom", "status": "publish", "parent": float64(0), "menu_order": float64(1),
		"object": "custom", "object_id": float64(r.id()), "url": "https://docs.test/a", "attr_title": "Read it",
		"description": "about", "target": "_blank", "type_label": "Custom Link", "invalid": false, "menus": float64(menu)}
	for k, v := range want {
		if o[k] != v {
			t.Fatalf("%s = %v, want %v: %s", k, o[k], v, r.Raw)
		}
	}
	if fmt.Sprint(o["classes"]) != "[big red xy]" || fmt.Sprint(o["xfn"]) != "[friend]" {
		t.Fatalf("classes/xfn: %s", r.Raw)
	}
	if field(o, "title", "raw") != "Docs" || field(o, "title", "rendered") != "Docs" {
		t.Fatalf("title: %s", r.Raw)
	}
	// defaults apply on create only: an update keeps what is stored
	u := e.do(admin, "POST", fmt.Sprintf("/cms/v2/menu-items/%d", r.id()), map[string]any{"menu_order": 4, "status": "pending"})
	wantStatus(t, u, 200)
	if u.obj()["menu_order"] != float64(4) || u.obj()["status"] != "draft" || u.obj()["target"] != "_blank" ||
		u.obj()["menus"] != float64(menu) || u.obj()["type"] != "custom" || u.obj()["url"] != "https://docs.test/a" {
		t.Fatalf("update: %s", u.Raw)
	}
	// view context: no title.raw; embed: no menus/meta
	// a draft item is readable only with edit_theme_options
	wantError(t, e.do(editor, "GET", fmt.Sprintf("/cms/v2/menu-items/%d", r.id()), nil), 403, "rest_forbidden", "")
	v := e.do(admin, "GET", fmt.Sprintf("/cms/v2/menu-items/%d", r.id()), nil)
	if field(v.obj(), "title", "raw") != nil || v.obj()["menus"] != float64(menu) {
		t.Fatalf("view: %s", v.Raw)
	}
	em := e.do(admin, "GET", fmt.Sprintf("/cms/v2/menu-items/%d?context=embed", r.id()), nil)
	if _, ok := em.obj()["menus"]; ok {
		t.Fatalf("embed has menus: %s", em.Raw)
	}
	// an item cannot be its own parent
	p := e.do(admin, "PATCH", fmt.Sprintf("/cms/v2/menu-items/%d", r.id()), map[string]any{"parent": r.id()})
	if p.obj()["parent"] != float64(0) {
		t.Fatalf("self parent: %s", p.Raw)
	}
}

func TestMenuItemObjects(t *testing.T) {
	e := newEnv(t)
	page := e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "About us", "status": "publish"})
	cat := e.do(admin, "POST", "/cms/v2/categories", map[string]any{"name": "News"})
	r := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"type": "post_type", "object_id": page.id(), "url": "https://ignored.test/"})
	wantStatus(t, r, 201)
	o := r.obj()
	if o["object"] != "page" || o["type_label"] != "Page" || field(o, "title", "rendered") != "About us" ||
		o["url"] != "http://example.test/about-us/" || o["invalid"] != false {
		t.Fatalf("post_type item: %s", r.Raw)
	}
	obj := field(o, "_links", "wp:menu-item-object").([]any)[0].(map[string]any)
	if obj["post_type"] != "page" || obj["href"] != fmt.Sprintf("http://example.test/cms-json/cms/v2/pages/%d", page.id()) {
		t.Fatalf("wp:menu-item-object: %v", obj)
	}
	tx := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"type": "taxonomy", "object_id": cat.id(), "title": "Latest"})
	wantStatus(t, tx, 201)
	if tx.obj()["object"] != "category" || tx.obj()["url"] != "http://example.test/category/news/" ||
		field(tx.obj(), "title", "rendered") != "Latest" || tx.obj()["type_label"] != "Category" {
		t.Fatalf("taxonomy item: %s", tx.Raw)
	}
	arch := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"type": "post_type_archive", "object": "post", "title": "Blog"})
	wantStatus(t, arch, 201)
	if arch.obj()["url"] != "http://example.test/" || arch.obj()["type_label"] != "Post Type Archive" {
		t.Fatalf("archive item: %s", arch.Raw)
	}
	// the linked page goes: the item is invalid
	wantStatus(t, e.do(admin, "DELETE", fmt.Sprintf("/cms/v2/pages/%d?force=true", page.id()), nil), 200)
	g := e.do(admin, "GET", fmt.Sprintf("/cms/v2/menu-items/%d", r.id()), nil)
	if g.obj()["invalid"] != true {
		t.Fatalf("invalid: %s", g.Raw)
	}
}

func TestMenuItemValidation(t *testing.T) {
	e := newEnv(t)
	post := e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "P", "status": "publish"})
	tag := e.do(admin, "POST", "/cms/v2/tags", map[string]any{"name": "T"})
	cases := []struct {
		name   string
		body   map[string]any
		status int
		code   string
		msg    string
	}{
		{"taxonomy without term", map[string]any{"type": "taxonomy", "object_id": 99999}, 400, "rest_term_invalid_id", "Invalid term ID."},
		{"taxonomy with the wrong object", map[string]any{"type": "taxonomy", "object": "category", "object_id": tag.id()}, 400, "rest_term_invalid_id", "Invalid term ID."},
		{"post_type without post", map[string]any{"type": "post_type", "object_id": 99999}, 400, "rest_post_invalid_id", "Invalid post ID."},
		{"post_type with the wrong object", map[string]any{"type": "post_type", "object": "page", "object_id": post.id()}, 400, "rest_post_invalid_id", "Invalid post ID."},
		{"archive of an unknown type", map[string]any{"type": "post_type_archive", "object": "nope"}, 400, "rest_post_invalid_type", "Invalid post type."},
		{"custom without url", map[string]any{"title": "x"}, 400, "rest_url_required", "The url is required when using a custom menu item type."},
		{"unknown menu", map[string]any{"title": "x", "url": "https://x.test/", "menus": -9}, 400, "invalid_menu_id", "Invalid menu ID."},
		{"menu_order 0", map[string]any{"title": "x", "url": "https://x.test/", "menu_order": 0}, 400, "rest_invalid_param", ""},
		{"negative parent", map[string]any{"title": "x", "url": "https://x.test/", "parent": -1}, 400, "rest_invalid_param", ""},
		{"menus as a list", map[string]any{"title": "x", "url": "https://x.test/", "menus": []int{1}}, 400, "rest_invalid_param", ""},
		{"bad target", map[string]any{"title": "x", "url": "https://x.test/", "target": "_top"}, 400, "rest_invalid_param", ""},
		{"bad url", map[string]any{"title": "x", "url": "not a url"}, 400, "rest_invalid_param", ""},
		{"bad type", map[string]any{"type": "other"}, 400, "rest_invalid_param", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, e.do(admin, "POST", "/cms/v2/menu-items", c.body), c.status, c.code, c.msg)
		})
	}
	// title and url both missing: one error with additional_errors
	r := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"type": "custom"})
	want := `{"code":"rest_title_required","message":"The title is required when using a custom menu item type.","data":{"status":400},"additional_errors":[{"code":"rest_url_required","message":"The url is required when using a custom menu item type.","data":{"status":400}}]}`
	if r.Status != 400 || string(bytes.TrimSpace(r.Raw)) != want {
		t.Fatalf("multi-error: %d %s", r.Status, r.Raw)
	}
	bad := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"title": "x", "url": "nope nope"})
	if field(bad.obj(), "data", "details", "url", "code") != "rest_invalid_url" {
		t.Fatalf("bad url details: %s", bad.Raw)
	}
	// updates: unknown id 404, an id of another type 400
	wantError(t, e.do(admin, "PATCH", "/cms/v2/menu-items/99999", map[string]any{"title": "x"}), 404, "rest_post_invalid_id", "Invalid post ID.")
	wantError(t, e.do(admin, "PATCH", fmt.Sprintf("/cms/v2/menu-items/%d", post.id()), map[string]any{"title": "x"}), 400,
		"update_nav_menu_item_failed", "The given object ID is not that of a menu item.")
	wantError(t, e.do(admin, "GET", fmt.Sprintf("/cms/v2/menu-items/%d", post.id()), nil), 404, "rest_post_invalid_id", "Invalid post ID.")
	// nothing half-written: the failed creates left no item
	if l := e.do(admin, "GET", "/cms/v2/menu-items?status=any", nil); l.Header.Get("X-WP-Total") != "0" {
		t.Fatalf("failed writes stored items: %v", l.Header)
	}
}

func TestMenuItemCollectionAndDelete(t *testing.T) {
	e := newEnv(t)
	m1 := e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "One"}).id()
	m2 := e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "Two"}).id()
	var items []int64
	for i, order := range []int{3, 1, 2} {
		menu := m1
		if i == 2 {
			menu = m2
		}
		r := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"title": fmt.Sprintf("I%d", i), "url": "https://x.test/", "menu_order": order, "menus": menu})
		wantStatus(t, r, 201)
		items = append(items, r.id())
	}
	l := e.do(editor, "GET", "/cms/v2/menu-items", nil)
	if fmt.Sprint(ids(l)) != fmt.Sprint([]int64{items[1], items[2], items[0]}) {
		t.Fatalf("default order (menu_order asc): %v", ids(l))
	}
	if l.Header.Get("X-WP-TotalPages") != "1" || !bytes.Contains([]byte(l.Header.Get("Link")), []byte("")) {
		t.Fatalf("paging: %v", l.Header)
	}
	if got := ids(e.do(editor, "GET", fmt.Sprintf("/cms/v2/menu-items?menus=%d", m1), nil)); fmt.Sprint(got) != fmt.Sprint([]int64{items[1], items[0]}) {
		t.Fatalf("menus filter: %v", got)
	}
	if got := ids(e.do(editor, "GET", fmt.Sprintf("/cms/v2/menu-items?menus_exclude=%d", m1), nil)); fmt.Sprint(got) != fmt.Sprint([]int64{items[2]}) {
		t.Fatalf("menus_exclude filter: %v", got)
	}
	if got := ids(e.do(editor, "GET", "/cms/v2/menu-items?menu_order=3", nil)); fmt.Sprint(got) != fmt.Sprint([]int64{items[0]}) {
		t.Fatalf("menu_order filter: %v", got)
	}
	if got := ids(e.do(editor, "GET", "/cms/v2/menu-items?order=desc&per_page=1", nil)); fmt.Sprint(got) != fmt.Sprint([]int64{items[0]}) {
		t.Fatalf("desc, per_page: %v", got)
	}
	// per_page defaults to 100 (the index says so too)
	opts := e.do(editor, "OPTIONS", "/cms/v2/menu-items", nil)
	args := field(opts.obj(), "endpoints").([]any)[0].(map[string]any)["args"].(map[string]any)
	if field(args, "per_page", "default") != float64(100) || field(args, "order", "default") != "asc" || field(args, "orderby", "default") != "menu_order" {
		t.Fatalf("collection defaults: %v", args)
	}
	// delete: no trash
	path := fmt.Sprintf("/cms/v2/menu-items/%d", items[0])
	wantError(t, e.do(admin, "DELETE", path, nil), 501, "rest_trash_not_supported", "Menu items do not support trashing. Set 'force=true' to delete.")
	d := e.do(admin, "DELETE", path+"?force=true", nil)
	if d.Status != 200 || d.obj()["deleted"] != true || field(d.obj(), "previous", "id") != float64(items[0]) {
		t.Fatalf("delete: %s", d.Raw)
	}
	wantError(t, e.do(admin, "GET", path, nil), 404, "rest_post_invalid_id", "")
	// deleting a menu deletes its items
	wantStatus(t, e.do(admin, "DELETE", fmt.Sprintf("/cms/v2/menus/%d?force=true", m1), nil), 200)
	wantError(t, e.do(admin, "GET", fmt.Sprintf("/cms/v2/menu-items/%d", items[1]), nil), 404, "rest_post_invalid_id", "")
	wantStatus(t, e.do(admin, "GET", fmt.Sprintf("/cms/v2/menu-items/%d", items[2]), nil), 200)
}

func TestMenuItemAutosaves(t *testing.T) {
	e := newEnv(t)
	r := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"title": "Home", "url": "https://x.test/"})
	base := fmt.Sprintf("/cms/v2/menu-items/%d", r.id())
	wantError(t, e.do(admin, "GET", base+"/autosaves/1", nil), 404, "rest_post_no_autosave", "")
	a := e.do(admin, "POST", base+"/autosaves", map[string]any{"title": "Home (draft)"})
	wantStatus(t, a, 200)
	if a.obj()["parent"] != float64(r.id()) || field(a.obj(), "title", "raw") != "Home (draft)" {
		t.Fatalf("autosave: %s", a.Raw)
	}
	l := e.do(admin, "GET", base+"/autosaves", nil)
	if len(l.list()) != 1 {
		t.Fatalf("autosaves: %s", l.Raw)
	}
	g := e.do(admin, "GET", fmt.Sprintf("%s/autosaves/%d", base, a.id()), nil)
	if g.id() != a.id() {
		t.Fatalf("autosave item: %s", g.Raw)
	}
	// the item itself is unchanged; an autosave is validated as a write
	if field(e.do(admin, "GET", base+"?context=edit", nil).obj(), "title", "raw") != "Home" {
		t.Fatalf("autosave changed the item")
	}
	wantError(t, e.do(admin, "POST", base+"/autosaves", map[string]any{"menus": 424242}), 400, "invalid_menu_id", "")
	wantError(t, e.do(editor, "POST", base+"/autosaves", map[string]any{"title": "x"}), 403, "rest_cannot_edit", "")
	wantError(t, e.do(editor, "GET", base+"/autosaves", nil), 403, "rest_cannot_read", "")
}

func TestMenuItemBatch(t *testing.T) {
	e := newEnv(t)
	srv, err := e.svc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	h := identity.Middleware(identity.Static(testKey), contract.ServiceContent, nil, nil)(e.svc.BatchHandler(srv, nil))
	run := func(body string) map[string]any {
		t.Helper()
		req := httptest.NewRequest("POST", contract.BatchPath, bytes.NewBufferString(body))
		req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey(testKey), contract.ServiceContent, callers[admin], time.Now().Add(time.Minute)))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
		return out
	}
	first := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"title": "A", "url": "https://a.test/"})
	out := run(fmt.Sprintf(`{"requests":[
		{"method":"POST","route":"/cms/v2/menu-items","query":"","body":{"title":"B","url":"https://b.test/","menu_order":2}},
		{"method":"PUT","route":"/cms/v2/menu-items/%d","query":"","body":{"menu_order":3}}]}`, first.id()))
	if out["committed"] != true {
		t.Fatalf("batch: %v", out)
	}
	if got := ids(e.do(admin, "GET", "/cms/v2/menu-items", nil)); len(got) != 2 || got[1] != first.id() {
		t.Fatalf("after batch: %v", got)
	}
	// one invalid request: nothing is written
	out = run(`{"requests":[
		{"method":"POST","route":"/cms/v2/menu-items","query":"","body":{"title":"C","url":"https://c.test/"}},
		{"method":"POST","route":"/cms/v2/menu-items","query":"","body":{"type":"custom"}}]}`)
	if out["committed"] != false {
		t.Fatalf("batch with an invalid item: %v", out)
	}
	if l := e.do(admin, "GET", "/cms/v2/menu-items", nil); l.Header.Get("X-WP-Total") != "2" {
		t.Fatalf("rolled back batch wrote: %v", l.Header)
	}
	// the index marks every menu-item endpoint batchable
	seen := 0
	for _, path := range []string{"/cms/v2/menu-items", `/cms/v2/menu-items/(?P<id>[\d]+)`} {
		for _, d := range srv.Describe() {
			if d.Route != path {
				continue
			}
			seen++
			for _, ep := range d.Endpoints {
				if ep.AllowBatch == nil || !ep.AllowBatch.V1 {
					t.Fatalf("%s %v not batchable", path, ep.Methods)
				}
			}
		}
	}
	if seen != 2 {
		t.Fatalf("menu-item routes in the index: %d", seen)
	}
}

func TestMenuLocationsAndAutoAdd(t *testing.T) {
	e := newEnv(t)
	a := e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "A", "locations": []string{"primary"}, "auto_add": true})
	wantStatus(t, a, 201)
	if fmt.Sprint(a.obj()["locations"]) != "[primary]" || a.obj()["auto_add"] != true {
		t.Fatalf("create: %s", a.Raw)
	}
	// a location holds one menu: giving it to B takes it from A
	b := e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "B", "locations": []string{"primary", "footer"}})
	if fmt.Sprint(b.obj()["locations"]) != "[primary footer]" || b.obj()["auto_add"] != false {
		t.Fatalf("create B: %s", b.Raw)
	}
	ga := e.do(admin, "GET", fmt.Sprintf("/cms/v2/menus/%d", a.id()), nil)
	if fmt.Sprint(ga.obj()["locations"]) != "[]" || ga.obj()["auto_add"] != true {
		t.Fatalf("A after B took primary: %s", ga.Raw)
	}
	// an update of the name keeps the settings
	u := e.do(admin, "POST", fmt.Sprintf("/cms/v2/menus/%d", b.id()), map[string]any{"name": "B2"})
	if fmt.Sprint(u.obj()["locations"]) != "[primary footer]" {
		t.Fatalf("update: %s", u.Raw)
	}
	r := e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "C", "locations": []string{"sidebar"}})
	wantError(t, r, 400, "rest_invalid_param", "Invalid parameter(s): locations")
	if field(r.obj(), "data", "params", "locations") != "Invalid menu location." || field(r.obj(), "data", "details", "locations", "code") != "rest_invalid_menu_location" {
		t.Fatalf("bad location: %s", r.Raw)
	}
}

// A menu item's object is cleaned as WordPress's sanitize_key does:
// ASCII letters lower-cased, anything else outside [a-z0-9_-] dropped —
// a non-ASCII letter is not folded to an ASCII one (PHP's strtolower is
// ASCII-only), so "category" followed by the Kelvin sign names the
// category taxonomy, not "categoryk".
func TestMenuItemObjectSanitizeKey(t *testing.T) {
	e := newEnv(t)
	cat := e.do(admin, "POST", "/cms/v2/categories", map[string]any{"name": "Keys"}).id()
	for _, c := range []struct{ object, want string }{
		{"CATEGORY", "category"},
		{"category\u212a", "category"},
		{"cat egory!", "category"},
	} {
		r := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"title": "Keys", "type": "taxonomy",
			"object": c.object, "object_id": cat})
		wantStatus(t, r, 201)
		if got := r.obj()["object"]; got != c.want {
			t.Errorf("object %q stored as %v, want %q", c.object, got, c.want)
		}
	}
}
