package content

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/content/store"
)

func TestPasswordProtected(t *testing.T) {
	e := newEnv(t)
	id := seedPosts(e, map[string]any{"title": "Secret", "content": "hidden words", "excerpt": "teaser", "password": "pw"})[0]
	path := fmt.Sprintf("/cms/v2/posts/%d", id)
	r := e.do(anon, "GET", path, nil)
	wantStatus(t, r, 200)
	o := r.obj()
	if field(o, "content", "rendered") != "" || field(o, "content", "protected") != true ||
		field(o, "excerpt", "rendered") != "" || field(o, "title", "rendered") != "Secret" {
		t.Fatalf("protected view: %s", r.Raw)
	}
	wantError(t, e.do(anon, "GET", path+"?password=wrong", nil), 403, "rest_post_incorrect_password", "Incorrect post password.")
	r = e.do(anon, "GET", path+"?password=pw", nil)
	if field(r.obj(), "content", "rendered") != "<p>hidden words</p>\n" || field(r.obj(), "excerpt", "rendered") != "<p>teaser</p>\n" {
		t.Fatalf("with password: %s", r.Raw)
	}
	// the editor sees it in edit context
	r = e.do(editor, "GET", path+"?context=edit", nil)
	if field(r.obj(), "content", "rendered") != "<p>hidden words</p>\n" || r.obj()["password"] != "pw" {
		t.Fatalf("edit: %s", r.Raw)
	}
	// hidden from anonymous searches
	r = e.do(anon, "GET", "/cms/v2/posts?search=hidden", nil)
	if len(r.list()) != 0 {
		t.Fatalf("search shows protected post: %s", r.Raw)
	}
	// sticky and password conflicts
	wantError(t, e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "x", "password": "a", "sticky": true}), 400,
		"rest_invalid_field", "A post can not be sticky and have a password.")
	wantError(t, e.do(editor, "POST", path, map[string]any{"sticky": true}), 400,
		"rest_invalid_field", "A password protected post can not be set to sticky.")
	sticky := seedPosts(e, map[string]any{"title": "s", "sticky": true})[0]
	wantError(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", sticky), map[string]any{"password": "x"}), 400,
		"rest_invalid_field", "A sticky post can not be password protected.")
}

func TestReadPermissions(t *testing.T) {
	e := newEnv(t)
	draft := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "d"}).id()
	private := seedPosts(e, map[string]any{"title": "p", "status": "private"})[0]
	cases := []struct {
		who, path string
		want      int
		code, msg string
	}{
		{anon, fmt.Sprintf("/cms/v2/posts/%d", draft), 401, "rest_forbidden", "Sorry, you are not allowed to do that."},
		{subscriber, fmt.Sprintf("/cms/v2/posts/%d", draft), 403, "rest_forbidden", "Sorry, you are not allowed to do that."},
		{author2, fmt.Sprintf("/cms/v2/posts/%d", draft), 403, "rest_forbidden", ""},
		{author, fmt.Sprintf("/cms/v2/posts/%d", draft), 200, "", ""},
		{editor, fmt.Sprintf("/cms/v2/posts/%d", draft), 200, "", ""},
		{author, fmt.Sprintf("/cms/v2/posts/%d", private), 403, "rest_forbidden", ""},
		{editor, fmt.Sprintf("/cms/v2/posts/%d", private), 200, "", ""},
		{author2, fmt.Sprintf("/cms/v2/posts/%d?context=edit", draft), 403, "rest_forbidden_context", "Sorry, you are not allowed to edit this post."},
	}
	for _, c := range cases {
		t.Run(c.who+c.path, func(t *testing.T) {
			r := e.do(c.who, "GET", c.path, nil)
			if c.code == "" {
				wantStatus(t, r, c.want)
				return
			}
			wantError(t, r, c.want, c.code, c.msg)
		})
	}
}

