package content

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// Themes and global styles.

func TestThemes(t *testing.T) {
	e := newEnv(t)
	r := e.do(admin, "GET", "/cms/v2/themes", nil)
	wantStatus(t, r, 200)
	if len(r.list()) != 1 || r.Header.Get("X-WP-Total") != "1" {
		t.Fatalf("themes: %s", r.Raw)
	}
	th := r.list()[0]
	if th["stylesheet"] != "siteplane" || th["template"] != "siteplane" || th["status"] != "active" || field(th, "name", "raw") != "Siteplane" ||
		th["version"] != "1.0.0" || th["textdomain"] != "siteplane" || th["is_block_theme"] != true || field(th, "theme_supports", "block-templates") != true {
		t.Errorf("theme: %s", r.Raw)
	}
	links, _ := field(th, "_links", "wp:user-global-styles").([]any)
	if len(links) != 1 {
		t.Fatalf("user-global-styles link: %s", r.Raw)
	}
	gsHref := str(links[0].(map[string]any)["href"])
	if !strings.HasPrefix(gsHref, "http://example.test/cms-json/cms/v2/global-styles/") {
		t.Fatalf("gs href %q", gsHref)
	}
	// the link resolves, and stays the same
	gs := e.do(contributor, "GET", strings.TrimPrefix(gsHref, "http://example.test/cms-json"), nil)
	wantStatus(t, gs, 200)
	again := e.do(admin, "GET", "/cms/v2/themes/siteplane", nil)
	wantStatus(t, again, 200)
	if l, _ := field(again.obj(), "_links", "wp:user-global-styles").([]any); len(l) != 1 || l[0].(map[string]any)["href"] != gsHref {
		t.Errorf("second read names another global styles post: %s", again.Raw)
	}
	if r := e.do(admin, "GET", "/cms/v2/themes?status=inactive", nil); len(r.list()) != 0 {
		t.Errorf("inactive: %s", r.Raw)
	}
	wantStatus(t, e.do(contributor, "GET", "/cms/v2/themes?status=active", nil), 200)
	wantStatus(t, e.do(contributor, "GET", "/cms/v2/themes/siteplane", nil), 200)
	wantError(t, e.do(contributor, "GET", "/cms/v2/themes", nil), 403, "rest_cannot_view_themes", "Sorry, you are not allowed to view themes.")
	wantError(t, e.do(anon, "GET", "/cms/v2/themes?status=active", nil), 401, "rest_cannot_view_active_theme", "Sorry, you are not allowed to view the active theme.")
	wantError(t, e.do(subscriber, "GET", "/cms/v2/themes/siteplane", nil), 403, "rest_cannot_view_active_theme", "")
	wantError(t, e.do(contributor, "GET", "/cms/v2/themes/other", nil), 403, "rest_cannot_view_themes", "")
	wantError(t, e.do(admin, "GET", "/cms/v2/themes/other", nil), 404, "rest_theme_not_found", "Theme not found.")
	wantError(t, e.do(admin, "GET", "/cms/v2/themes?status=bogus", nil), 400, "rest_invalid_param", "")
}

func gsID(t *testing.T, e *testEnv) string {
	t.Helper()
	r := e.do(admin, "GET", "/cms/v2/themes/siteplane", nil)
	l, _ := field(r.obj(), "_links", "wp:user-global-styles").([]any)
	if len(l) != 1 {
		t.Fatalf("no global styles link: %s", r.Raw)
	}
	href := str(l[0].(map[string]any)["href"])
	return href[strings.LastIndex(href, "/")+1:]
}

