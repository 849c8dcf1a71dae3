package content

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/content/store"
)

// Compliance audit regressions (compliance_test.go): revisions, autosaves,
// scheduling and the trash.

func TestRevisionPagingAndDelete(t *testing.T) {
	e := newEnv(t)
	id := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "r", "content": "v1"}).id()
	for _, content := range []string{"v2", "v3"} {
		wantStatus(t, e.do(author, "POST", fmt.Sprintf("/cms/v2/posts/%d", id), map[string]any{"content": content}), 200)
	}
	base := fmt.Sprintf("/cms/v2/posts/%d/revisions", id)
	cases := []struct {
		query string
		want  int // status; 200 answers this many items
		items int
	}{
		{"", 200, 2},
		// without per_page all revisions are one page: page 2 is beyond it
		{"?page=2", 400, 0},
		{"?page=1", 200, 2},
		{"?per_page=1&page=2", 200, 1},
		{"?per_page=1&page=3", 400, 0},
		// with an offset the page number is not checked
		{"?per_page=1&page=5&offset=1", 200, 1},
		{"?offset=2", 400, 0},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			r := e.do(author, "GET", base+c.query, nil)
			switch {
			case c.want == 400 && c.query == "?offset=2":
				wantError(t, r, 400, "rest_revision_invalid_offset_number", "")
			case c.want == 400:
				wantError(t, r, 400, "rest_revision_invalid_page_number",
					"The page number requested is larger than the number of pages available.")
			default:
				wantStatus(t, r, 200)
				if len(r.list()) != c.items {
					t.Fatalf("want %d items: %s", c.items, r.Raw)
				}
			}
		})
	}
	// the deleted revision is rendered in edit context (raw values), and a
	// revision has no preview_link
	revs := e.do(author, "GET", base, nil).list()
	rid := int64(revs[0]["id"].(float64))
	if r := e.do(author, "GET", fmt.Sprintf("%s/%d?context=edit", base, rid), nil); r.obj()["preview_link"] != nil {
		t.Fatalf("revision with preview_link: %s", r.Raw)
	}
	r := e.do(author, "DELETE", fmt.Sprintf("%s/%d?force=true", base, rid), nil)
	wantStatus(t, r, 200)
	if field(r.obj(), "previous", "content", "raw") != "v3" || field(r.obj(), "previous", "guid", "raw") == nil {
		t.Fatalf("previous not in edit context: %s", r.Raw)
	}
}

func TestRevisionExcerptIsNotGenerated(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		excerpt, want string
	}{
		// the revisions controller renders the stored excerpt only
		{"", ""},
		{"Short", "<p>Short</p>\n"},
	}
	for _, c := range cases {
		t.Run(c.excerpt, func(t *testing.T) {
			id := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "r", "content": "some words here",
				"excerpt": c.excerpt, "status": "publish"}).id()
			wantStatus(t, e.do(author, "POST", fmt.Sprintf("/cms/v2/posts/%d", id), map[string]any{"content": "other words"}), 200)
			revs := e.do(author, "GET", fmt.Sprintf("/cms/v2/posts/%d/revisions", id), nil).list()
			if len(revs) != 1 || field(revs[0], "excerpt", "rendered") != c.want {
				t.Fatalf("revision excerpt: %v", revs)
			}
			// an autosave (the post is published) is rendered the same way
			a := e.do(author, "POST", fmt.Sprintf("/cms/v2/posts/%d/autosaves", id), map[string]any{"content": "autosaved words"})
			wantStatus(t, a, 200)
			if field(a.obj(), "excerpt", "rendered") != c.want || field(a.obj(), "excerpt", "raw") != c.excerpt {
				t.Fatalf("autosave excerpt: %s", a.Raw)
			}
		})
	}
}

func TestAutosaveOfOwnDraftHasNoParentLink(t *testing.T) {
	e := newEnv(t)
	draft := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "d", "content": "v1"}).id()
	published := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "p", "content": "v1", "status": "publish"}).id()
	cases := []struct {
		name       string
		id         int64
		sameID     bool   // the draft itself was updated
		parentLink string // "" when no _links at all
	}{
		// the revisions controller links "parent" only for a non-zero parent
		// field; the author's draft autosaved in place is the post itself
		{"own draft", draft, true, ""},
		{"published", published, false, fmt.Sprintf("http://example.test/cms-json/cms/v2/posts/%d", published)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(author, "POST", fmt.Sprintf("/cms/v2/posts/%d/autosaves", c.id), map[string]any{"content": "v2"})
			wantStatus(t, r, 200)
			o := r.obj()
			if (o["id"] == float64(c.id)) != c.sameID {
				t.Fatalf("id: %s", r.Raw)
			}
			links, has := o["_links"].(map[string]any)
			if c.parentLink == "" {
				if has || o["parent"] != float64(0) {
					t.Fatalf("in-place autosave: %s", r.Raw)
				}
				return
			}
			if !has || field(links["parent"].([]any)[0].(map[string]any), "href") != c.parentLink || o["parent"] != float64(c.id) {
				t.Fatalf("autosave links: %s", r.Raw)
			}
		})
	}
}

