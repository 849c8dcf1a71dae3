package content

import (
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// A preview of unsaved changes shows the caller's own latest autosave, to
// a caller who may edit the post only; everyone else sees the published
// post (or the draft's 404), and what a preview showed is never served to
// the next visitor (the snapshot keeps post content by id).
func TestSitePreviewShowsOwnAutosave(t *testing.T) {
	e := newEnvUsers(t, callerUsers{})
	const site = "http://example.test"
	pub := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "Published title", "status": "publish",
		"content": "<!-- wp:paragraph -->\n<p>Published words</p>\n<!-- /wp:paragraph -->"})
	wantStatus(t, pub, 201)
	draft := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "Draft title", "status": "draft",
		"content": "<!-- wp:paragraph -->\n<p>Draft words</p>\n<!-- /wp:paragraph -->"})
	wantStatus(t, draft, 201)
	links := map[string]string{}
	for _, a := range []struct{ who, post, text string }{
		{author, "pub", "Author unsaved"}, {editor, "pub", "Editor unsaved"}, {editor, "draft", "Editor draft unsaved"},
	} {
		id := pub.id()
		if a.post == "draft" {
			id = draft.id()
		}
		r := e.do(a.who, "POST", "/cms/v2/posts/"+store.Itoa(id)+"/autosaves", map[string]any{"title": a.text + " title",
			"content": "<!-- wp:paragraph -->\n<p>" + a.text + "</p>\n<!-- /wp:paragraph -->"})
		wantStatus(t, r, 200)
		link, _ := r.obj()["preview_link"].(string)
		if want := "preview_id=" + store.Itoa(id) + "&preview=true"; !strings.Contains(link, want) {
			t.Fatalf("%s's autosave: preview_link %q lacks %q", a.who, link, want)
		}
		links[a.post] = strings.TrimPrefix(link, site)
	}
	for _, tt := range []struct {
		name, who, post string
		status          int
		want, not       string
	}{
		{"author sees their autosave", author, "pub", 200, "Author unsaved", "Published words"},
		{"anonymous sees the published post after it", anon, "pub", 200, "Published words", "unsaved"},
		{"an editor sees their own autosave", editor, "pub", 200, "Editor unsaved", "Author unsaved"},
		{"another author sees the published post", author2, "pub", 200, "Published words", "unsaved"},
		{"an editor without an autosave sees the post", admin, "pub", 200, "Published words", "unsaved"},
		{"the draft's author sees it without another's autosave", author, "draft", 200, "Draft words", "unsaved"},
		{"the draft's editor sees their autosave", editor, "draft", 200, "Editor draft unsaved", "Draft words"},
		{"anonymous gets the draft's 404", anon, "draft", 404, "", "unsaved"},
		{"another author gets the draft's 404", author2, "draft", 404, "", "unsaved"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := e.page(tt.who, links[tt.post])
			wantStatus(t, r, tt.status)
			body := string(r.Raw)
			if !strings.Contains(body, tt.want) || strings.Contains(body, tt.not) {
				t.Errorf("page has %q: %v, has %q: %v", tt.want, strings.Contains(body, tt.want), tt.not, strings.Contains(body, tt.not))
			}
			if tt.status == 200 && tt.who != anon && !strings.Contains(r.Header.Get("Cache-Control"), "private") {
				t.Errorf("Cache-Control %q: a signed-in caller's page is shared", r.Header.Get("Cache-Control"))
			}
		})
	}
}
