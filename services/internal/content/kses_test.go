package content

import (
	"fmt"
	"strings"
	"testing"
)

// The payloads of issue 15, stored by each role: callers without
// unfiltered_html (authors, contributors, subscribers) get them filtered
// as WordPress's kses does; administrators and editors keep raw HTML.
const (
	xssTitle   = `Hi <script>alert(1)</script><b onclick="alert(2)">b</b><svg onload=alert(3)>s</svg>`
	xssContent = `<!-- wp:paragraph --><p onclick="x">p<img src=x onerror=alert(1)><svg onload=alert(2)></svg><script>alert(3)</script></p><!-- /wp:paragraph -->`
)

func hasScript(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "<script") || strings.Contains(l, "onerror") || strings.Contains(l, "onload") ||
		strings.Contains(l, "onclick") || strings.Contains(l, "<svg")
}

func TestPostHTMLIsFilteredByRole(t *testing.T) {
	e := newEnv(t)
	for _, who := range []string{admin, editor, author, contributor} {
		raw := who == admin || who == editor
		for _, base := range []string{"/cms/v2/posts", "/cms/v2/pages"} {
			t.Run(who+base, func(t *testing.T) {
				r := e.do(who, "POST", base, map[string]any{"title": xssTitle, "content": xssContent, "excerpt": xssContent})
				if !raw && base == "/cms/v2/pages" {
					wantStatus(t, r, 403) // only editors and administrators create pages
					return
				}
				wantStatus(t, r, 201)
				id := r.id()
				r = e.do(admin, "GET", fmt.Sprintf("%s/%d?context=edit", base, id), nil)
				wantStatus(t, r, 200)
				o := r.obj()
				for _, f := range []string{"title", "content", "excerpt"} {
					if base == "/cms/v2/pages" && f == "excerpt" {
						continue
					}
					stored, rendered := str(field(o, f, "raw")), str(field(o, f, "rendered"))
					if raw {
						if f == "title" && stored != xssTitle || f != "title" && stored != xssContent {
							t.Errorf("%s: %s lost its raw HTML: %q", who, f, stored)
						}
						continue
					}
					if hasScript(stored) || hasScript(rendered) {
						t.Errorf("%s: %s kept script: raw %q rendered %q", who, f, stored, rendered)
					}
				}
				if !raw {
					if got := str(field(o, "title", "raw")); got != "Hi <b>b</b>s" {
						t.Errorf("title: %q", got)
					}
					if got := str(field(o, "content", "raw")); got != `<!-- wp:paragraph --><p>p<img src="x"></p><!-- /wp:paragraph -->` {
						t.Errorf("content: %q", got)
					}
				}
				// An update is filtered the same way.
				r = e.do(who, "POST", fmt.Sprintf("%s/%d", base, id), map[string]any{"title": map[string]any{"raw": xssTitle}})
				wantStatus(t, r, 200)
				if got := str(field(r.obj(), "title", "raw")); (got == xssTitle) != raw {
					t.Errorf("update: %s: %q", who, got)
				}
			})
		}
	}
}

func TestCommentHTMLIsFilteredByRole(t *testing.T) {
	e := newEnv(t)
	post := e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "c", "status": "publish"}).id()
	for _, who := range []string{admin, editor, author, contributor, subscriber} {
		raw := who == admin || who == editor
		r := e.do(who, "POST", "/cms/v2/comments", map[string]any{"post": post, "content": xssContent})
		wantStatus(t, r, 201)
		r = e.do(admin, "GET", fmt.Sprintf("/cms/v2/comments/%d?context=edit", r.id()), nil)
		stored, rendered := str(field(r.obj(), "content", "raw")), str(field(r.obj(), "content", "rendered"))
		if raw && stored != xssContent {
			t.Errorf("%s: lost raw HTML: %q", who, stored)
		}
		if !raw && (hasScript(stored) || hasScript(rendered) || strings.Contains(stored, "<p")) {
			t.Errorf("%s: raw %q rendered %q", who, stored, rendered)
		}
	}
}

// Term names lose every tag and descriptions are filtered for every
// caller, as pre_term_name and pre_term_description do in WordPress.
func TestTermHTMLIsFiltered(t *testing.T) {
	e := newEnv(t)
	// Contributors create tags too (non-hierarchical: assign_terms).
	for _, who := range []string{admin, editor, author, contributor} {
		r := e.do(who, "POST", "/cms/v2/tags", map[string]any{"name": `<script>alert(1)</script>`})
		wantError(t, r, 400, "empty_term_name", "A name is required for this term.")
		r = e.do(who, "POST", "/cms/v2/tags", map[string]any{"name": `<b onclick="x">` + who + `</b> tag`, "description": `<a href="https://ok.example/" onclick="x">d</a><script>alert(1)</script>`})
		wantStatus(t, r, 201)
		if got := str(r.obj()["name"]); got != who+" tag" {
			t.Errorf("%s: name %q", who, got)
		}
		if got := str(r.obj()["description"]); got != `<a href="https://ok.example/">d</a>` {
			t.Errorf("%s: description %q", who, got)
		}
		id := r.id()
		if who == author || who == contributor {
			continue // editing terms takes manage_categories
		}
		r = e.do(who, "POST", fmt.Sprintf("/cms/v2/tags/%d", id), map[string]any{"name": `<svg onload=alert(1)>x</svg>`})
		wantStatus(t, r, 200)
		if got := str(r.obj()["name"]); got != "x" {
			t.Errorf("%s: updated name %q", who, got)
		}
	}
}