func TestTrashAndDeleteSideEffects(t *testing.T) {
	e := newEnv(t)
	count := func(r *resp) any {
		return field(r.obj()["_links"].(map[string]any)["version-history"].([]any)[0].(map[string]any), "count")
	}
	// trashing is wp_update_post: the first update of a post stores a revision
	id := seedPosts(e, map[string]any{"title": "t"})[0]
	r := e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/posts/%d", id), nil)
	wantStatus(t, r, 200)
	if r.obj()["status"] != "trash" || count(r) != float64(1) {
		t.Fatalf("trashed: %s", r.Raw)
	}
	// restoring and trashing again changes no revisioned field: no new one
	wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", id), map[string]any{"status": "publish"}), 200)
	if r = e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/posts/%d", id), nil); count(r) != float64(1) {
		t.Fatalf("trashed again: %s", r.Raw)
	}
	// deleting a page for good moves its children up to its own parent
	top := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "top", "status": "publish"}).id()
	mid := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "mid", "parent": top, "status": "publish"}).id()
	leaf := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "leaf", "parent": mid, "status": "publish"}).id()
	wantStatus(t, e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/pages/%d?force=true", mid), nil), 200)
	r = e.do(editor, "GET", fmt.Sprintf("/cms/v2/pages/%d", leaf), nil)
	if r.obj()["parent"] != float64(top) || r.obj()["link"] != "http://example.test/top/leaf/" {
		t.Fatalf("child after its parent's deletion: %s", r.Raw)
	}
}

func TestAutosaveRulesFromTheControllers(t *testing.T) {
	e := newEnv(t)
	pub := seedPosts(e, map[string]any{"title": "pub"})[0]
	cases := []struct {
		path, msg string
	}{
		// the list checks with the autosaves controller's message, the
		// single route with the revisions controller's permission check
		{fmt.Sprintf("/cms/v2/posts/%d/autosaves", pub), "Sorry, you are not allowed to view autosaves of this post."},
		{fmt.Sprintf("/cms/v2/posts/%d/autosaves/5", pub), "Sorry, you are not allowed to view revisions of this post."},
	}
	for _, c := range cases {
		wantError(t, e.do(anon, "GET", c.path, nil), 401, "rest_cannot_read", c.msg)
		wantError(t, e.do(author2, "GET", c.path, nil), 403, "rest_cannot_read", c.msg)
	}
	// create_item_permissions_check refuses an empty id before the update check
	wantError(t, e.do(admin, "POST", "/cms/v2/posts/0/autosaves", map[string]any{"content": "x"}), 404, "rest_post_invalid_id", "Invalid item ID.")
	wantError(t, e.do(admin, "POST", "/cms/v2/posts/99999/autosaves", map[string]any{"content": "x"}), 404, "rest_post_invalid_id", "Invalid post ID.")
	// an author's draft autosaved in place takes the prepare_item_for_database
	// fields only: terms, format, sticky, featured media and meta stay
	tag := e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": "t"}).id()
	draft := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "d", "format": "aside", "meta": map[string]any{"footnotes": "f"}}).id()
	r := e.do(author, "POST", fmt.Sprintf("/cms/v2/posts/%d/autosaves", draft), map[string]any{"title": "d2",
		"tags": []int64{tag}, "format": "quote", "sticky": true, "featured_media": 9, "meta": map[string]any{"footnotes": "g"}})
	wantStatus(t, r, 200)
	got := e.do(author, "GET", fmt.Sprintf("/cms/v2/posts/%d?context=edit", draft), nil).obj()
	if field(got, "title", "raw") != "d2" || got["format"] != "aside" || got["sticky"] != false ||
		got["featured_media"] != float64(0) || len(got["tags"].([]any)) != 0 || field(got, "meta", "footnotes") != "f" {
		t.Fatalf("in-place autosave: %v", got)
	}
}

