package gateway

import (
	"html"
	"net/http"
	"strings"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/metrics"
	"siteplane.dev/services/pkg/contract"
)

// PostPassCookie holds the password a visitor typed into a protected
// post's form (WordPress's wp-postpass_ cookie); it and the commenter
// cookies are the only cookies the website's renderer receives.
const PostPassCookie = "cms-postpass"

// CommenterCookiePrefix starts the names of the cookies an anonymous
// commenter keeps their name, e-mail and URL in (WordPress's
// comment_author_{hash}, comment_author_email_{hash},
// comment_author_url_{hash}); the website fills the comment form from them.
const CommenterCookiePrefix = "comment_author_"

// siteCookies is the Cookie header a site request forwards: the post
// password and at most three commenter cookies, nothing else (not the
// sign-in session).
func siteCookies(r *http.Request) string {
	var out []string
	commenter := 0
	for _, c := range r.Cookies() {
		switch {
		case c.Name == PostPassCookie:
		case strings.HasPrefix(c.Name, CommenterCookiePrefix) && commenter < 3:
			commenter++
		default:
			continue
		}
		out = append(out, (&http.Cookie{Name: c.Name, Value: c.Value}).String())
	}
	return strings.Join(out, "; ")
}

// serveSite forwards a website page to the service that renders it (the
// content service, docs/website.md): the path under contract.SitePath, the
// caller's signed identity when the request carries valid credentials, and
// no other credentials. Bad credentials make an anonymous visit, as a
// WordPress page ignores a stale login rather than failing.
func (g *Gateway) serveSite(w http.ResponseWriter, r *http.Request, b *routing.Backend) {
	metrics.SetRoute(r.Context(), "site:"+b.Name)
	set := http.Header{}
	// the visitor's address, for the comment form (a value the visitor sent
	// is replaced)
	set.Set(contract.ClientAddressHeader, g.clientAddress(r))
	if caller := g.siteVisitor(r); caller.LoggedIn() {
		set.Set(contract.IdentityHeader, g.sign(caller, b.Name))
	}
	if c := siteCookies(r); c != "" {
		set.Set("Cookie", c)
	}
	ours := w.Header()
	g.cfg.Proxy.Forward(w, r, routing.Target{
		Backend: b, Path: contract.SitePath + r.URL.Path, RawQuery: r.URL.RawQuery, SetHeaders: set,
		DropHeaders: []string{"Authorization", "Cookie"},
		ModifyResponse: func(res *http.Response) error {
			// the service's values win (X-Request-ID once, not twice)
			for k := range res.Header {
				ours.Del(k)
			}
			return nil
		},
		Errors: func(w http.ResponseWriter, r *http.Request, status int, _, message string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(status)
			if r.Method != http.MethodHead {
				_, _ = w.Write([]byte("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
					html.EscapeString(http.StatusText(status)) + "</title></head><body><p>" + html.EscapeString(message) + "</p></body></html>"))
			}
		},
	})
}

// siteVisitor is who views a page: the user of valid Basic application-
// password credentials, else of a live sign-in session cookie. Unlike the
// REST API, a page view needs no nonce: it only reads, as WordPress's
// front end shows a signed-in visitor their drafts and private posts.
func (g *Gateway) siteVisitor(r *http.Request) identity.Identity {
	if login, password, ok := accounts.BasicCredentials(r); ok {
		u, _, err := g.checkPassword(r.Context(), login, password, g.clientAddress(r))
		if err != nil {
			return identity.Identity{}
		}
		return u.Identity()
	}
	sess, _, ok, err := g.sessionOf(r)
	if !ok || err != nil {
		return identity.Identity{}
	}
	return sess.User.Identity()
}
