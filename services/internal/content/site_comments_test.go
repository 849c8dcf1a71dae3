package content

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// postComment sends the comment form as the gateway forwards it, from
// address ip, with extra headers.
func (e *testEnv) postComment(who, ip string, form url.Values, header map[string]string) *resp {
	e.t.Helper()
	h := identity.Middleware(identity.Static(testKey), contract.ServiceContent, nil, func(w http.ResponseWriter, r *http.Request, err error) {
		http.Error(w, err.Error(), http.StatusUnauthorized)
	})(e.svc.SiteHandler(nil))
	method := "POST"
	if header["method"] != "" {
		method = header["method"]
	}
	req := httptest.NewRequest(method, contract.SitePath+"/cms-comments-post.php", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set(contract.ClientAddressHeader, ip)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if id := callers[who]; id.LoggedIn() {
		req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey(testKey), contract.ServiceContent, id, time.Now().Add(time.Minute)))
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return &resp{Status: rec.Code, Header: rec.Header(), Raw: rec.Body.Bytes()}
}

func (e *testEnv) exec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.pool.Exec(context.Background(), sql, args...); err != nil {
		e.t.Fatal(err)
	}
}

// TestSiteCommentFormRules: every rule of the comment form, each on a post
// of its own, with WordPress's status code and message, and the status the
// stored comment gets.
func TestSiteCommentFormRules(t *testing.T) {
	e := newEnv(t)
	anonForm := func(post int64, text string) url.Values {
		return url.Values{"comment_post_ID": {store.Itoa(post)}, "comment": {text}, "author": {"Ann"}, "email": {"ann-" + store.Itoa(post) + "@example.com"}}
	}
	for _, tt := range []struct {
		name     string
		who, ip  string
		settings map[string]string // raw JSON values
		setup    func(post int64)
		form     func(post int64) url.Values
		header   map[string]string
		status   int
		message  string
		stored   string // the new comment's status ("" none stored)
		site     string // the stored website, when set
	}{
		{name: "first anonymous comment is held (previously approved)", form: func(p int64) url.Values { return anonForm(p, "Hello") },
			status: 302, stored: "hold"},
		{name: "previously approved name and e-mail", setup: func(p int64) {
			e.exec(`INSERT INTO comments (post, author_name, author_email, date_gmt, content, status) VALUES ($1::bigint, 'Ann', 'ann-' || $1::text || '@example.com', now() at time zone 'utc' - interval '2 hours', 'old', 'approved')`, p)
		}, form: func(p int64) url.Values { return anonForm(p, "Again") }, status: 302, stored: "approved"},
		{name: "no previously approved rule", settings: map[string]string{"comment_previously_approved": `"0"`},
			form: func(p int64) url.Values { return anonForm(p, "Hi") }, status: 302, stored: "approved"},
		{name: "manual moderation", settings: map[string]string{"comment_moderation": `"1"`, "comment_previously_approved": `"0"`},
			form: func(p int64) url.Values { return anonForm(p, "Hi") }, status: 302, stored: "hold"},
		{name: "two links hold", settings: map[string]string{"comment_previously_approved": `"0"`},
			form: func(p int64) url.Values {
				return anonForm(p, `<a href="http://a.example/">a</a> <a href="http://b.example/">b</a>`)
			}, status: 302, stored: "hold"},
		{name: "moderation keys hold", settings: map[string]string{"comment_previously_approved": `"0"`, "moderation_keys": `"casino\nloans"`},
			form: func(p int64) url.Values { return anonForm(p, "cheap LOANS here") }, status: 302, stored: "hold"},
		{name: "disallowed words are spam", settings: map[string]string{"comment_previously_approved": `"0"`, "disallowed_keys": `"viagra"`},
			form: func(p int64) url.Values { return anonForm(p, "buy Viagra") }, status: 302, stored: "spam"},
		{name: "name and e-mail required", form: func(p int64) url.Values {
			f := anonForm(p, "x")
			f.Del("email")
			return f
		}, status: 200, message: "<strong>Error:</strong> Please fill the required fields."},
		{name: "valid e-mail required", form: func(p int64) url.Values {
			f := anonForm(p, "x")
			f.Set("email", "nope")
			return f
		}, status: 200, message: "<strong>Error:</strong> Please enter a valid email address."},
		{name: "name and e-mail optional", settings: map[string]string{"require_name_email": `"0"`, "comment_previously_approved": `"0"`},
			form: func(p int64) url.Values {
				return url.Values{"comment_post_ID": {store.Itoa(p)}, "comment": {"nameless"}}
			}, status: 302, stored: "approved"},
		{name: "empty comment", form: func(p int64) url.Values { return anonForm(p, "  ") }, status: 200,
			message: "<strong>Error:</strong> Please type your comment text."},
		{name: "registration required", settings: map[string]string{"comment_registration": `"1"`},
			form: func(p int64) url.Values { return anonForm(p, "x") }, status: 403, message: "Sorry, you must be logged in to comment."},
		{name: "duplicate", setup: func(p int64) {
			e.exec(`INSERT INTO comments (post, author_name, author_email, date_gmt, content, status) VALUES ($1::bigint, 'Ann', 'ann-' || $1::text || '@example.com', now() at time zone 'utc' - interval '2 hours', 'Same', 'hold')`, p)
		}, form: func(p int64) url.Values { return anonForm(p, "Same") }, status: 409,
			message: "Duplicate comment detected; it looks as though you&#8217;ve already said that!"},
		{name: "flood", ip: "192.0.2.7", setup: func(p int64) {
			e.exec(`INSERT INTO comments (post, author_name, author_ip, date_gmt, content, status) VALUES ($1, 'Bob', '192.0.2.7', now() at time zone 'utc' - interval '5 seconds', 'earlier', 'approved')`, p)
		}, form: func(p int64) url.Values { return anonForm(p, "later") }, status: 429, message: "You are posting comments too quickly. Slow down."},
		{name: "past the flood interval", ip: "192.0.2.8", setup: func(p int64) {
			e.exec(`INSERT INTO comments (post, author_name, author_ip, date_gmt, content, status) VALUES ($1, 'Bob', '192.0.2.8', now() at time zone 'utc' - interval '20 seconds', 'earlier', 'approved')`, p)
		}, form: func(p int64) url.Values { return anonForm(p, "later") }, status: 302, stored: "hold"},
		{name: "per-address throttle", ip: "192.0.2.9", setup: func(p int64) {
			e.exec(`INSERT INTO comments (post, author_name, author_ip, date_gmt, content, status)
				SELECT $1, 'Bot', '192.0.2.9', now() at time zone 'utc' - interval '30 minutes' + g * interval '1 second', 'spam ' || g, 'hold' FROM generate_series(1, 20) g`, p)
		}, form: func(p int64) url.Values { return anonForm(p, "one more") }, status: 429, message: "You are posting comments too quickly. Slow down."},
		{name: "closed", setup: func(p int64) { e.exec(`UPDATE posts SET comment_status = 'closed' WHERE id = $1`, p) },
			form: func(p int64) url.Values { return anonForm(p, "x") }, status: 403, message: "Sorry, comments are closed for this item."},
		{name: "reply to a held comment", setup: func(p int64) {
			e.exec(`INSERT INTO comments (id, post, author_name, date_gmt, content, status) VALUES (90001, $1, 'Zed', now() at time zone 'utc' - interval '1 hour', 'held', 'hold')`, p)
		}, form: func(p int64) url.Values {
			f := anonForm(p, "reply")
			f.Set("comment_parent", "90001")
			return f
		}, status: 403, message: "Sorry, replies to unapproved comments are not allowed."},
		{name: "reply to an approved comment", settings: map[string]string{"comment_previously_approved": `"0"`}, setup: func(p int64) {
			e.exec(`INSERT INTO comments (id, post, author_name, date_gmt, content, status) VALUES (90002, $1, 'Zed', now() at time zone 'utc' - interval '1 hour', 'ok', 'approved')`, p)
		}, form: func(p int64) url.Values {
			f := anonForm(p, "reply")
			f.Set("comment_parent", "90002")
			return f
		}, status: 302, stored: "approved"},
		{name: "another site's form", who: subscriber, header: map[string]string{"Origin": "http://evil.example"},
			form: func(p int64) url.Values { return anonForm(p, "x") }, status: 403, message: "Sorry, comments cannot be sent from another site."},
		{name: "cross-site fetch metadata", header: map[string]string{"Sec-Fetch-Site": "cross-site"},
			form: func(p int64) url.Values { return anonForm(p, "x") }, status: 403, message: "Sorry, comments cannot be sent from another site."},
		{name: "same origin signed-in subscriber is held", who: subscriber, header: map[string]string{"Origin": "http://example.test"},
			form: func(p int64) url.Values { return anonForm(p, "mine") }, status: 302, stored: "hold"},
		{name: "administrator is approved, HTML filtered", who: admin,
			form: func(p int64) url.Values { return anonForm(p, "<script>x()</script><b>bold</b>") }, status: 302, stored: "approved"},
		// pre_comment_author_name and _url: a name loses its tags, a URL of another scheme is dropped
		{name: "hostile name and website", form: func(p int64) url.Values {
			f := anonForm(p, "x")
			f.Set("author", `<b onmouseover="x()">Eve</b><script>y()</script>`)
			f.Set("url", "javascript:alert(1)")
			return f
		}, status: 302, stored: "hold", site: "-"},
		{name: "website without a scheme", form: func(p int64) url.Values {
			f := anonForm(p, "x")
			f.Set("url", "ann.example/me")
			return f
		}, status: 302, stored: "hold", site: "http://ann.example/me"},
		{name: "GET is refused", header: map[string]string{"method": "GET"}, form: func(int64) url.Values { return nil }, status: 405},
		{name: "no such post", form: func(int64) url.Values { return anonForm(999999, "x") }, status: 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e.exec(`DELETE FROM settings WHERE name = ANY($1)`, store.DiscussionSettings)
			for k, v := range tt.settings {
				e.exec(`INSERT INTO settings (name, value) VALUES ($1, $2)`, k, v)
			}
			post := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "Rules " + tt.name, "status": "publish"}).id()
			if tt.setup != nil {
				tt.setup(post)
			}
			who, ip := tt.who, tt.ip
			if who == "" {
				who = anon
			}
			if ip == "" {
				ip = "198.51.100." + store.Itoa(post%250)
			}
			var before int64
			if err := e.pool.QueryRow(context.Background(), `SELECT coalesce(max(id), 0) FROM comments WHERE id < 90000`).Scan(&before); err != nil {
				t.Fatal(err)
			}
			r := e.postComment(who, ip, tt.form(post), tt.header)
			if r.Status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tt.status, r.Raw)
			}
			if tt.message != "" && !strings.Contains(string(r.Raw), "<p>"+tt.message+"</p>") {
				t.Errorf("page lacks %q: %s", tt.message, r.Raw)
			}
			var status, content, name, site string
			err := e.pool.QueryRow(context.Background(), `SELECT status, content, author_name, author_url FROM comments WHERE id > $1 AND id < 90000 ORDER BY id DESC LIMIT 1`,
				before).Scan(&status, &content, &name, &site)
			if tt.stored == "" {
				if err == nil {
					t.Errorf("a comment was stored: %s", status)
				}
				return
			}
			if err != nil || status != tt.stored {
				t.Fatalf("stored %q (%v), want %q", status, err, tt.stored)
			}
			if strings.Contains(content, "<script") || strings.ContainsAny(name, "<>") || strings.Contains(site, "javascript") {
				t.Errorf("not filtered: content %q, name %q, website %q", content, name, site)
			}
			if want := strings.TrimPrefix(tt.site, "-"); tt.site != "" && site != want {
				t.Errorf("website %q, want %q", site, want)
			}
			if loc := r.Header.Get("Location"); !strings.HasPrefix(loc, "http://example.test/rules-") || (tt.stored != "spam") != strings.Contains(loc, "#comment-") {
				t.Errorf("Location %q", loc)
			}
		})
	}
}