func TestSlugsAndDates(t *testing.T) {
	e := newEnv(t)
	// published: slug from the title, then -2
	a := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Héllo Wörld!", "status": "publish"})
	b := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Héllo Wörld!", "status": "publish"})
	if a.obj()["slug"] != "hello-world" || b.obj()["slug"] != "hello-world-2" {
		t.Fatalf("slugs: %v %v", a.obj()["slug"], b.obj()["slug"])
	}
	// draft keeps an empty slug but shows generated_slug
	d := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Draft Title"})
	if d.obj()["slug"] != "" || d.obj()["generated_slug"] != "draft-title" {
		t.Fatalf("draft slug: %s", d.Raw)
	}
	// an explicit slug is sanitised and made unique even for a draft
	x := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "x", "slug": "Hello World"})
	if x.obj()["slug"] != "hello-world-3" {
		t.Fatalf("explicit slug: %v", x.obj()["slug"])
	}
	// slugs are per type: a page may reuse it
	pg := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "Hello World", "status": "publish"})
	if pg.obj()["slug"] != "hello-world" {
		t.Fatalf("page slug: %v", pg.obj()["slug"])
	}
	// untitled published post: its id
	u := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"status": "publish"})
	if u.obj()["slug"] != fmt.Sprint(u.id()) {
		t.Fatalf("untitled slug: %v", u.obj()["slug"])
	}

	// dates: local (Europe/Paris, UTC+1 in winter) and GMT
	r := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "dated", "status": "publish", "date": "2024-01-15T10:30:00"})
	if r.obj()["date"] != "2024-01-15T10:30:00" || r.obj()["date_gmt"] != "2024-01-15T09:30:00" {
		t.Fatalf("date: %v %v", r.obj()["date"], r.obj()["date_gmt"])
	}
	r = e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "dated", "status": "publish", "date_gmt": "2024-07-15T10:30:00Z"})
	if r.obj()["date"] != "2024-07-15T12:30:00" || r.obj()["date_gmt"] != "2024-07-15T10:30:00" {
		t.Fatalf("date_gmt: %v %v", r.obj()["date"], r.obj()["date_gmt"])
	}
	// publish with a future date is scheduled
	r = e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "later", "status": "publish", "date": "2999-01-01T00:00:00"})
	if r.obj()["status"] != "future" {
		t.Fatalf("future: %v", r.obj()["status"])
	}
	wantError(t, e.do(editor, "POST", "/cms/v2/posts", map[string]any{"date": "not a date"}), 400, "rest_invalid_param", "Invalid parameter(s): date")
}

func TestPostFieldsByContext(t *testing.T) {
	e := newEnv(t)
	cat := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "News"}).id()
	id := seedPosts(e, map[string]any{"title": "T", "content": "<!-- wp:paragraph -->\n<p>One two</p>\n<!-- /wp:paragraph -->",
		"categories": []int64{cat}, "featured_media": 42, "meta": map[string]any{"footnotes": "[]"}})[0]
	path := fmt.Sprintf("/cms/v2/posts/%d", id)
	view := e.do(anon, "GET", path, nil).obj()
	for _, k := range []string{"id", "date", "date_gmt", "guid", "modified", "slug", "status", "type", "link", "title", "content",
		"excerpt", "author", "featured_media", "comment_status", "ping_status", "sticky", "template", "format", "meta",
		"categories", "tags", "class_list", "_links"} {
		if _, ok := view[k]; !ok {
			t.Errorf("view lacks %s", k)
		}
	}
	for _, k := range []string{"password", "permalink_template", "generated_slug"} {
		if _, ok := view[k]; ok {
			t.Errorf("view has %s", k)
		}
	}
	if field(view, "content", "rendered") != "<p>One two</p>\n" || field(view, "content", "raw") != nil {
		t.Errorf("content: %v", view["content"])
	}
	if view["featured_media"] != float64(42) || fmt.Sprint(view["categories"]) != fmt.Sprint([]any{float64(cat)}) ||
		field(view, "meta", "footnotes") != "[]" {
		t.Errorf("fields: %v %v %v", view["featured_media"], view["categories"], view["meta"])
	}
	links := view["_links"].(map[string]any)
	if str(field(links["wp:featuredmedia"].([]any)[0].(map[string]any), "href")) != "http://example.test/cms-json/cms/v2/media/42" {
		t.Errorf("featuredmedia link: %v", links["wp:featuredmedia"])
	}
	if hints := field(links["self"].([]any)[0].(map[string]any), "targetHints", "allow"); fmt.Sprint(hints) != "[GET]" {
		t.Errorf("anonymous targetHints: %v", hints)
	}
	embed := e.do(anon, "GET", path+"?context=embed", nil).obj()
	for _, k := range []string{"status", "content", "date_gmt", "categories"} {
		if _, ok := embed[k]; ok {
			t.Errorf("embed has %s", k)
		}
	}
	edit := e.do(editor, "GET", path+"?context=edit", nil).obj()
	if field(edit, "content", "block_version") != float64(1) || edit["permalink_template"] != "http://example.test/%postname%/" {
		t.Errorf("edit: %v %v", edit["content"], edit["permalink_template"])
	}
	if !strings.Contains(fmt.Sprint(edit["class_list"]), "category-news") {
		t.Errorf("class_list: %v", edit["class_list"])
	}
}

