package content

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
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
			var status, content string
			err := e.pool.QueryRow(context.Background(), `SELECT status, content FROM comments WHERE id > $1 AND id < 90000 ORDER BY id DESC LIMIT 1`, before).Scan(&status, &content)
			if tt.stored == "" {
				if err == nil {
					t.Errorf("a comment was stored: %s", status)
				}
				return
			}
			if err != nil || status != tt.stored {
				t.Fatalf("stored %q (%v), want %q", status, err, tt.stored)
			}
			if strings.Contains(content, "<script") {
				t.Errorf("content not filtered: %s", content)
			}
			if loc := r.Header.Get("Location"); !strings.HasPrefix(loc, "http://example.test/rules-") || (tt.stored != "spam") != strings.Contains(loc, "#comment-") {
				t.Errorf("Location %q", loc)
			}
		})
	}
}