// TestSiteCommentsRender: the single template's comments blocks show the
// approved comments threaded and paged by the discussion settings, the
// signed-in author's held comment to them alone (never cacheable), the
// reply form, and a comment page past the end is a 404.
func TestSiteCommentsRender(t *testing.T) {
	e := newEnv(t)
	post := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "Talk", "status": "publish"}).id()
	add := func(id, parent, user int64, name, text, status string, minutes int) {
		e.exec(`INSERT INTO comments (id, post, parent, author, author_name, author_url, date_gmt, content, status)
			VALUES ($1, $2, $3, $4, $5, 'http://ann.example/', now() at time zone 'utc' - make_interval(mins => $6), $7, $8)`,
			id, post, parent, user, name, minutes, text, status)
	}
	add(1001, 0, 0, "Ann", "First thread", "approved", 60)
	add(1002, 1001, 0, "Bob", "A reply", "approved", 50)
	add(1003, 1002, 0, "Cy", "Deeper", "approved", 45)
	add(1004, 0, 0, "Dee", "Second thread", "approved", 40)
	add(1005, 0, 5, "Sub", "Held one", "hold", 30)
	add(1006, 0, 0, "Eve", "Spam thread", "spam", 20)
	add(1007, 0, 0, "Fay", "Third thread", "approved", 10)
	// the snapshot keeps comment pages: each case's settings are announced
	// as a write is, and each page is asked for twice (made, then kept)
	e.listen(t)
	setting := func(kv ...string) {
		gen := e.svc.web.Generation()
		err := pgx.BeginFunc(context.Background(), e.pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(context.Background(), `DELETE FROM settings WHERE name = ANY($1)`, store.DiscussionSettings); err != nil {
				return err
			}
			for i := 0; i < len(kv); i += 2 {
				if _, err := tx.Exec(context.Background(), `INSERT INTO settings (name, value) VALUES ($1, $2)`, kv[i], kv[i+1]); err != nil {
					return err
				}
			}
			return postgres.NotifyChanged(context.Background(), tx, contract.ServiceContent)
		})
		if err != nil {
			t.Fatal(err)
		}
		eventually(t, "the settings' generation", func() bool { return e.svc.web.Generation() != gen })
	}
	for _, tt := range []struct {
		name     string
		settings []string
		who      string
		path     string
		status   int
		want     []string
		lacks    []string
		noStore  bool
	}{
		{name: "threaded, WordPress's defaults", path: "/talk/", status: 200, want: []string{
			`<h2 class="wp-block-heading">Comments</h2>`, // the form's h3 never follows the post's h1 (Nu HTML Checker)
			`<h3 id="comments" class="wp-block-comments-title">5 responses to &#8220;Talk&#8221;</h3>`,
			`<ol class="wp-block-comment-template"><li id="comment-1001" class="comment even thread-even depth-1">`,
			`<ol><li id="comment-1002" class="comment odd alt depth-2">`,
			`<li id="comment-1003" class="comment even depth-3">`,
			`<div class="wp-block-comment-author-name"><a rel="external nofollow ugc" href="http://ann.example/" target="_self" >Ann</a></div>`,
			`<div class="wp-block-comment-content"><p>First thread</p>`,
			`<form action="http://example.test/cms-comments-post.php" method="post" id="commentform" class="comment-form">`,
			`<input type="hidden" name="comment_post_ID" value="` + store.Itoa(post) + `" id="comment_post_ID" />`,
			`<input id="author" name="author" type="text" value="" size="30" maxlength="245" autocomplete="name" required />`,
			`<input id="wp-comment-cookies-consent" name="wp-comment-cookies-consent" type="checkbox" value="yes" />`,
		}, lacks: []string{"Held one", "Spam thread", "comment-page-"}},
		// show_comments_cookies_opt_in off: WordPress's form has no "Save my name…" box
		{name: "no cookies box", settings: []string{"show_comments_cookies_opt_in", `"0"`}, path: "/talk/", status: 200,
			want: []string{`<input id="url" name="url" type="url"`}, lacks: []string{`id="wp-comment-cookies-consent"`, "Save my name"}},
		{name: "the author sees their held comment", who: subscriber, path: "/talk/", status: 200, noStore: true, want: []string{
			`<li id="comment-1005" class="comment byuser`,
			`<p><em class="comment-awaiting-moderation">Your comment is awaiting moderation.</em></p><p>Held one</p>`,
			`<p class="logged-in-as"><a href="http://example.test/cms-admin/profile.php" aria-label="Logged in as user 5. Edit your profile.">Logged in as user 5</a>. <a href="http://example.test/cms-login.php?action=logout">Log out?</a>`,
		}, lacks: []string{`id="author"`}},
		{name: "others do not", who: author2, path: "/talk/", status: 200, want: []string{"Logged in as user 6"},
			lacks: []string{"Held one", "Logged in as user 5", "wp-block-comment-edit-link"}},
		{name: "moderators get edit links", who: editor, path: "/talk/", status: 200, want: []string{
			`<div class="wp-block-comment-edit-link"><a href="http://example.test/cms-admin/comment.php?action=editcomment&amp;c=1001">Edit</a></div>`}},
		{name: "depth 2 flattens deeper replies", settings: []string{"thread_comments_depth", "2"}, path: "/talk/", status: 200, want: []string{
			`<li id="comment-1002" class="comment odd alt depth-2">`, `</li><li id="comment-1003" class="comment even depth-2">`}},
		{name: "unthreaded", settings: []string{"thread_comments", `"0"`}, path: "/talk/", status: 200, want: []string{
			`<li id="comment-1002" class="comment odd alt thread-odd thread-alt depth-1">`}, lacks: []string{"<ol><li"}},
		{name: "paged, newest page first", settings: []string{"page_comments", `"1"`, "comments_per_page", "2"}, path: "/talk/", status: 200,
			want: []string{"Third thread", `href="http://example.test/talk/comment-page-1/#comments"`}, lacks: []string{"First thread"}},
		{name: "comment page 1", settings: []string{"page_comments", `"1"`, "comments_per_page", "2"}, path: "/talk/comment-page-1/", status: 200,
			want: []string{"First thread", "A reply", "Second thread", `href="http://example.test/talk/#comments"`}, lacks: []string{"Third thread"}},
		{name: "oldest first, descending order", settings: []string{"page_comments", `"1"`, "comments_per_page", "2", "default_comments_page", `"oldest"`, "comment_order", `"desc"`},
			path: "/talk/", status: 200, want: []string{"Third thread", "Second thread"}, lacks: []string{"First thread"}},
		{name: "past the last comment page", settings: []string{"page_comments", `"1"`, "comments_per_page", "2"}, path: "/talk/comment-page-3/", status: 404},
		{name: "comment pages when paging is off", path: "/talk/comment-page-2/", status: 404},
		{name: "reply form", path: "/talk/?replytocom=1002", status: 200, want: []string{`<meta name="robots" content="noindex`,
			`Leave a Reply to Bob <small>`, `<input type="hidden" name="comment_parent" id="comment_parent" value="1002" />`}},
		{name: "registration required", settings: []string{"comment_registration", `"1"`}, path: "/talk/", status: 200, want: []string{
			`<p class="must-log-in">You must be <a href="http://example.test/cms-login.php?redirect_to=http%3A%2F%2Fexample.test%2Ftalk%2F">logged in</a> to post a comment.</p>`,
			`class="comment-reply-login"`}, lacks: []string{`<form action="http://example.test/cms-comments-post.php"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			setting(tt.settings...)
			who := tt.who
			if who == "" {
				who = anon
			}
			e.page(who, tt.path)
			r := e.page(who, tt.path)
			if r.Status != tt.status {
				t.Fatalf("status %d, want %d", r.Status, tt.status)
			}
			checkHTML(t, string(r.Raw))
			for _, w := range tt.want {
				if !strings.Contains(string(r.Raw), w) {
					t.Errorf("page lacks %s", w)
				}
			}
			for _, w := range tt.lacks {
				if strings.Contains(string(r.Raw), w) {
					t.Errorf("page has %s", w)
				}
			}
			if cc := r.Header.Get("Cache-Control"); strings.Contains(cc, "no-store") != tt.noStore {
				t.Errorf("Cache-Control %q", cc)
			}
		})
	}
	// in one generation, one reader's page never reaches another: the held
	// comment stays its author's, the form names each reader
	t.Run("readers of one generation", func(t *testing.T) {
		setting()
		for _, v := range []struct {
			who         string
			want, lacks string
		}{{subscriber, "Held one", ""}, {author2, "Logged in as user 6", "Held one"}, {subscriber, "Held one", ""},
			{contributor, "Logged in as user 4", "Logged in as user 6"}, {anon, "First thread", "Logged in as"}} {
			r := e.page(v.who, "/talk/")
			if !strings.Contains(string(r.Raw), v.want) || (v.lacks != "" && strings.Contains(string(r.Raw), v.lacks)) {
				t.Errorf("%s: lacks %q or has %q", v.who, v.want, v.lacks)
			}
		}
	})
}

// TestSiteCommentPreview: an anonymous commenter's held comment is shown
// to them by the redirect's moderation hash for ten minutes, never
// cacheable; a wrong or stale hash shows nothing.
func TestSiteCommentPreview(t *testing.T) {
	e := newEnv(t)
	post := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "Preview", "status": "publish"}).id()
	r := e.postComment(anon, "203.0.113.5", url.Values{"comment_post_ID": {store.Itoa(post)}, "comment": {"Held words"},
		"author": {"Ann"}, "email": {"ann@example.com"}}, nil)
	loc, err := url.Parse(r.Header.Get("Location"))
	if r.Status != 302 || err != nil || loc.Query().Get("moderation-hash") == "" {
		t.Fatalf("%d %q", r.Status, r.Header.Get("Location"))
	}
	id := loc.Query().Get("unapproved")
	if loc.Fragment != "comment-"+id || loc.Path != "/preview/" {
		t.Fatalf("Location %q", loc)
	}
	note := "Your comment is awaiting moderation. This is a preview; your comment will be visible after it has been approved."
	good := "/preview/?" + loc.RawQuery
	for _, tt := range []struct {
		name, path string
		stale      bool
		shown      bool
	}{
		{name: "the redirect", path: good, shown: true},
		{name: "the plain page", path: "/preview/"},
		{name: "a wrong hash", path: "/preview/?unapproved=" + id + "&moderation-hash=" + strings.Repeat("0", 32)},
		{name: "after ten minutes", path: good, stale: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.stale {
				e.exec(`UPDATE comments SET date_gmt = date_gmt - interval '11 minutes' WHERE id = $1::bigint`, id)
			}
			r := e.page(anon, tt.path)
			if r.Status != 200 {
				t.Fatalf("status %d", r.Status)
			}
			if got := strings.Contains(string(r.Raw), note+"</em></p><p>Held words</p>"); got != tt.shown {
				t.Errorf("held comment shown %v, want %v", got, tt.shown)
			}
			if cc := r.Header.Get("Cache-Control"); strings.Contains(cc, "no-store") != tt.shown {
				t.Errorf("Cache-Control %q", cc)
			}
		})
	}
}

// fiftyComments gives demo-post-100 fifty approved comments: ten threads
// of a comment and four replies, a paragraph each.
func fiftyComments(e *testEnv) {
	e.exec(`INSERT INTO comments (id, post, parent, author_name, author_email, author_url, date_gmt, content, status)
		SELECT 50000 + g, (SELECT id FROM posts WHERE slug = 'demo-post-100'),
			CASE WHEN g % 5 = 0 THEN 0 ELSE 50000 + g - g % 5 END,
			'Reader ' || g, 'r' || g || '@example.com', 'https://reader' || g || '.example/',
			now() at time zone 'utc' - make_interval(mins => 100 - g),
			'A comment of a few words, as readers write them: number ' || g || ', with <em>some</em> emphasis.', 'approved'
		FROM generate_series(0, 49) g`)
}

// The page of a post with fifty comments against the same page without
// (docs/website.md "Comments"): anonymously (the comments come from the
// generation's snapshot) and signed in (read with the viewer's held ones
// on every view).
func BenchmarkSitePostComments(b *testing.B) {
	for _, bb := range []struct {
		name, who string
		setup     func(*testEnv)
	}{{"none/anonymous", anon, nil}, {"fifty/anonymous", anon, fiftyComments},
		{"none/signed-in", subscriber, nil}, {"fifty/signed-in", subscriber, fiftyComments}} {
		b.Run(bb.name, func(b *testing.B) { benchmarkSitePageAs(b, "/demo-post-100/", bb.who, bb.setup, true) })
	}
}

// TestSiteCommentRedirectPage: with comments paged, the form's redirect
// leads to the page the new comment is on (get_comment_link).
func TestSiteCommentRedirectPage(t *testing.T) {
	e := newEnv(t)
	post := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "Paged talk", "status": "publish"}).id()
	for k, v := range map[string]string{"page_comments": `"1"`, "comments_per_page": "2"} {
		e.exec(`INSERT INTO settings (name, value) VALUES ($1, $2)`, k, v)
	}
	for i, minutes := range []int{50, 40, 30} {
		e.exec(`INSERT INTO comments (id, post, author_name, date_gmt, content, status)
			VALUES ($1, $2, 'Old', now() at time zone 'utc' - make_interval(mins => $3), 'old', 'approved')`, 70001+i, post, minutes)
	}
	for _, tt := range []struct {
		name, parent, want string
	}{
		{"a new thread is on the newest page, the post's URL", "0", "http://example.test/paged-talk/#comment-"},
		{"a reply to the first thread is on page 1", "70001", "http://example.test/paged-talk/comment-page-1/#comment-"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := e.postComment(admin, "192.0.2.50", url.Values{"comment_post_ID": {store.Itoa(post)}, "comment": {tt.name},
				"comment_parent": {tt.parent}}, nil)
			if loc := r.Header.Get("Location"); r.Status != 302 || !strings.HasPrefix(loc, tt.want) {
				t.Errorf("%d %q, want %s…", r.Status, loc, tt.want)
			}
		})
	}
}
