package website

import (
	"crypto/md5" //nolint:gosec // WordPress's COOKIEHASH is md5 of the site URL: a name, not a secret
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"time"

	"siteplane.dev/services/internal/content/store"
)

// The commenter cookies (WordPress's wp_set_comment_cookies and
// wp_get_current_commenter): an anonymous reader who ticks "Save my name,
// email, and website in this browser" gets comment_author_{hash},
// comment_author_email_{hash} and comment_author_url_{hash}, for a year;
// the comment form is then filled from them, and the reader sees their own
// held comments ("Your comment is awaiting moderation."). Without the tick
// the cookies are cleared. The gateway passes these cookies (and no other
// but the post password's) to the website.

// commenterCookieLife is WordPress 6.6+'s comment_cookie_lifetime.
const commenterCookieLife = 365 * 24 * time.Hour

// maxCookieValue bounds what a commenter cookie may carry into a page: the
// comment's columns are no longer (an e-mail 100, a URL 200, a name 245).
const maxCookieValue = 512

// commenterCookieNames are the three cookies' names for siteURL (COOKIEHASH
// is md5 of the site URL).
func commenterCookieNames(siteURL string) (name, email, link string) {
	sum := md5.Sum([]byte(siteURL)) //nolint:gosec // a cookie name, as WordPress's
	h := hex.EncodeToString(sum[:])
	return "comment_author_" + h, "comment_author_email_" + h, "comment_author_url_" + h
}

// commenter is the anonymous reader's name, e-mail and URL from their
// cookies (all "" without them, and for a signed-in reader).
type commenter struct{ name, email, url string }

func (s *Handler) currentCommenter(req *siteReq) commenter {
	if req.caller.LoggedIn() {
		return commenter{}
	}
	n, e, u := commenterCookieNames(s.Site().URL)
	read := func(name string) string {
		c, err := req.r.Cookie(name)
		if err != nil || len(c.Value) > 3*maxCookieValue {
			return ""
		}
		v, err := url.QueryUnescape(c.Value)
		if err != nil || len(v) > maxCookieValue {
			return ""
		}
		return strings.TrimSpace(v)
	}
	out := commenter{name: read(n), email: read(e), url: read(u)}
	if out.email != "" && !store.ValidEmail(out.email) {
		out.email = ""
	}
	return out
}

// setCommenterCookies is wp_set_comment_cookies after an anonymous comment
// m: the three cookies when the reader consented, else their removal.
func (s *Handler) setCommenterCookies(req *siteReq, m *store.Comment, consent bool) {
	if req.caller.LoggedIn() {
		return
	}
	secure := strings.HasPrefix(s.Site().URL, "https://")
	n, e, u := commenterCookieNames(s.Site().URL)
	values := [3]string{m.AuthorName, m.AuthorEmail, m.AuthorURL}
	for i, name := range [3]string{n, e, u} {
		c := &http.Cookie{Name: name, Value: url.QueryEscape(values[i]), Path: "/", Secure: secure, SameSite: http.SameSiteLaxMode,
			Expires: s.now().Add(commenterCookieLife)}
		if !consent {
			c.Value, c.Expires = "+", s.now().Add(-commenterCookieLife)
		}
		http.SetCookie(req.w, c)
	}
}
