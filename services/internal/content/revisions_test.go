package content

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

func TestRevisions(t *testing.T) {
	e := newEnv(t)
	id := seedPosts(e, map[string]any{"title": "v0", "content": "c0"})[0]
	path := fmt.Sprintf("/cms/v2/posts/%d", id)
	count := func() float64 {
		r := e.do(editor, "GET", path, nil)
		links := r.obj()["_links"].(map[string]any)
		return links["version-history"].([]any)[0].(map[string]any)["count"].(float64)
	}
	if c := count(); c != 0 {
		t.Fatalf("revisions after create: %v", c)
	}
	e.do(editor, "POST", path, map[string]any{"comment_status": "closed"})
	if c := count(); c != 1 {
		t.Fatalf("first update must store a revision: %v", c)
	}
	e.do(editor, "POST", path, map[string]any{"ping_status": "closed", "content": "c0  "})
	if c := count(); c != 1 {
		t.Fatalf("unchanged (whitespace) update stored a revision: %v", c)
	}
	e.do(editor, "POST", path, map[string]any{"title": "v1"})
	if c := count(); c != 2 {
		t.Fatalf("changed update: %v", c)
	}
	r := e.do(editor, "GET", path+"/revisions", nil)
	wantStatus(t, r, 200)
	revs := r.list()
	if len(revs) != 2 || r.Header.Get("X-WP-Total") != "2" || r.Header.Get("X-WP-TotalPages") != "1" {
		t.Fatalf("revisions: %s %v", r.Raw, r.Header)
	}
	latest := revs[0]
	if field(latest, "title", "rendered") != "v1" || latest["parent"] != float64(id) ||
		latest["slug"] != fmt.Sprintf("%d-revision-v1", id) || latest["author"] != float64(2) {
		t.Fatalf("latest revision: %v", latest)
	}
	if field(latest, "title", "raw") != nil {
		t.Fatalf("view context shows raw: %v", latest["title"])
	}
	revID := int64(latest["id"].(float64))
	r = e.do(editor, "GET", path+"/revisions?per_page=1&page=2", nil)
	if len(r.list()) != 1 || r.Header.Get("X-WP-TotalPages") != "2" {
		t.Fatalf("paged revisions: %s", r.Raw)
	}
	wantError(t, e.do(editor, "GET", path+"/revisions?per_page=1&page=3", nil), 400, "rest_revision_invalid_page_number",
		"The page number requested is larger than the number of pages available.")
	wantError(t, e.do(editor, "GET", path+"/revisions?offset=2", nil), 400, "rest_revision_invalid_offset_number",
		"The offset number requested is larger than or equal to the number of available revisions.")

	// permissions and ids
	wantError(t, e.do(anon, "GET", path+"/revisions", nil), 401, "rest_cannot_read", "Sorry, you are not allowed to view revisions of this post.")
	wantError(t, e.do(subscriber, "GET", path+"/revisions", nil), 403, "rest_cannot_read", "")
	wantError(t, e.do(editor, "GET", "/cms/v2/posts/999999/revisions", nil), 404, "rest_post_invalid_parent", "Invalid post parent ID.")
	wantError(t, e.do(editor, "GET", fmt.Sprintf("%s/revisions/%d", path, id), nil), 404, "rest_post_invalid_id", "Invalid revision ID.")
	other := seedPosts(e, map[string]any{"title": "other"})[0]
	wantError(t, e.do(editor, "GET", fmt.Sprintf("/cms/v2/posts/%d/revisions/%d", other, revID), nil), 404,
		"rest_revision_parent_id_mismatch", fmt.Sprintf(`The revision does not belong to the specified parent with id of "%d"`, other))
	r = e.do(editor, "GET", fmt.Sprintf("%s/revisions/%d?context=edit", path, revID), nil)
	if field(r.obj(), "title", "raw") != "v1" {
		t.Fatalf("revision edit: %s", r.Raw)
	}
	wantError(t, e.do(anon, "POST", path+"/revisions", nil), 404, "rest_no_route", "")

	// delete: force required, parent delete rights
	wantError(t, e.do(editor, "DELETE", fmt.Sprintf("%s/revisions/%d", path, revID), nil), 501, "rest_trash_not_supported",
		"Revisions do not support trashing. Set 'force=true' to delete.")
	// WordPress 6.9.7 checks delete_post on the parent first: rest_cannot_delete, for anyone who may not
	wantError(t, e.do(author, "DELETE", fmt.Sprintf("%s/revisions/%d?force=true", path, revID), nil), 403, "rest_cannot_delete",
		"Sorry, you are not allowed to delete revisions of this post.")
	wantError(t, e.do(anon, "DELETE", fmt.Sprintf("%s/revisions/%d?force=true", path, revID), nil), 401, "rest_cannot_delete", "")
	wantError(t, e.do(contributor, "DELETE", fmt.Sprintf("%s/revisions/999999?force=true", path), nil), 403, "rest_cannot_delete", "")
	r = e.do(editor, "DELETE", fmt.Sprintf("%s/revisions/%d?force=true", path, revID), nil)
	wantStatus(t, r, 200)
	if r.obj()["deleted"] != true || field(r.obj(), "previous", "id") != float64(revID) {
		t.Fatalf("delete revision: %s", r.Raw)
	}
	if c := count(); c != 1 {
		t.Fatalf("after delete: %v", c)
	}
}

