package gateway

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/rest"
)

// Browser sessions: the login page sets a session cookie (HttpOnly,
// SameSite=Lax, Secure and "__Host-" prefixed when the site URL is https)
// whose token names a row of the sessions table. The REST API honours the
// cookie only together with a nonce, exactly as WordPress does (reference
// §13.2): cookie + valid X-WP-Nonce/_wpnonce acts as the user, cookie + bad
// nonce is 403 rest_cookie_invalid_nonce, cookie without nonce is anonymous.

const (
	// sessionTTL is a session's life; "Remember me" gives rememberTTL and a
	// persistent cookie (WordPress: 2 and 14 days).
	sessionTTL  = 48 * time.Hour
	rememberTTL = 14 * 24 * time.Hour
	// maxNonceFormBytes bounds how much of a form body is read to find a
	// _wpnonce field.
	maxNonceFormBytes = 1 << 20
)

// secureSite reports whether the site is served over https (cookies are
// then Secure and use the __Host- prefix).
func (g *Gateway) secureSite() bool { return g.site != nil && g.site.Scheme == "https" }

func (g *Gateway) cookieName(base string) string {
	if g.secureSite() {
		return "__Host-" + base
	}
	return base
}

func (g *Gateway) sessionCookieName() string { return g.cookieName("siteplane_session") }

// setCookie writes one of the gateway's cookies; maxAge 0 makes a session
// cookie, < 0 deletes it.
func (g *Gateway) setCookie(w http.ResponseWriter, base, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: g.cookieName(base), Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, Secure: g.secureSite(), SameSite: http.SameSiteLaxMode})
}

// sessionOf returns the live session named by the request's cookie. ok is
// false when there is no cookie; err is accounts.ErrNotFound for a cookie
// that names no live session.
func (g *Gateway) sessionOf(r *http.Request) (sess accounts.Session, token string, ok bool, err error) {
	c, cerr := r.Cookie(g.sessionCookieName())
	if cerr != nil || c.Value == "" {
		return accounts.Session{}, "", false, nil //nolint:nilerr // no cookie is not an error: the caller is anonymous
	}
	sess, err = g.cfg.Store.SessionByToken(r.Context(), c.Value)
	return sess, c.Value, true, err
}

// invalidNonce is WordPress's answer to a cookie with a bad nonce, sent
// with no-cache headers as WordPress sends them.
func invalidNonce(w http.ResponseWriter) *rest.Error {
	w.Header().Set("Expires", "Wed, 11 Jan 1984 05:00:00 GMT")
	w.Header().Set("Cache-Control", "no-cache, must-revalidate, max-age=0, no-store, private")
	return rest.NewError("rest_cookie_invalid_nonce", "Cookie check failed", http.StatusForbidden)
}

// cookieAuth decides a REST request that carries no Basic credentials. On
// success the response gets a fresh X-WP-Nonce, as WordPress sends.
func (g *Gateway) cookieAuth(w http.ResponseWriter, r *http.Request) (identity.Identity, *rest.Error) {
	if c, err := r.Cookie(g.sessionCookieName()); err != nil || c.Value == "" {
		return identity.Identity{}, nil //nolint:nilerr // no cookie: anonymous, not an error
	}
	nonce := requestNonce(r)
	if nonce == "" {
		// A cookie alone never authenticates (CSRF): anonymous, silently,
		// and without a session lookup.
		return identity.Identity{}, nil
	}
	sess, _, _, err := g.sessionOf(r)
	switch {
	case errors.Is(err, accounts.ErrNotFound):
		// Expired or logged-out session: its nonces are void.
		return identity.Identity{}, invalidNonce(w)
	case err != nil:
		logging.FromContext(r.Context(), g.cfg.Logger).Error("session lookup failed", "error", err.Error())
		return identity.Identity{}, rest.NewError("rest_authentication_unavailable", "Authentication is temporarily unavailable.", http.StatusServiceUnavailable)
	}
	now := g.cfg.Now()
	if !g.nonces.verify(now, nonce, actionREST, sess.User.ID, sess.TokenHash) {
		return identity.Identity{}, invalidNonce(w)
	}
	w.Header().Set("X-WP-Nonce", g.nonces.create(now, actionREST, sess.User.ID, sess.TokenHash))
	return sess.User.Identity(), nil
}

// requestNonce finds the nonce of a request: the X-WP-Nonce header, else
// _wpnonce in the query, else _wpnonce in a url-encoded form body (the body
// is put back for the route).
func requestNonce(r *http.Request) string {
	if n := r.Header.Get("X-WP-Nonce"); n != "" {
		return n
	}
	// A malformed pair must not hide a well-formed _wpnonce.
	if q, _ := url.ParseQuery(r.URL.RawQuery); q.Get("_wpnonce") != "" {
		return q.Get("_wpnonce")
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if r.Body == nil || r.Body == http.NoBody || mt != "application/x-www-form-urlencoded" {
		return ""
	}
	buf, err := io.ReadAll(io.LimitReader(r.Body, maxNonceFormBytes))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(buf), r.Body), r.Body}
	if err != nil {
		return ""
	}
	v, _ := url.ParseQuery(string(buf))
	return strings.TrimSpace(v.Get("_wpnonce"))
}
