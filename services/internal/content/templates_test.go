package content

import (
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

func tmplIDs(items []map[string]any) []string {
	var out []string
	for _, it := range items {
		out = append(out, str(it["id"]))
	}
	return out
}

func hasID(items []map[string]any, id string) map[string]any {
	for _, it := range items {
		if it["id"] == id {
			return it
		}
	}
	return nil
}

func TestTemplatesListAndGet(t *testing.T) {
	e := newEnv(t)
	r := e.do(admin, "GET", "/cms/v2/templates", nil)
	wantStatus(t, r, 200)
	for _, id := range []string{"siteplane//index", "siteplane//home", "siteplane//single", "siteplane//page", "siteplane//archive", "siteplane//search", "siteplane//404", "siteplane//page-wide"} {
		it := hasID(r.list(), id)
		if it == nil {
			t.Fatalf("%s missing from %v", id, tmplIDs(r.list()))
		}
		if it["source"] != "theme" || it["origin"] != nil || it["has_theme_file"] != true || it["cms_id"] != float64(0) || it["type"] != "wp_template" ||
			it["theme"] != "siteplane" || it["author"] != float64(0) || it["author_text"] != "Siteplane" || it["original_source"] != "theme" || it["status"] != "publish" ||
			it["modified"] != false { // WordPress 6.9.7: false for a theme file
			t.Errorf("%s: %v", id, it)
		}
	}
	if r.Header.Get("X-WP-Total") != "" {
		t.Error("templates are not paginated")
	}
	if it := hasID(r.list(), "siteplane//page-wide"); it["is_custom"] != true || field(it, "title", "raw") != "Wide page" {
		t.Errorf("custom template: %v", it)
	}
	if it := hasID(r.list(), "siteplane//single"); it["is_custom"] != false || field(it, "title", "rendered") != "Single Posts" ||
		!strings.Contains(str(field(it, "content", "raw")), "wp:post-content") {
		t.Errorf("single: %v", it)
	}
	// view context: content has raw but not block_version
	if it := hasID(r.list(), "siteplane//index"); field(it, "content", "block_version") != nil || field(it, "content", "raw") == nil {
		t.Errorf("view content: %v", it["content"])
	}

	parts := e.do(admin, "GET", "/cms/v2/template-parts", nil)
	wantStatus(t, parts, 200)
	if h := hasID(parts.list(), "siteplane//header"); h == nil || h["area"] != "header" || h["type"] != "wp_template_part" || h["is_custom"] != nil {
		t.Fatalf("header part: %v", h)
	}
	footers := e.do(admin, "GET", "/cms/v2/template-parts?area=footer", nil)
	if got := tmplIDs(footers.list()); len(got) != 1 || got[0] != "siteplane//footer" {
		t.Errorf("area=footer: %v", got)
	}

	for _, path := range []string{"/cms/v2/templates/siteplane//home", "/cms/v2/templates/siteplane/home", "/cms/v2/templates/siteplane%2F%2Fhome"} {
		g := e.do(admin, "GET", path+"?context=edit", nil)
		wantStatus(t, g, 200)
		if g.obj()["id"] != "siteplane//home" || field(g.obj(), "content", "block_version") != float64(1) {
			t.Errorf("%s: %s", path, g.Raw)
		}
		if l := field(g.obj(), "_links", "self"); l == nil {
			t.Errorf("%s: no self link", path)
		}
	}
	wantError(t, e.do(admin, "GET", "/cms/v2/templates/siteplane//nope", nil), 404, "rest_template_not_found", "No templates exist with that id.")
	wantError(t, e.do(admin, "GET", "/cms/v2/templates/other//index", nil), 404, "rest_template_not_found", "")
	wantError(t, e.do(admin, "GET", "/cms/v2/template-parts/siteplane//index", nil), 404, "rest_template_not_found", "")
}

func TestTemplatesPermissions(t *testing.T) {
	e := newEnv(t)
	msg := "Sorry, you are not allowed to access the templates on this site."
	wantError(t, e.do(anon, "GET", "/cms/v2/templates", nil), 401, "rest_cannot_manage_templates", msg)
	wantError(t, e.do(subscriber, "GET", "/cms/v2/templates", nil), 403, "rest_cannot_manage_templates", msg)
	wantError(t, e.do(anon, "GET", "/cms/v2/templates/siteplane//index", nil), 401, "rest_cannot_manage_templates", msg)
	wantError(t, e.do(anon, "GET", "/cms/v2/templates/lookup?slug=single", nil), 401, "rest_cannot_manage_templates", msg)
	wantStatus(t, e.do(contributor, "GET", "/cms/v2/templates", nil), 200)
	wantStatus(t, e.do(author, "GET", "/cms/v2/template-parts/siteplane//header", nil), 200)
	wantError(t, e.do(editor, "POST", "/cms/v2/templates", map[string]any{"slug": "x"}), 403, "rest_cannot_manage_templates", msg)
	wantError(t, e.do(anon, "POST", "/cms/v2/templates", map[string]any{"slug": "x"}), 401, "rest_cannot_manage_templates", msg)
	wantError(t, e.do(editor, "POST", "/cms/v2/templates/siteplane//index", map[string]any{"content": "x"}), 403, "rest_cannot_manage_templates", msg)
	wantError(t, e.do(editor, "DELETE", "/cms/v2/templates/siteplane//index", nil), 403, "rest_cannot_manage_templates", msg)
}

func TestTemplateCreate(t *testing.T) {
	e := newEnv(t)
	r := e.do(admin, "POST", "/cms/v2/templates", map[string]any{"slug": "landing", "title": "Landing", "content": "<!-- wp:paragraph --><p>Hi</p><!-- /wp:paragraph -->", "description": "A landing page"})
	wantStatus(t, r, 201)
	o := r.obj()
	if r.Header.Get("Location") != "http://example.test/cms-json/cms/v2/templates/siteplane//landing" {
		t.Errorf("Location %q", r.Header.Get("Location"))
	}
	if o["id"] != "siteplane//landing" || o["source"] != "custom" || o["origin"] != nil || o["has_theme_file"] != false || o["is_custom"] != true ||
		o["author"] != float64(1) || o["original_source"] != "user" || o["description"] != "A landing page" || o["cms_id"].(float64) <= 0 ||
		field(o, "title", "raw") != "Landing" || field(o, "content", "block_version") != nil || o["modified"] == nil {
		t.Fatalf("created: %s", r.Raw)
	}
	// the same slug again gets a suffix
	r2 := e.do(admin, "POST", "/cms/v2/templates", map[string]any{"slug": "landing", "content": map[string]any{"raw": "x"}, "title": map[string]any{"raw": "T"}})
	wantStatus(t, r2, 201)
	if r2.obj()["slug"] != "landing-2" || field(r2.obj(), "content", "raw") != "x" || field(r2.obj(), "title", "raw") != "T" {
		t.Errorf("duplicate: %s", r2.Raw)
	}
	// a part with an unknown area is uncategorized
	p := e.do(admin, "POST", "/cms/v2/template-parts", map[string]any{"slug": "sidebar", "area": "aside", "title": "Sidebar"})
	wantStatus(t, p, 201)
	if p.obj()["area"] != "uncategorized" || p.obj()["type"] != "wp_template_part" {
		t.Errorf("part: %s", p.Raw)
	}
	if f := e.do(admin, "GET", "/cms/v2/template-parts?area=uncategorized", nil); len(f.list()) != 1 {
		t.Errorf("area filter: %s", f.Raw)
	}
	id := int64(o["cms_id"].(float64))
	if f := e.do(admin, "GET", "/cms/v2/templates?cms_id="+store.Itoa(id), nil); len(f.list()) != 1 || f.list()[0]["slug"] != "landing" {
		t.Errorf("cms_id filter: %s", f.Raw)
	}

	wantError(t, e.do(admin, "POST", "/cms/v2/templates", map[string]any{"title": "x"}), 400, "rest_missing_callback_param", "")
	wantError(t, e.do(admin, "POST", "/cms/v2/templates", map[string]any{"slug": ""}), 400, "rest_invalid_param", "")
	wantError(t, e.do(admin, "POST", "/cms/v2/templates", map[string]any{"slug": "!!!"}), 400, "rest_invalid_param", "")
	wantError(t, e.do(admin, "POST", "/cms/v2/templates", map[string]any{"slug": "ok", "author": 999}), 400, "rest_invalid_author", "Invalid author ID.")
	wantError(t, e.do(admin, "POST", "/cms/v2/templates", map[string]any{"slug": "ok", "status": "bogus"}), 400, "rest_invalid_param", "")
}

func TestTemplateCustomiseRevertAndRevisions(t *testing.T) {
	e := newEnv(t)
	r := e.do(admin, "PUT", "/cms/v2/templates/siteplane/single", map[string]any{"content": "<!-- wp:post-content /-->"})
	wantStatus(t, r, 200)
	o := r.obj()
	if o["id"] != "siteplane//single" || o["source"] != "custom" || o["origin"] != "theme" || o["has_theme_file"] != true ||
		o["original_source"] != "theme" || o["author_text"] != "Siteplane" || field(o, "content", "raw") != "<!-- wp:post-content /-->" ||
		field(o, "title", "raw") != "Single Posts" || field(o, "content", "block_version") != float64(1) {
		t.Fatalf("customised: %s", r.Raw)
	}
	if field(o, "_links", "version-history") == nil || field(o, "_links", "wp:action-publish") == nil || field(o, "_links", "wp:action-unfiltered-html") == nil {
		t.Errorf("links: %v", o["_links"])
	}
	if c := e.do(contributor, "GET", "/cms/v2/templates/siteplane//single", nil); field(c.obj(), "_links", "wp:action-publish") != nil {
		t.Errorf("a contributor may not publish templates: %v", c.obj()["_links"])
	}
	// the list shows the customisation in place of the file
	l := e.do(admin, "GET", "/cms/v2/templates", nil)
	if it := hasID(l.list(), "siteplane//single"); it["source"] != "custom" {
		t.Errorf("list after customising: %v", it)
	}
	// revisions: none after the first customisation, one per later change
	rev := e.do(admin, "GET", "/cms/v2/templates/siteplane//single/revisions", nil)
	wantStatus(t, rev, 200)
	if len(rev.list()) != 0 {
		t.Errorf("revisions before an update: %s", rev.Raw)
	}
	wantStatus(t, e.do(admin, "POST", "/cms/v2/templates/siteplane//single", map[string]any{"title": "Single v2"}), 200)
	wantStatus(t, e.do(admin, "POST", "/cms/v2/templates/siteplane//single", map[string]any{"title": "Single v2"}), 200) // unchanged: no revision
	wantStatus(t, e.do(admin, "PATCH", "/cms/v2/templates/siteplane//single", map[string]any{"title": "Single v3"}), 200)
	rev = e.do(admin, "GET", "/cms/v2/templates/siteplane//single/revisions", nil)
	if len(rev.list()) != 2 || rev.Header.Get("X-WP-Total") != "2" || field(rev.list()[0], "title", "raw") != "Single v3" || rev.list()[0]["parent"] != o["cms_id"] {
		t.Fatalf("revisions: %s", rev.Raw)
	}
	if asc := e.do(admin, "GET", "/cms/v2/templates/siteplane//single/revisions?order=asc", nil); field(asc.list()[0], "title", "raw") != "Single v2" {
		t.Errorf("order=asc: %s", asc.Raw)
	}
	if sr := e.do(admin, "GET", "/cms/v2/templates/siteplane//single/revisions?search=v3", nil); len(sr.list()) != 1 {
		t.Errorf("search: %s", sr.Raw)
	}
	if ex := e.do(admin, "GET", "/cms/v2/templates/siteplane//single/revisions?exclude="+store.Itoa(rev.id0()), nil); len(ex.list()) != 1 || ex.id0() == rev.id0() {
		t.Errorf("exclude: %s", ex.Raw)
	}
	revID := store.Itoa(rev.id0())
	one := e.do(admin, "GET", "/cms/v2/templates/siteplane//single/revisions/"+revID, nil)
	wantStatus(t, one, 200)
	wantError(t, e.do(admin, "GET", "/cms/v2/templates/siteplane//single/revisions/999999", nil), 404, "rest_post_invalid_id", "Invalid revision ID.")
	wantError(t, e.do(admin, "GET", "/cms/v2/templates/siteplane//nope/revisions", nil), 404, "rest_post_invalid_parent", "Invalid template parent ID.")
	wantError(t, e.do(editor, "GET", "/cms/v2/templates/siteplane//single/revisions", nil), 403, "rest_cannot_read", "")
	wantError(t, e.do(admin, "GET", "/cms/v2/templates/siteplane//single/revisions?page=5", nil), 400, "rest_revision_invalid_page_number", "")
	wantError(t, e.do(admin, "GET", "/cms/v2/templates/siteplane//single/revisions?offset=9", nil), 400, "rest_revision_invalid_offset_number", "")
	// a revision of another template's post
	wantStatus(t, e.do(admin, "PUT", "/cms/v2/templates/siteplane//page", map[string]any{"content": "a"}), 200)
	wantStatus(t, e.do(admin, "PUT", "/cms/v2/templates/siteplane//page", map[string]any{"content": "b"}), 200)
	wantError(t, e.do(admin, "GET", "/cms/v2/templates/siteplane//page/revisions/"+revID, nil), 404, "rest_revision_parent_id_mismatch", "")
	wantError(t, e.do(admin, "DELETE", "/cms/v2/templates/siteplane//single/revisions/"+revID, nil), 501, "rest_trash_not_supported", "")
	del := e.do(admin, "DELETE", "/cms/v2/templates/siteplane//single/revisions/"+revID+"?force=true", nil)
	wantStatus(t, del, 200)
	if del.obj()["deleted"] != true {
		t.Errorf("revision delete: %s", del.Raw)
	}

	// theme files cannot be deleted
	wantError(t, e.do(admin, "DELETE", "/cms/v2/templates/siteplane//home", nil), 400, "rest_invalid_template", "Templates based on theme files can't be removed.")
	// deleting the customisation: trash, then again 410, then force reverts to the file
	tr := e.do(admin, "DELETE", "/cms/v2/templates/siteplane//single", nil)
	wantStatus(t, tr, 200)
	if tr.obj()["status"] != "trash" {
		t.Errorf("trash: %s", tr.Raw)
	}
	if g := e.do(admin, "GET", "/cms/v2/templates/siteplane//single", nil); g.obj()["source"] != "theme" {
		t.Errorf("after trashing the customisation the file shows: %s", g.Raw)
	}
	wantError(t, e.do(admin, "DELETE", "/cms/v2/templates/siteplane//single", nil), 410, "rest_template_already_trashed", "The template has already been deleted.")
	f := e.do(admin, "DELETE", "/cms/v2/templates/siteplane//single?force=true", nil)
	wantStatus(t, f, 200)
	if f.obj()["deleted"] != true || field(f.obj(), "previous", "source") != "custom" {
		t.Errorf("force delete: %s", f.Raw)
	}
	g := e.do(admin, "GET", "/cms/v2/templates/siteplane//single", nil)
	if g.obj()["source"] != "theme" || g.obj()["cms_id"] != float64(0) || !strings.Contains(str(field(g.obj(), "content", "raw")), "wp:template-part") {
		t.Errorf("reverted: %s", g.Raw)
	}
	var n int
	if err := e.pool.QueryRow(t.Context(), `SELECT count(*) FROM posts WHERE type IN ('wp_template','revision') AND theme = 'siteplane' AND slug LIKE '%single%' OR parent = $1`, int64(o["cms_id"].(float64))).Scan(&n); err != nil || n != 0 {
		t.Errorf("rows left after the forced delete: %d %v", n, err)
	}
	// a custom template: delete with force at once
	c := e.do(admin, "POST", "/cms/v2/templates", map[string]any{"slug": "gone", "title": "Gone"})
	wantStatus(t, c, 201)
	wantStatus(t, e.do(admin, "DELETE", "/cms/v2/templates/siteplane//gone?force=true", nil), 200)
	wantError(t, e.do(admin, "GET", "/cms/v2/templates/siteplane//gone", nil), 404, "rest_template_not_found", "")
}

// id0 is the numeric id of the first element of a list.
func (r *resp) id0() int64 {
	l := r.list()
	if len(l) == 0 {
		return 0
	}
	v, _ := l[0]["id"].(float64)
	if v == 0 {
		v, _ = l[0]["cms_id"].(float64)
	}
	return int64(v)
}

func TestTemplateLookup(t *testing.T) {
	e := newEnv(t)
	tests := []struct{ query, want string }{
		{"slug=single-post-hello", "siteplane//single"},
		{"slug=single-post-hello&template_prefix=single-post", "siteplane//single"},
		{"slug=page-about", "siteplane//page"},
		{"slug=category-news", "siteplane//archive"},
		{"slug=front-page", "siteplane//home"},
		{"slug=whatever", "siteplane//index"},
		{"slug=my-template&is_custom=true", "siteplane//page"},
		{"slug=404", "siteplane//404"},
	}
	for _, tt := range tests {
		r := e.do(contributor, "GET", "/cms/v2/templates/lookup?"+tt.query, nil)
		wantStatus(t, r, 200)
		if r.obj()["id"] != tt.want {
			t.Errorf("lookup %s = %v, want %s", tt.query, r.obj()["id"], tt.want)
		}
	}
	wantError(t, e.do(admin, "GET", "/cms/v2/templates/lookup", nil), 400, "rest_missing_callback_param", "")
	// a customised template takes part in the fallback
	wantStatus(t, e.do(admin, "POST", "/cms/v2/templates", map[string]any{"slug": "single-post", "content": "<!-- wp:post-title /-->"}), 201)
	if r := e.do(admin, "GET", "/cms/v2/templates/lookup?slug=single-post-hello", nil); r.obj()["id"] != "siteplane//single-post" {
		t.Errorf("lookup with a stored single-post: %s", r.Raw)
	}
	// parts have no hierarchy beyond the slug: an unknown slug finds nothing
	if r := e.do(admin, "GET", "/cms/v2/template-parts/lookup?slug=nothing", nil); r.Status != 200 || len(r.obj()) != 0 || string(r.Raw) != "{}" {
		t.Errorf("part lookup of nothing: %d %s", r.Status, r.Raw)
	}
}

func TestTemplateAutosaves(t *testing.T) {
	e := newEnv(t)
	wantError(t, e.do(admin, "POST", "/cms/v2/templates/siteplane//home/autosaves", map[string]any{"content": "draft"}), 404, "rest_post_invalid_parent", "")
	wantError(t, e.do(admin, "GET", "/cms/v2/templates/siteplane//home/autosaves/1", nil), 404, "rest_post_no_autosave", "There is no autosave revision for this post.")
	wantStatus(t, e.do(admin, "PUT", "/cms/v2/templates/siteplane//home", map[string]any{"content": "live"}), 200)
	a := e.do(admin, "POST", "/cms/v2/templates/siteplane/home/autosaves", map[string]any{"content": "draft"})
	wantStatus(t, a, 200)
	if field(a.obj(), "content", "raw") != "draft" || a.obj()["parent"] == nil {
		t.Fatalf("autosave: %s", a.Raw)
	}
	wantStatus(t, e.do(admin, "POST", "/cms/v2/templates/siteplane//home/autosaves", map[string]any{"content": "draft 2"}), 200)
	l := e.do(admin, "GET", "/cms/v2/templates/siteplane//home/autosaves", nil)
	if len(l.list()) != 1 || field(l.list()[0], "content", "raw") != "draft 2" {
		t.Errorf("one autosave per user: %s", l.Raw)
	}
	if g := e.do(admin, "GET", "/cms/v2/templates/siteplane//home/autosaves/12345", nil); field(g.obj(), "content", "raw") != "draft 2" {
		t.Errorf("latest autosave: %s", g.Raw)
	}
	// the template itself is unchanged
	if g := e.do(admin, "GET", "/cms/v2/templates/siteplane//home", nil); field(g.obj(), "content", "raw") != "live" {
		t.Errorf("template changed by an autosave: %s", g.Raw)
	}
	wantError(t, e.do(editor, "POST", "/cms/v2/templates/siteplane//home/autosaves", map[string]any{"content": "x"}), 403, "rest_cannot_manage_templates", "")
	wantError(t, e.do(editor, "GET", "/cms/v2/templates/siteplane//home/autosaves", nil), 403, "rest_cannot_read", "")
}

func TestTemplateSourceTheme(t *testing.T) {
	e := newEnv(t)
	wantStatus(t, e.do(admin, "PUT", "/cms/v2/templates/siteplane//search", map[string]any{"content": "mine"}), 200)
	if g := e.do(admin, "GET", "/cms/v2/templates/siteplane//search?source=theme", nil); g.obj()["source"] != "theme" || field(g.obj(), "content", "raw") == "mine" {
		t.Errorf("source=theme: %s", g.Raw)
	}
	if g := e.do(admin, "GET", "/cms/v2/templates/siteplane//search", nil); field(g.obj(), "content", "raw") != "mine" {
		t.Errorf("without source: %s", g.Raw)
	}
	wantError(t, e.do(admin, "GET", "/cms/v2/templates/siteplane//nope?source=theme", nil), 404, "rest_template_not_found", "")
	rv := e.do(admin, "POST", "/cms/v2/templates/siteplane//search?source=theme", map[string]any{})
	wantStatus(t, rv, 200)
	if rv.obj()["source"] != "theme" || field(rv.obj(), "content", "block_version") != float64(1) {
		t.Errorf("revert: %s", rv.Raw)
	}
	if g := e.do(admin, "GET", "/cms/v2/templates/siteplane//search", nil); g.obj()["source"] != "theme" || g.obj()["cms_id"] != float64(0) {
		t.Errorf("after revert: %s", g.Raw)
	}
}

// Template and template-part slugs are sanitised as WordPress's
// wp_insert_post does (sanitize_title of the slug, else of the title, else
// the id), so every created id can be read, updated and deleted again.
// The expectations are WordPress 6.9.7's answers.
func TestTemplateSlugsSanitised(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		base string
		body map[string]any
		slug string // "": the new item's id
	}{
		{"templates", map[string]any{"slug": "bad slug", "title": "t"}, "bad-slug"},
		{"templates", map[string]any{"slug": "Café Ünïcode", "title": "t"}, "cafe-unicode"},
		{"templates", map[string]any{"slug": "a/b", "title": "t"}, "a-b"},
		{"templates", map[string]any{"slug": "UPPER.case_x", "title": "t"}, "upper-case_x"},
		{"template-parts", map[string]any{"slug": "bad slug", "title": "t"}, "bad-slug"},
		{"template-parts", map[string]any{"slug": "x<b>y</b>", "title": "t"}, "xy"},
		{"template-parts", map[string]any{"slug": "-", "title": "From Title"}, "from-title"},
		{"template-parts", map[string]any{"slug": "-", "title": "!!"}, ""},
	}
	for _, c := range cases {
		t.Run(c.base+"/"+c.body["slug"].(string), func(t *testing.T) {
			r := e.do(admin, "POST", "/cms/v2/"+c.base, c.body)
			wantStatus(t, r, 201)
			want := c.slug
			if want == "" {
				n, _ := r.obj()["cms_id"].(float64)
				want = store.Itoa(int64(n))
			}
			id := str(r.obj()["id"])
			if r.obj()["slug"] != want || id != "siteplane//"+want {
				t.Fatalf("slug %v id %q, want %q", r.obj()["slug"], id, want)
			}
			wantStatus(t, e.do(admin, "GET", "/cms/v2/"+c.base+"/"+id, nil), 200)
			wantStatus(t, e.do(admin, "POST", "/cms/v2/"+c.base+"/"+id, map[string]any{"description": "d"}), 200)
			wantStatus(t, e.do(admin, "DELETE", "/cms/v2/"+c.base+"/"+id+"?force=true", nil), 200)
		})
	}
}