func TestAutosaves(t *testing.T) {
	e := newEnv(t)
	// the author's own draft is updated in place
	draft := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "draft"}).id()
	r := e.do(author, "POST", fmt.Sprintf("/cms/v2/posts/%d/autosaves", draft), map[string]any{"title": "draft 2", "content": "x"})
	wantStatus(t, r, 200)
	if r.id() != draft || field(r.obj(), "title", "raw") != "draft 2" {
		t.Fatalf("draft autosave: %s", r.Raw)
	}
	got := e.do(author, "GET", fmt.Sprintf("/cms/v2/posts/%d?context=edit", draft), nil)
	if field(got.obj(), "title", "raw") != "draft 2" {
		t.Fatalf("draft not updated: %s", got.Raw)
	}
	wantError(t, e.do(author, "GET", fmt.Sprintf("/cms/v2/posts/%d/autosaves/1", draft), nil), 404, "rest_post_no_autosave",
		"There is no autosave revision for this post.")

	// a published post gets one autosave per user
	pub := seedPosts(e, map[string]any{"title": "pub", "content": "c"})[0]
	base := fmt.Sprintf("/cms/v2/posts/%d/autosaves", pub)
	a1 := e.do(editor, "POST", base, map[string]any{"content": "c edited"})
	wantStatus(t, a1, 200)
	if a1.id() == pub || a1.obj()["parent"] != float64(pub) || a1.obj()["slug"] != fmt.Sprintf("%d-autosave-v1", pub) ||
		field(a1.obj(), "title", "raw") != "pub" {
		t.Fatalf("autosave: %s", a1.Raw)
	}
	a2 := e.do(editor, "POST", base, map[string]any{"content": "c edited again"})
	if a2.id() != a1.id() || field(a2.obj(), "content", "raw") != "c edited again" {
		t.Fatalf("second autosave must reuse the first: %s", a2.Raw)
	}
	a3 := e.do(admin, "POST", base, map[string]any{"content": "admin"})
	if a3.id() == a1.id() {
		t.Fatalf("another user's autosave must be its own")
	}
	// the post itself is unchanged
	if c := e.do(editor, "GET", fmt.Sprintf("/cms/v2/posts/%d?context=edit", pub), nil); field(c.obj(), "content", "raw") != "c" {
		t.Fatalf("autosave changed the post: %s", c.Raw)
	}
	l := e.do(editor, "GET", base, nil)
	if len(l.list()) != 2 {
		t.Fatalf("autosaves list: %s", l.Raw)
	}
	one := e.do(editor, "GET", fmt.Sprintf("%s/%d", base, a1.id()), nil)
	if one.id() != a3.id() {
		t.Fatalf("single autosave is the latest: %s", one.Raw)
	}
	wantError(t, e.do(anon, "GET", base, nil), 401, "rest_cannot_read", "Sorry, you are not allowed to view autosaves of this post.")
	wantError(t, e.do(contributor, "POST", base, map[string]any{"content": "no"}), 403, "rest_cannot_edit",
		"Sorry, you are not allowed to edit this post.")
	wantError(t, e.do(editor, "POST", "/cms/v2/posts/999999/autosaves", map[string]any{}), 404, "rest_post_invalid_id", "Invalid post ID.")
	// The autosaves controller declares "parent" (WordPress 6.9.7): not an integer is a type error.
	for _, method := range []string{"GET", "POST"} {
		wantError(t, e.do(editor, method, base+"?parent=notanint", nil), 400, "rest_invalid_param", "Invalid parameter(s): parent")
	}
}

