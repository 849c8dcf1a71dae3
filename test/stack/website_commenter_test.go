package stack

import (
	"crypto/md5" //nolint:gosec // WordPress's COOKIEHASH: a name, not a secret
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// commenterClient is a reader's browser: it keeps cookies and follows no
// redirect.
func commenterClient(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// sendComment posts the comment form with c, waiting out once the flood
// interval another test's anonymous comment started.
func sendComment(t *testing.T, c *http.Client, form url.Values) *Response {
	t.Helper()
	for attempt := 0; ; attempt++ {
		res, err := c.PostForm(st.SiteURL+"/cms-comments-post.php", form)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if res.StatusCode == http.StatusTooManyRequests && attempt == 0 {
			time.Sleep(16 * time.Second)
			continue
		}
		return &Response{Status: res.StatusCode, Header: res.Header, Raw: raw}
	}
}

// An anonymous reader who ticks "Save my name, email, and website in this
// browser" gets WordPress's three commenter cookies (comment_author_{md5 of
// the site URL}, _email_, _url_, for a year) through the gateway; with them
// the post's page fills the form, ticks the box and shows the reader's own
// held comment ("Your comment is awaiting moderation."), never from a
// shared cache; a reader without them, or with another e-mail, sees
// neither; a comment sent without the tick clears the cookies.
func TestWebsiteCommenterCookies(t *testing.T) {
	needs(t, contract.ServiceContent)
	run := randomHex(3)
	post := create(t, "posts", map[string]any{"title": "Cookies " + run, "status": "publish"})
	link := post["link"].(string)
	email := "cookie-" + run + "@example.com"
	form := url.Values{"comment_post_ID": {fmt.Sprint(post["id"])}, "comment": {"Held for " + run}, "author": {"Cookie Ann"},
		"email": {email}, "url": {"https://ann.example/"}, "wp-comment-cookies-consent": {"yes"}}
	reader := commenterClient(t)
	r := sendComment(t, reader, form)
	if r.Status != 302 {
		t.Fatalf("comment form: %d %s", r.Status, r.Raw)
	}
	sum := md5.Sum([]byte(st.SiteURL)) //nolint:gosec // as WordPress names the cookies
	hash := hex.EncodeToString(sum[:])
	set := map[string]*http.Cookie{}
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		set[c.Name] = c
	}
	for name, want := range map[string]string{"comment_author_" + hash: "Cookie Ann", "comment_author_email_" + hash: email,
		"comment_author_url_" + hash: "https://ann.example/"} {
		c := set[name]
		if c == nil {
			t.Fatalf("no cookie %s in %v", name, r.Header.Values("Set-Cookie"))
		}
		v, _ := url.QueryUnescape(c.Value)
		if v != want || c.Path != "/" || c.Expires.Before(time.Now().Add(360*24*time.Hour)) {
			t.Errorf("cookie %s: %q, path %q, expires %v; want %q, /, in a year", name, v, c.Path, c.Expires, want)
		}
	}

	visit := func(c *http.Client) (string, http.Header) {
		t.Helper()
		res, err := c.Get(link)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		return string(raw), res.Header
	}
	other := commenterClient(t)
	u, _ := url.Parse(st.SiteURL)
	other.Jar.SetCookies(u, []*http.Cookie{{Name: "comment_author_email_" + hash, Value: url.QueryEscape("someone-else@example.com")}})
	for _, tt := range []struct {
		name   string
		client *http.Client
		own    bool
	}{
		{"the commenter", reader, true},
		{"a reader without cookies", &http.Client{}, false},
		{"a reader with another e-mail", other, false},
		{"the commenter again (not from a cache)", reader, true},
	} {
		body, h := visit(tt.client)
		shown := strings.Contains(body, "Held for "+run) && strings.Contains(body, "Your comment is awaiting moderation.</em>")
		filled := strings.Contains(body, `name="author" type="text" value="Cookie Ann"`) &&
			strings.Contains(body, `value="`+email+`"`) && strings.Contains(body, `value="https://ann.example/"`) &&
			strings.Contains(body, `name="wp-comment-cookies-consent" type="checkbox" value="yes" checked="checked"`)
		if shown != tt.own || filled != tt.own || strings.Contains(body, "This is a preview") {
			t.Errorf("%s: held comment shown %v, form filled %v; want %v", tt.name, shown, filled, tt.own)
		}
		if tt.own && !strings.Contains(h.Get("Cache-Control"), "private") {
			t.Errorf("%s: Cache-Control %q, want private", tt.name, h.Get("Cache-Control"))
		}
	}

	// without the tick: the cookies are cleared
	form.Set("comment", "Second, not remembered "+run)
	form.Del("wp-comment-cookies-consent")
	if r := sendComment(t, reader, form); r.Status != 302 {
		t.Fatalf("second comment: %d %s", r.Status, r.Raw)
	}
	if got := reader.Jar.Cookies(u); len(got) != 0 {
		t.Errorf("cookies left after a comment without consent: %v", got)
	}
}