// A template or part created with only a slug (no title, content or
// description) is refused as wp_insert_post refuses an empty post: WordPress
// 6.9.7 answers 400 empty_content, and stores nothing.
func TestTemplateCreateEmpty(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		base string
		body map[string]any
		want int
	}{
		{"templates", map[string]any{"slug": "only-slug"}, 400},
		{"template-parts", map[string]any{"slug": "only-slug", "area": "header"}, 400},
		{"templates", map[string]any{"slug": "zero", "content": "0", "title": "", "description": "0"}, 400},
		{"templates", map[string]any{"slug": "with-description", "description": "d"}, 201},
		{"template-parts", map[string]any{"slug": "with-content", "content": "<!-- wp:paragraph /-->"}, 201},
	}
	for _, c := range cases {
		t.Run(c.base+"/"+c.body["slug"].(string), func(t *testing.T) {
			r := e.do(admin, "POST", "/cms/v2/"+c.base, c.body)
			if c.want == 201 {
				wantStatus(t, r, 201)
				return
			}
			wantError(t, r, 400, "empty_content", "Content, title, and excerpt are empty.")
			wantStatus(t, e.do(admin, "GET", "/cms/v2/"+c.base+"/siteplane//"+c.body["slug"].(string), nil), 404)
		})
	}
}
