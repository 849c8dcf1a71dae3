package content

import (
	"context"
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// callerUsers is a user directory of the test callers with names, slugs
// and roles, as the gateway's lookup answers.
type callerUsers struct{}

func (callerUsers) Exists(_ context.Context, id int64) (bool, error) {
	_, ok := callerUser(id)
	return ok, nil
}

func (callerUsers) User(_ context.Context, id int64) (store.User, bool, error) {
	u, ok := callerUser(id)
	return u, ok, nil
}

func (callerUsers) UserBySlug(_ context.Context, slug string) (store.User, bool, error) {
	for name := range callers {
		if u, ok := callerUser(callers[name].UserID); ok && u.Slug == slug {
			return u, true, nil
		}
	}
	return store.User{}, false, nil
}

func callerUser(id int64) (store.User, bool) {
	for name, c := range callers {
		if c.UserID == id && id != 0 {
			return store.User{ID: id, Name: "User " + name, Slug: "user-" + name, Role: string(c.Role)}, true
		}
	}
	return store.User{}, false
}

// storedRaw writes content straight into the database, around the REST
// API's filter, as content stored before a fix of the filter is.
func (e *testEnv) storedRaw(t *testing.T, id int64, content string) {
	t.Helper()
	if _, err := e.pool.Exec(t.Context(), `UPDATE posts SET content = $2 WHERE id = $1`, id, content); err != nil {
		t.Fatal(err)
	}
}

// The website and the feeds filter a post's content when they render it
// unless its author may post unfiltered HTML: content stored unfiltered
// (before a fix) is inert for an author's post and kept for an
// administrator's.
func TestSiteRenderTimeFilter(t *testing.T) {
	e := newEnvUsers(t, callerUsers{})
	const stored = `<p>Hello <script>alert(1)</script><img src="x.png" alt="a" onerror="alert(2)"> <a href="javascript:alert(3)">go</a></p>`
	const block = "<!-- wp:paragraph -->\n" + stored + "\n<!-- /wp:paragraph -->"
	hostile := []string{"<script>", "onerror=", `href="javascript:`}
	for _, tt := range []struct {
		name, who, content string
		keeps              bool
	}{
		{"author classic", author, stored, false},
		{"author blocks", author, block, false},
		{"administrator classic", admin, stored, true},
		{"administrator blocks", admin, block, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(tt.who, "POST", "/cms/v2/posts", map[string]any{"title": "Filter " + tt.name, "status": "publish", "content": "x"})
			wantStatus(t, r, 201)
			id := r.id()
			e.storedRaw(t, id, tt.content)
			page := e.page(anon, "/?p="+store.Itoa(id))
			if page.Status == 301 {
				page = e.page(anon, strings.TrimPrefix(page.Header.Get("Location"), "http://example.test"))
			}
			wantStatus(t, page, 200)
			for _, out := range []struct {
				where string
				body  string
			}{
				{"page", string(page.Raw)},
				{"rss", string(e.page(anon, "/feed/").Raw)},
				{"atom", string(e.page(anon, "/feed/atom/").Raw)},
			} {
				body := out.body
				if out.where != "page" {
					// the feeds carry the content escaped once
					body = unescapeXML(body)
				}
				if !strings.Contains(body, "Hello") {
					t.Fatalf("%s: content missing: %.600s", out.where, body)
				}
				for _, h := range hostile {
					if strings.Contains(body, h) != tt.keeps {
						t.Errorf("%s: contains %q = %v, want %v", out.where, h, !tt.keeps, tt.keeps)
					}
				}
			}
			// the next post's turn: only one filtered post in the feeds at a time
			e.do(admin, "DELETE", "/cms/v2/posts/"+store.Itoa(id)+"?force=true", nil)
		})
	}
}

// unescapeXML undoes the feeds' escaping of the content's HTML.
func unescapeXML(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#34;", `"`, "&#39;", "'", "&amp;", "&").Replace(s)
}

// The two payloads, published by an author or pending from a
// contributor, leave no event handler and no javascript: link in the page,
// the feeds and the preview.
func TestSiteBlockPayloadsInert(t *testing.T) {
	e := newEnvUsers(t, callerUsers{})
	const payload = `<!-- wp:group {"layout":{"type":"flex","justifyContent":"x\" autofocus onfocus=\"alert(1)"}} -->
<div class="wp-block-group"><!-- wp:paragraph -->
<p>Payload words</p>
<!-- /wp:paragraph --></div>
<!-- /wp:group -->

<!-- wp:navigation-link {"label":"Home","url":"javascript:alert(1)"} /-->`
	bad := []string{"onfocus=", `href="javascript:`}
	check := func(t *testing.T, where, body string) {
		t.Helper()
		if !strings.Contains(body, "Payload words") {
			t.Fatalf("%s: content missing: %.600s", where, body)
		}
		for _, b := range bad {
			if strings.Contains(body, b) {
				t.Errorf("%s: contains %q", where, b)
			}
		}
	}
	for _, tt := range []struct {
		name, who, status string
		raw               bool // stored around the REST API
	}{
		{"published by an author", author, "publish", false},
		{"stored raw for an author", author, "publish", true},
		{"pending from a contributor", contributor, "pending", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(tt.who, "POST", "/cms/v2/posts", map[string]any{"title": "Payload", "status": tt.status, "content": payload})
			wantStatus(t, r, 201)
			id := r.id()
			if tt.raw {
				e.storedRaw(t, id, payload)
			}
			defer e.do(admin, "DELETE", "/cms/v2/posts/"+store.Itoa(id)+"?force=true", nil)
			if tt.status != "publish" {
				page := e.page(editor, "/?p="+store.Itoa(id)+"&preview=true")
				wantStatus(t, page, 200)
				check(t, "preview", string(page.Raw))
				return
			}
			page := e.page(anon, "/?p="+store.Itoa(id))
			if page.Status == 301 {
				page = e.page(anon, strings.TrimPrefix(page.Header.Get("Location"), "http://example.test"))
			}
			wantStatus(t, page, 200)
			check(t, "page", string(page.Raw))
			check(t, "rss", unescapeXML(string(e.page(anon, "/feed/").Raw)))
			check(t, "atom", unescapeXML(string(e.page(anon, "/feed/atom/").Raw)))
		})
	}
}

// ?author={id} leads only to the archive of a user with published posts:
// any other id (a subscriber, a user with only a pending post, no user)
// is the 404, not a redirect that names the user's login slug.
func TestSiteAuthorQueryRevealsOnlyPublishingUsers(t *testing.T) {
	e := newEnvUsers(t, callerUsers{})
	wantStatus(t, e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "Published", "status": "publish"}), 201)
	wantStatus(t, e.do(contributor, "POST", "/cms/v2/posts", map[string]any{"title": "Waiting", "status": "pending"}), 201)
	for _, tt := range []struct {
		id       int64
		status   int
		location string
	}{
		{callers[author].UserID, 301, "http://example.test/author/user-author/"},
		{callers[subscriber].UserID, 404, ""},
		{callers[contributor].UserID, 404, ""},
		{callers[admin].UserID, 404, ""},
		{999, 404, ""},
	} {
		r := e.page(anon, "/?author="+store.Itoa(tt.id))
		if r.Status != tt.status || r.Header.Get("Location") != tt.location {
			t.Errorf("?author=%d: %d %q, want %d %q", tt.id, r.Status, r.Header.Get("Location"), tt.status, tt.location)
		}
	}
}