func TestScheduledPublishStoresFirstRevision(t *testing.T) {
	e := newEnv(t)
	soon := e.svc.now().Add(time.Hour)
	fresh := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "fresh", "status": "future", "date_gmt": soon.Format(store.WPDateLayout)}).id()
	edited := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "edited", "status": "future", "date_gmt": soon.Format(store.WPDateLayout)}).id()
	wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", edited), map[string]any{"content": "x"}), 200)
	e.svc.now = func() time.Time { return soon.Add(time.Second) }
	if n, err := e.svc.PublishDue(t.Context()); err != nil || n != 2 {
		t.Fatalf("PublishDue: %d %v", n, err)
	}
	// wp_publish_post ends as an update: the first revision is stored (by
	// no user); a post that has one gets no other, nothing changed
	for _, c := range []struct {
		id   int64
		want int
	}{{fresh, 1}, {edited, 1}} {
		revs := e.do(editor, "GET", fmt.Sprintf("/cms/v2/posts/%d/revisions", c.id), nil).list()
		if len(revs) != c.want || revs[0]["title"].(map[string]any)["rendered"] == nil {
			t.Fatalf("post %d revisions: %v", c.id, revs)
		}
	}
	revs := e.do(editor, "GET", fmt.Sprintf("/cms/v2/posts/%d/revisions", fresh), nil).list()
	if revs[0]["author"] != float64(0) || revs[0]["slug"] != fmt.Sprintf("%d-revision-v1", fresh) {
		t.Fatalf("scheduled revision: %v", revs[0])
	}
}

func TestFutureNeedsAMinute(t *testing.T) {
	e := newEnv(t)
	now := e.svc.now()
	e.svc.now = func() time.Time { return now } // the borders are to the second
	cases := []struct {
		status string
		ahead  time.Duration
		want   string
	}{
		// wp_insert_post compares with MINUTE_IN_SECONDS
		{"publish", 30 * time.Second, "publish"},
		{"publish", 59 * time.Second, "publish"},
		{"publish", time.Minute, "future"},
		{"future", 30 * time.Second, "publish"},
		{"future", 2 * time.Minute, "future"},
		{"future", -time.Hour, "publish"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.status, c.ahead), func(t *testing.T) {
			r := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "f", "status": c.status,
				"date_gmt": now.Add(c.ahead).Format(store.WPDateLayout)})
			wantStatus(t, r, 201)
			if r.obj()["status"] != c.want {
				t.Fatalf("status %v, want %s", r.obj()["status"], c.want)
			}
		})
	}
}

// Past the end of a post's revisions, the Link header counts from the
// requested page, as WordPress 6.9.7's revisions controller does: with no
// revisions (so no 400) ?page=9999 still links rel=prev to page 0.
func TestRevisionLinksPastTheEnd(t *testing.T) {
	e := newEnv(t)
	id := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "r", "content": "v1"}).id()
	base := fmt.Sprintf("/cms/v2/posts/%d/revisions", id)
	cases := []struct {
		query, link string
	}{
		{"", ""},
		{"?page=9999", `revisions?page=0>; rel="prev"`},
		{"?per_page=2&page=3", `revisions?per_page=2&page=0>; rel="prev"`},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			r := e.do(author, "GET", base+c.query, nil)
			wantStatus(t, r, 200)
			links := strings.Join(r.Header.Values("Link"), ", ")
			if c.link == "" && strings.Contains(links, `rel="prev"`) || !strings.Contains(links, c.link) {
				t.Errorf("Link %q, want %q", links, c.link)
			}
			if r.Header.Get("X-WP-TotalPages") != "0" {
				t.Errorf("X-WP-TotalPages %q", r.Header.Get("X-WP-TotalPages"))
			}
		})
	}
}

// A block's revisions show title.raw in view and edit context but not in
// embed, as WordPress 6.9.7's revisions controller filters them by the
// blocks controller's schema.
func TestBlockRevisionTitleRaw(t *testing.T) {
	e := newEnv(t)
	id := e.do(admin, "POST", "/cms/v2/blocks", map[string]any{"title": "b1", "content": "<!-- wp:paragraph /-->", "status": "publish"}).id()
	wantStatus(t, e.do(admin, "POST", fmt.Sprintf("/cms/v2/blocks/%d", id), map[string]any{"title": "b2"}), 200)
	cases := []struct {
		context string
		raw     bool
	}{
		{"view", true},
		{"edit", true},
		{"embed", false},
	}
	for _, c := range cases {
		t.Run(c.context, func(t *testing.T) {
			r := e.do(admin, "GET", fmt.Sprintf("/cms/v2/blocks/%d/revisions?context=%s", id, c.context), nil)
			wantStatus(t, r, 200)
			list := r.list()
			if len(list) == 0 {
				t.Fatalf("no revisions: %s", r.Raw)
			}
			if _, ok := list[0]["title"].(map[string]any)["raw"]; ok != c.raw {
				t.Errorf("title.raw present %v, want %v: %s", ok, c.raw, r.Raw)
			}
		})
	}
}
