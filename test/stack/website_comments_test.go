package stack

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"siteplane.dev/services/pkg/contract"
)

// postCommentForm sends the comment form through the gateway as a client
// that follows no redirect; a 429 (another anonymous comment from this
// address less than 15 s ago, in an earlier test) is waited out once.
func postCommentForm(t *testing.T, form url.Values, header http.Header) *Response {
	t.Helper()
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequest("POST", st.SiteURL+"/cms-comments-post.php", strings.NewReader(form.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range header {
			req.Header[k] = v
		}
		c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if res.StatusCode == http.StatusTooManyRequests && attempt == 0 && header.Get("X-Expect-Flood") == "" {
			time.Sleep(16 * time.Second)
			continue
		}
		return &Response{Status: res.StatusCode, Header: res.Header, Raw: raw}
	}
}

// Headless Chromium posts a comment through the form as an anonymous
// reader (who sees the moderation preview) and as a signed-in subscriber
// (who sees their held comment), without console errors, failed requests
// or Content-Security-Policy refusals.
func TestBrowserComments(t *testing.T) {
	needs(t, contract.ServiceContent)
	post := create(t, "posts", map[string]any{"title": "Talk to me", "status": "publish",
		"content": "<!-- wp:paragraph -->\n<p>Say something.</p>\n<!-- /wp:paragraph -->"})
	link := post["link"].(string)
	login, password := "browser-reader", "a reader's words 9"
	if r := call(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": login, "email": "reader@example.com",
		"password": password, "roles": []string{"subscriber"}}, admin()...); r.Status != 201 {
		t.Fatalf("create user: %d %s", r.Status, r.Raw)
	}
	out := testOutput(t, "website")
	ctx := newBrowserContext(t)
	problems := &browserProblems{}
	if err := chromedp.Listen(ctx, problems.listen); err != nil {
		t.Fatal(err)
	}
	text, screenshot := pageTools(t, ctx, out)

	// An anonymous reader: name, e-mail, comment, submit; WordPress's
	// defaults hold a first comment, and the redirect shows it to its author.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS(`#commentform`)),
		chromedp.SendKeys(chromedp.CSS(`#comment`), "Lovely words from a browser."),
		chromedp.SendKeys(chromedp.CSS(`#author`), "Ann Browser"),
		chromedp.SendKeys(chromedp.CSS(`#email`), "ann@example.com"),
	); err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`#submit`)))
	if err != nil || res.Status != 200 {
		t.Fatalf("anonymous comment: %v %v", res, err)
	}
	at, _ := chromedp.Run(ctx, chromedp.Location())
	if !strings.Contains(at, "moderation-hash=") || !strings.Contains(text(".comment-awaiting-moderation"), "This is a preview") ||
		!strings.Contains(text(".wp-block-comment-template"), "Lovely words from a browser.") {
		t.Errorf("anonymous comment: at %s, the held comment is not shown to its author", at)
	}
	screenshot("comment-anonymous.png")

	// A signed-in subscriber: the form names them and asks only for the
	// comment; their held comment shows to them.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(st.SiteURL+"/cms-login.php"),
		chromedp.WaitVisible(chromedp.CSS(`#user_login`)),
		chromedp.SendKeys(chromedp.CSS(`#user_login`), login),
		chromedp.SendKeys(chromedp.CSS(`#user_pass`), password),
		chromedp.Click(chromedp.CSS(`#wp-submit`)),
		chromedp.Sleep(time.Second),
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS(`#commentform`)),
	); err != nil {
		t.Fatal(err)
	}
	if got := text(".logged-in-as"); !strings.HasPrefix(got, "Logged in as") {
		t.Errorf("the form does not name the signed-in reader: %q", got)
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#comment`), "Signed in and saying so.")); err != nil {
		t.Fatal(err)
	}
	if res, err = chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`#submit`))); err != nil || res.Status != 200 {
		t.Fatalf("signed-in comment: %v %v", res, err)
	}
	if got := text(".wp-block-comment-template"); !strings.Contains(got, "Signed in and saying so.") ||
		!strings.Contains(got, "Your comment is awaiting moderation.") || strings.Contains(got, "Lovely words") {
		t.Errorf("signed-in comment: the page shows %q", got)
	}
	screenshot("comment-signed-in.png")

	problems.mu.Lock()
	defer problems.mu.Unlock()
	// the sign-in page (the gateway's) names no icon, so Chromium asks for
	// /favicon.ico, which the site has not (the site icon is not part of
	// the comments): that 404 and its console line are not the comments'
	var seen []string
	favicons := 0
	for _, p := range problems.list {
		switch {
		case strings.Contains(p, "/favicon.ico"):
			favicons++
		case favicons > 0 && strings.Contains(p, "Failed to load resource: the server responded with a status of 404"):
			favicons--
		default:
			seen = append(seen, p)
		}
	}
	if len(seen) > 0 {
		t.Errorf("browser problems: %v", seen)
	}
}