func TestGlobalStyles(t *testing.T) {
	e := newEnv(t)
	id := gsID(t, e)
	path := "/cms/v2/global-styles/" + id
	g := e.do(contributor, "GET", path, nil)
	wantStatus(t, g, 200)
	if str(g.obj()["id"]) == "" && g.obj()["id"] == nil || field(g.obj(), "title", "rendered") != "Custom Styles" {
		t.Errorf("global styles: %s", g.Raw)
	}
	if string(mustJSON(t, g.obj()["styles"])) != "{}" || string(mustJSON(t, g.obj()["settings"])) != "{}" {
		t.Errorf("empty styles/settings are objects: %s", g.Raw)
	}
	wantError(t, e.do(anon, "GET", path, nil), 401, "rest_cannot_view", "Sorry, you are not allowed to view this global style.")
	wantError(t, e.do(subscriber, "GET", path, nil), 403, "rest_cannot_view", "")
	wantError(t, e.do(editor, "GET", path+"?context=edit", nil), 403, "rest_forbidden_context", "Sorry, you are not allowed to edit this global style.")
	wantStatus(t, e.do(admin, "GET", path+"?context=edit", nil), 200)
	wantError(t, e.do(editor, "POST", path, map[string]any{"styles": map[string]any{}}), 403, "rest_cannot_edit", "Sorry, you are not allowed to edit this global style.")
	wantError(t, e.do(admin, "GET", "/cms/v2/global-styles/999999", nil), 404, "rest_global_styles_not_found", "No global styles config exist with that id.")
	wantError(t, e.do(admin, "GET", "/cms/v2/global-styles/abc", nil), 404, "rest_global_styles_not_found", "")
	post := e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "p"})
	wantError(t, e.do(admin, "GET", "/cms/v2/global-styles/"+store.Itoa(post.id()), nil), 404, "rest_global_styles_not_found", "")
	wantError(t, e.do(admin, "POST", path, map[string]any{"styles": map[string]any{"css": "body{color:red}</style><script>"}}), 400, "rest_custom_css_illegal_markup", "Markup is not allowed in CSS.")
	wantError(t, e.do(admin, "DELETE", path, nil), 404, "rest_no_route", "")
	wantError(t, e.do(admin, "POST", "/cms/v2/global-styles", nil), 404, "rest_no_route", "")

	u := e.do(admin, "PUT", path, map[string]any{"styles": map[string]any{"color": map[string]any{"text": "#111"}, "css": "p{margin:0}"}})
	wantStatus(t, u, 200)
	if field(u.obj(), "styles", "color", "text") != "#111" || field(u.obj(), "_links", "wp:action-edit-css") == nil || field(u.obj(), "_links", "wp:action-publish") == nil {
		t.Fatalf("update: %s", u.Raw)
	}
	if field(g.obj(), "_links", "wp:action-publish") != nil {
		t.Errorf("a contributor's view has no publish action: %s", g.Raw)
	}
	u = e.do(admin, "PATCH", path, map[string]any{"settings": map[string]any{"color": map[string]any{"custom": false}}, "title": "Mine"})
	wantStatus(t, u, 200)
	if field(u.obj(), "styles", "color", "text") != "#111" || field(u.obj(), "settings", "color", "custom") != false || field(u.obj(), "title", "raw") != "Mine" {
		t.Errorf("settings update keeps styles: %s", u.Raw)
	}
	var content string
	if err := e.pool.QueryRow(t.Context(), `SELECT content FROM posts WHERE id = $1`, id).Scan(&content); err != nil ||
		!strings.Contains(content, `"isGlobalStylesUserThemeJSON":true`) || !strings.Contains(content, `"version":3`) {
		t.Errorf("stored: %s %v", content, err)
	}

	// revisions: one per change
	rv := e.do(admin, "GET", path+"/revisions", nil)
	wantStatus(t, rv, 200)
	if len(rv.list()) != 2 || rv.Header.Get("X-WP-Total") != "2" || field(rv.list()[0], "settings", "color", "custom") != false || rv.list()[1]["settings"] == nil {
		t.Fatalf("revisions: %s", rv.Raw)
	}
	if p := e.do(admin, "GET", path+"/revisions?per_page=1&page=2", nil); len(p.list()) != 1 || p.Header.Get("X-WP-TotalPages") != "2" {
		t.Errorf("page 2: %s", p.Raw)
	}
	revID := store.Itoa(rv.id0())
	wantStatus(t, e.do(admin, "GET", path+"/revisions/"+revID, nil), 200)
	wantError(t, e.do(admin, "GET", path+"/revisions/999999", nil), 404, "rest_post_invalid_id", "")
	wantError(t, e.do(admin, "GET", "/cms/v2/global-styles/999999/revisions", nil), 404, "rest_post_invalid_parent", "Invalid post parent ID.")
	// WordPress 6.9.7's code and message (the revisions controller's)
	wantError(t, e.do(anon, "GET", path+"/revisions", nil), 401, "rest_cannot_read", "Sorry, you are not allowed to view revisions of this post.")
	wantError(t, e.do(editor, "GET", path+"/revisions/"+revID, nil), 403, "rest_cannot_read", "Sorry, you are not allowed to view revisions of this post.")
	wantError(t, e.do(admin, "GET", path+"/revisions?page=3", nil), 400, "rest_revision_invalid_page_number", "")
	wantError(t, e.do(admin, "DELETE", path+"/revisions/"+revID, nil), 404, "rest_no_route", "")
	// a global styles post whose content is not user data
	if _, err := e.pool.Exec(t.Context(), `UPDATE posts SET content = '{}' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	wantError(t, e.do(admin, "GET", path+"/revisions", nil), 404, "rest_global_styles_not_found", "Cannot find user global styles revisions.")
}

func TestThemeGlobalStylesAndVariations(t *testing.T) {
	e := newEnv(t)
	r := e.do(contributor, "GET", "/cms/v2/global-styles/themes/siteplane", nil)
	wantStatus(t, r, 200)
	if field(r.obj(), "settings", "color", "palette") == nil || field(r.obj(), "styles", "typography") == nil || field(r.obj(), "_links", "self") == nil {
		t.Errorf("theme styles: %s", r.Raw)
	}
	v := e.do(admin, "GET", "/cms/v2/global-styles/themes/siteplane/variations", nil)
	wantStatus(t, v, 200)
	if len(v.list()) < 1 || v.list()[0]["title"] == nil {
		t.Errorf("variations: %s", v.Raw)
	}
	wantError(t, e.do(admin, "GET", "/cms/v2/global-styles/themes/other", nil), 404, "rest_theme_not_found", "Theme not found.")
	wantError(t, e.do(admin, "GET", "/cms/v2/global-styles/themes/other/variations", nil), 404, "rest_theme_not_found", "")
	msg := "Sorry, you are not allowed to access the global styles on this site."
	wantError(t, e.do(anon, "GET", "/cms/v2/global-styles/themes/siteplane", nil), 401, "rest_cannot_read_global_styles", msg)
	wantError(t, e.do(subscriber, "GET", "/cms/v2/global-styles/themes/siteplane/variations", nil), 403, "rest_cannot_read_global_styles", msg)
}

// TestThemeRoleMatrix: who may do what, per route family.
func TestThemeRoleMatrix(t *testing.T) {
	e := newEnv(t)
	id := gsID(t, e)
	wantStatus(t, e.do(admin, "PUT", "/cms/v2/templates/siteplane//page", map[string]any{"content": "x"}), 200)
	type row struct {
		method, path string
		body         any
		want         map[string]int // role → status; roles absent answer 403 (anonymous 401)
	}
	all := map[string]int{admin: 200, editor: 200, author: 200, contributor: 200}
	adminOnly := map[string]int{admin: 200}
	rows := []row{
		{"GET", "/cms/v2/themes?status=active", nil, all},
		{"GET", "/cms/v2/themes", nil, adminOnly},
		{"GET", "/cms/v2/templates", nil, all},
		{"GET", "/cms/v2/template-parts/siteplane//header", nil, all},
		{"GET", "/cms/v2/templates/lookup?slug=single", nil, all},
		{"POST", "/cms/v2/templates/siteplane//page", map[string]any{"description": "d"}, adminOnly},
		{"GET", "/cms/v2/templates/siteplane//page/revisions", nil, adminOnly},
		{"GET", "/cms/v2/global-styles/" + id, nil, all},
		{"GET", "/cms/v2/global-styles/" + id + "?context=edit", nil, adminOnly},
		{"POST", "/cms/v2/global-styles/" + id, map[string]any{"title": "t"}, adminOnly},
		{"GET", "/cms/v2/global-styles/" + id + "/revisions", nil, adminOnly}, // edit_post of wp_global_styles: edit_theme_options
		{"GET", "/cms/v2/global-styles/themes/siteplane", nil, all},
		{"GET", "/cms/v2/global-styles/themes/siteplane/variations", nil, all},
	}
	for _, rw := range rows {
		for _, who := range []string{anon, subscriber, contributor, author, editor, admin} {
			want, ok := rw.want[who]
			if !ok {
				want = http.StatusForbidden
				if who == anon {
					want = http.StatusUnauthorized
				}
			}
			if got := e.do(who, rw.method, rw.path, rw.body); got.Status != want {
				t.Errorf("%s %s as %s: %d, want %d (%s)", rw.method, rw.path, who, got.Status, want, got.Raw)
			}
		}
	}
}

func TestThemeRoutesInIndex(t *testing.T) {
	e := newEnv(t)
	srv, err := e.svc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range srv.Describe() {
		if !strings.HasPrefix(d.Route, "/cms/v2/global-styles") && !strings.HasPrefix(d.Route, "/cms/v2/templates") && !strings.HasPrefix(d.Route, "/cms/v2/themes") {
			continue
		}
		seen[d.Route] = true
		for _, ep := range d.Endpoints {
			gs := strings.HasPrefix(d.Route, "/cms/v2/global-styles")
			if gs && (ep.AllowBatch == nil || ep.AllowBatch.V1) {
				t.Errorf("%s: allow_batch must be {v1:false}", d.Route)
			}
			if !gs && ep.AllowBatch != nil {
				t.Errorf("%s: not batchable, allow_batch must be absent", d.Route)
			}
		}
	}
	if len(seen) < 12 {
		t.Errorf("routes described: %v", seen)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The theme answer has every key WordPress 6.9.7's themes controller gives a
// block theme (asked of the peer), in its order.
func TestThemeKeysAsWordPress69(t *testing.T) {
	e := newEnv(t)
	r := e.do(admin, "GET", "/cms/v2/themes/siteplane", nil)
	wantStatus(t, r, 200)
	var keys []string
	dec := json.NewDecoder(strings.NewReader(string(r.Raw)))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	want := "stylesheet template requires_php requires_wp textdomain version screenshot author author_uri description name tags theme_uri status " +
		"theme_supports is_block_theme stylesheet_uri template_uri default_template_types default_template_part_areas _links"
	if strings.Join(keys, " ") != want {
		t.Errorf("keys %v\nwant %s", keys, want)
	}
	o := r.obj()
	cases := []struct {
		name string
		got  any
		want any
	}{
		{"theme_supports keys", len(o["theme_supports"].(map[string]any)), 24},
		{"custom-logo", field(o, "theme_supports", "custom-logo"), false},
		{"stylesheet_uri", o["stylesheet_uri"], "http://example.test/cms-content/themes/siteplane"},
		{"template types", len(o["default_template_types"].([]any)), 26},
		{"first type", fmt.Sprint(o["default_template_types"].([]any)[0]), "map[description:Used as a fallback template for all pages when a more specific template is not defined. slug:index title:Index]"},
		{"part areas", len(o["default_template_part_areas"].([]any)), 3},
		{"header tag", fmt.Sprint(o["default_template_part_areas"].([]any)[1].(map[string]any)["area_tag"]), "header"},
	}
	for _, c := range cases {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
}