func TestScheduledPostsPublish(t *testing.T) {
	e := newEnv(t)
	soon := e.svc.now().Add(time.Hour)
	r := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "later", "status": "publish", "date_gmt": soon.Format(store.WPDateLayout)})
	if r.obj()["status"] != "future" {
		t.Fatalf("not scheduled: %s", r.Raw)
	}
	if n, err := e.svc.PublishDue(context.Background()); err != nil || n != 0 {
		t.Fatalf("published too early: %d %v", n, err)
	}
	e.svc.now = func() time.Time { return soon.Add(time.Second) }
	if n, err := e.svc.PublishDue(context.Background()); err != nil || n != 1 {
		t.Fatalf("PublishDue: %d %v", n, err)
	}
	if got := e.do(anon, "GET", fmt.Sprintf("/cms/v2/posts/%d", r.id()), nil); got.obj()["status"] != "publish" {
		t.Fatalf("after schedule: %s", got.Raw)
	}
}

func TestUntrashAndExcerptLength(t *testing.T) {
	e := newEnv(t)
	id := seedPosts(e, map[string]any{"title": "Keep me", "content": "one two three four five"})[0]
	path := fmt.Sprintf("/cms/v2/posts/%d", id)
	if r := e.do(anon, "GET", path+"?excerpt_length=2", nil); field(r.obj(), "excerpt", "rendered") != "<p>one two [&hellip;]</p>\n" {
		t.Fatalf("excerpt_length: %s", r.Raw)
	}
	wantStatus(t, e.do(editor, "DELETE", path, nil), 200)
	wantError(t, e.do(anon, "GET", path, nil), 401, "rest_forbidden", "Sorry, you are not allowed to do that.")
	r := e.do(editor, "POST", path, map[string]any{"status": "publish"})
	if r.obj()["status"] != "publish" || r.obj()["slug"] != "keep-me" {
		t.Fatalf("untrash: %s", r.Raw)
	}
}

// TestTermFieldsByContext: the route kit filters terms by termSchema's
// contexts (embed keeps only id, link, name, slug, taxonomy; menus id, name,
// slug), and writes answer in the edit context, which shows what view shows.
func TestTermFieldsByContext(t *testing.T) {
	e := newEnv(t)
	cat := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "News", "description": "d"}).id()
	menu := e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "Main"}).id()
	cases := []struct {
		name, path string
		want       []string
	}{
		{"category view", fmt.Sprintf("/cms/v2/categories/%d", cat), []string{"id", "count", "description", "link", "name", "slug", "taxonomy", "parent", "meta", "_links"}},
		{"category embed", fmt.Sprintf("/cms/v2/categories/%d?context=embed", cat), []string{"id", "link", "name", "slug", "taxonomy", "_links"}},
		{"category edit", fmt.Sprintf("/cms/v2/categories/%d?context=edit", cat), []string{"id", "count", "description", "link", "name", "slug", "taxonomy", "parent", "meta", "_links"}},
		{"menu view", fmt.Sprintf("/cms/v2/menus/%d", menu), []string{"id", "description", "name", "slug", "meta", "locations", "auto_add", "_links"}},
		{"menu embed", fmt.Sprintf("/cms/v2/menus/%d?context=embed", menu), []string{"id", "name", "slug", "_links"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(admin, "GET", c.path, nil)
			wantStatus(t, r, 200)
			if got := topKeys(t, r.Raw); !slices.Equal(got, c.want) {
				t.Fatalf("keys %v, want %v", got, c.want)
			}
		})
	}
	r := e.do(editor, "POST", fmt.Sprintf("/cms/v2/categories/%d", cat), map[string]any{"description": "e"})
	wantStatus(t, r, 200)
	if got := topKeys(t, r.Raw); !slices.Equal(got, cases[0].want) {
		t.Fatalf("update keys %v, want %v", got, cases[0].want)
	}
}