// The comment form and the comment feeds through the gateway: the form's
// redirect, the held comment's preview (never cached), the flood interval,
// another site's form refused, the reader's address as the gateway saw
// it; the site's and a post's comment feeds and an author's feed, RSS 2.0
// and Atom, validated.
func TestWebsiteCommentsThroughGateway(t *testing.T) {
	needs(t, contract.ServiceContent)
	post := create(t, "posts", map[string]any{"title": "Comments by gateway", "status": "publish"})
	link := post["link"].(string)
	id := fmt.Sprint(post["id"])
	first := create(t, "comments", map[string]any{"post": post["id"], "content": "An approved <b>first</b> word"})
	reply := create(t, "comments", map[string]any{"post": post["id"], "parent": first["id"], "content": "And a reply"})

	form := url.Values{"comment_post_ID": {id}, "comment": {"Held until approved"}, "author": {"Gate"}, "email": {"gate@example.com"}}
	r := postCommentForm(t, form, http.Header{contract.ClientAddressHeader: {"6.6.6.6"}})
	loc, err := url.Parse(r.Header.Get("Location"))
	if r.Status != 302 || err != nil || loc.Query().Get("moderation-hash") == "" {
		t.Fatalf("comment form: %d %q %s", r.Status, r.Header.Get("Location"), r.Raw)
	}
	held := loc.Query().Get("unapproved")
	c := call(t, "GET", "/cms-json/cms/v2/comments/"+held+"?context=edit", nil, admin()...).Obj()
	if c["status"] != "hold" || c["author_ip"] != "127.0.0.1" {
		t.Errorf("held comment: status %v, address %v (want the gateway's view of the reader, not the header sent)", c["status"], c["author_ip"])
	}
	for range 2 { // twice: the second answer must not come from the edge cache
		p := page(t, "GET", loc.String())
		if !strings.Contains(string(p.Raw), "Held until approved") || !strings.Contains(p.Header.Get("Cache-Control"), "no-store") {
			t.Fatalf("the preview: %d %q", p.Status, p.Header.Get("Cache-Control"))
		}
	}
	for range 2 {
		if p := page(t, "GET", link); strings.Contains(string(p.Raw), "Held until approved") || !strings.Contains(string(p.Raw), "And a reply") {
			t.Fatalf("the post's page shows the held comment to everyone, or not the reply")
		}
	}
	form.Set("comment", "Too soon")
	if r := postCommentForm(t, form, http.Header{"X-Expect-Flood": {"1"}}); r.Status != 429 ||
		!strings.Contains(string(r.Raw), "You are posting comments too quickly. Slow down.") {
		t.Errorf("flood: %d %s", r.Status, r.Raw)
	}
	if r := postCommentForm(t, form, http.Header{"Origin": {"http://evil.example"}}); r.Status != 403 {
		t.Errorf("another site's form: %d", r.Status)
	}

	me := call(t, "GET", "/cms-json/cms/v2/users/me", nil, admin()...).Obj()
	author := "/author/" + me["slug"].(string) + "/"
	for _, f := range []struct{ path, kind, want string }{
		{"/comments/feed/", "rss", "<title>Comment on Comments by gateway by "},
		{"/comments/feed/atom/", "atom", fmt.Sprintf("#comment-%v", reply["id"])},
		{link + "feed/", "rss", "In reply to"},
		{link + "feed/atom/", "atom", "<thr:in-reply-to"},
		{author + "feed/", "rss", "<title>Comments by gateway</title>"},
		{author + "feed/atom/", "atom", "Comments by gateway"},
	} {
		r := page(t, "GET", f.path)
		if r.Status != 200 || !strings.Contains(string(r.Raw), f.want) || strings.Contains(string(r.Raw), "Held until approved") {
			t.Errorf("%s: %d, lacks %q: %.600s", f.path, r.Status, f.want, r.Raw)
			continue
		}
		if f.kind == "rss" {
			checkRSS(t, r.Raw)
		} else {
			checkAtom(t, r.Raw)
		}
		checkSchema(t, r.Raw, f.kind, f.path)
	}
}
