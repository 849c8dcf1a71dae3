package content

import (
	"fmt"
	"testing"
)

// A page may name the theme's own page templates (issue 30: assigning the
// built-in theme's page-wide answered 400 "template is not one of ."), and
// every post type the custom templates made on the site.
func TestPageTemplates(t *testing.T) {
	e := newEnv(t)
	for _, tt := range []struct {
		name, path, template string
		status               int
		message              string
	}{
		{"the theme's page template on a page", "/cms/v2/pages", "page-wide", 201, ""},
		{"the theme's page template is for pages only", "/cms/v2/posts", "page-wide", 400, "template is not one of ."},
		{"an unknown template on a page", "/cms/v2/pages", "nope", 400, "template is not one of page-wide."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(admin, "POST", tt.path, map[string]any{"title": "x", "status": "publish", "template": tt.template})
			if tt.status != 201 {
				wantError(t, r, tt.status, "rest_invalid_param", "")
				if got := field(r.obj(), "data", "params", "template"); got != tt.message {
					t.Fatalf("message %q, want %q", got, tt.message)
				}
				return
			}
			wantStatus(t, r, 201)
			if r.obj()["template"] != tt.template {
				t.Fatalf("template not stored: %s", r.Raw)
			}
		})
	}

	// The website renders the page with the template it names.
	page := e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "Wide", "slug": "wide", "status": "publish", "template": "page-wide"})
	wantStatus(t, page, 201)
	wantPage(t, e.page("", "/wide/"), 200, "page-wide", "Wide</h1>")

	// A custom template made on the site is offered to every post type,
	// newest first, before the theme's.
	for _, slug := range []string{"landing", "promo"} {
		wantStatus(t, e.do(admin, "POST", "/cms/v2/templates", map[string]any{"slug": slug, "content": "<!-- wp:post-content /-->"}), 201)
	}
	r := e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "x", "template": "nope"})
	if got := field(r.obj(), "data", "params", "template"); got != "template is not one of promo, landing, page-wide." {
		t.Fatalf("page templates with custom ones: %q", got)
	}
	post := e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "x", "template": "landing"})
	wantStatus(t, post, 201)
	// The current template stays valid even after its template is deleted.
	wantStatus(t, e.do(admin, "DELETE", "/cms/v2/templates/siteplane//landing?force=true", nil), 200)
	wantStatus(t, e.do(admin, "POST", fmt.Sprintf("/cms/v2/posts/%d", post.id()), map[string]any{"template": "landing", "title": "y"}), 200)
}