// A post links its replies (the comments route) and the usual relations;
// the stack test follows every link.
func TestPostLinksOnlyToExistingRoutes(t *testing.T) {
	e := newEnv(t)
	id := seedPosts(e, map[string]any{"title": "linked", "status": "publish"})[0]
	r := e.do(editor, "GET", fmt.Sprintf("/cms/v2/posts/%d", id), nil)
	wantStatus(t, r, 200)
	links := r.obj()["_links"].(map[string]any)
	for _, rel := range []string{"self", "collection", "author", "replies", "version-history", "wp:term"} {
		if _, ok := links[rel]; !ok {
			t.Errorf("post lacks the %s link", rel)
		}
	}
}

// Every revision and autosave carries meta, as WordPress 6.9.7 answers
// (asked of the peer): the parent type's registered keys read from the
// revision; a block's sync status is not revisioned (null); a type with
// no meta answers [].
func TestRevisionMeta(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		base    string
		create  map[string]any
		want    string // meta
		preview bool   // a preview_link (viewable types only)
		content bool
	}{
		{"posts", map[string]any{"title": "p", "content": "a", "status": "publish"}, `{"footnotes":""}`, true, true},
		{"pages", map[string]any{"title": "p", "content": "a", "status": "publish"}, `{"footnotes":""}`, true, true},
		{"blocks", map[string]any{"title": "b", "content": "a", "status": "publish"}, `{"wp_pattern_sync_status":null,"footnotes":""}`, false, true},
		{"menu-items", map[string]any{"title": "m", "url": "https://example.test/", "status": "publish"}, `[]`, false, false},
	}
	for _, c := range cases {
		t.Run(c.base, func(t *testing.T) {
			created := e.do(admin, "POST", "/cms/v2/"+c.base, c.create)
			wantStatus(t, created, 201)
			base := fmt.Sprintf("/cms/v2/%s/%d", c.base, created.id())
			a := e.do(admin, "POST", base+"/autosaves", map[string]any{"title": "autosaved"})
			wantStatus(t, a, 200)
			if g := fmt.Sprintf("http://example.test/?p=%d", a.id()); field(a.obj(), "guid", "raw") != g || field(a.obj(), "guid", "rendered") != g {
				t.Errorf("guid %v, want %s", a.obj()["guid"], g)
			}
			if _, has := a.obj()["content"]; (a.obj()["preview_link"] != "") != c.preview || has != c.content {
				t.Errorf("preview_link %q, content %v (%s)", a.obj()["preview_link"], has, a.Raw)
			}
			for _, r := range []*resp{a, e.do(admin, "GET", base+"/autosaves", nil)} {
				m := r.obj()["meta"]
				if l := r.list(); len(l) > 0 {
					m = l[0]["meta"]
				}
				var want any
				_ = json.Unmarshal([]byte(c.want), &want)
				if !reflect.DeepEqual(m, want) {
					t.Errorf("meta %v, want %s (%s)", m, c.want, r.Raw)
				}
			}
		})
	}
}
