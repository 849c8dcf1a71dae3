package gateway

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/platform/logging"
)

// The sign-in page, /cms-login.php, with WordPress's field names (log, pwd,
// rememberme, redirect_to). The form is protected against login CSRF by a
// short-lived pre-login cookie whose HMAC is the form's token. Failed
// attempts are throttled per typed login and per client address
// (accounts.Throttle); an unknown login and a wrong password get the same
// answer after the same work (one argon2id verification).

const preLoginCookie = "siteplane_login"

const (
	msgBadLogin     = "The username or password you entered is incorrect."
	msgEmptyLogin   = "Enter your username (or email address) and your password."
	msgFormExpired  = "This form has expired or your browser does not accept cookies. Please try again."
	msgThrottled    = "Too many failed sign-in attempts. Please try again in %d minutes."
	msgLoggedOut    = "You are now signed out."
	msgUnavailable  = "Signing in is temporarily unavailable. Please try again later."
	loginFormAction = loginPath
)

// serveLogin handles GET/POST /cms-login.php and its logout action.
func (g *Gateway) serveLogin(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("action") == "logout" {
		g.serveLogout(w, r)
		return
	}
	sess, _, hasCookie, err := g.sessionOf(r)
	signedIn := hasCookie && err == nil
	if r.Method != http.MethodPost {
		if signedIn {
			g.renderStatus(w, r, sess, g.sameSiteTarget(q.Get("redirect_to")), "")
			return
		}
		notice := ""
		if q.Get("loggedout") == "true" {
			notice = msgLoggedOut
		}
		g.renderLogin(w, r, http.StatusOK, pageData{Notice: notice, RedirectTo: g.sameSiteTarget(q.Get("redirect_to"))})
		return
	}
	login := strings.TrimSpace(r.PostFormValue("log"))
	pw := r.PostFormValue("pwd")
	d := pageData{Login: login, RedirectTo: g.sameSiteTarget(r.PostFormValue("redirect_to")), Remember: r.PostFormValue("rememberme") != ""}
	if !g.validLoginToken(r, r.PostFormValue("_csrf")) {
		d.Error = msgFormExpired
		g.renderLogin(w, r, http.StatusBadRequest, d)
		return
	}
	if login == "" || pw == "" {
		d.Error = msgEmptyLogin
		g.renderLogin(w, r, http.StatusBadRequest, d)
		return
	}
	ctx, addr := r.Context(), g.clientAddress(r)
	log := logging.FromContext(ctx, g.cfg.Logger)
	wait, err := g.cfg.Store.Locked(ctx, g.cfg.Throttle, login, addr)
	if err != nil {
		log.Error("login throttle lookup failed", "error", err.Error())
		d.Error = msgUnavailable
		g.renderLogin(w, r, http.StatusServiceUnavailable, d)
		return
	}
	if wait > 0 {
		d.Error = fmt.Sprintf(msgThrottled, int(math.Ceil(wait.Minutes())))
		w.Header().Set("Retry-After", fmt.Sprint(int(math.Ceil(wait.Seconds()))))
		g.renderLogin(w, r, http.StatusTooManyRequests, d)
		return
	}
	u, err := g.cfg.Store.CheckLoginPassword(ctx, login, pw)
	if errors.Is(err, accounts.ErrBadLogin) {
		if rerr := g.cfg.Store.RecordFailure(ctx, g.cfg.Throttle, login, addr); rerr != nil {
			log.Error("record login failure", "error", rerr.Error())
		}
		d.Error = msgBadLogin
		g.renderLogin(w, r, http.StatusUnauthorized, d)
		return
	}
	if err != nil {
		log.Error("login check failed", "error", err.Error())
		d.Error = msgUnavailable
		g.renderLogin(w, r, http.StatusServiceUnavailable, d)
		return
	}
	_ = g.cfg.Store.ClearFailures(ctx, login)
	ttl, maxAge := sessionTTL, 0
	if d.Remember {
		ttl, maxAge = rememberTTL, int(rememberTTL.Seconds())
	}
	token, _, err := g.cfg.Store.CreateSession(ctx, u.ID, ttl, addr)
	if err != nil {
		log.Error("create session failed", "error", err.Error())
		d.Error = msgUnavailable
		g.renderLogin(w, r, http.StatusServiceUnavailable, d)
		return
	}
	log.Info("signed in", "user_id", u.ID)
	g.setCookie(w, "siteplane_session", token, maxAge)
	g.setCookie(w, preLoginCookie, "", -1)
	target := d.RedirectTo
	if target == "" {
		target = loginPath
	}
	redirect(w, target)
}

// renderLogin shows the form with a fresh pre-login cookie and token.
func (g *Gateway) renderLogin(w http.ResponseWriter, r *http.Request, status int, d pageData) {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	value := base64.RawURLEncoding.EncodeToString(b)
	g.setCookie(w, preLoginCookie, value, 3600)
	d.Title = "Sign in"
	d.CSRF = g.nonces.create(g.cfg.Now(), actionLogin, 0, []byte(value))
	d.Action = loginFormAction
	g.render(w, r, status, "login", d)
}

func (g *Gateway) validLoginToken(r *http.Request, token string) bool {
	c, err := r.Cookie(g.cookieName(preLoginCookie))
	return err == nil && g.nonces.verify(g.cfg.Now(), token, actionLogin, 0, []byte(c.Value))
}

// renderStatus is the page of a signed-in person: who they are, the REST
// nonce for browser apps, and the sign-out button.
func (g *Gateway) renderStatus(w http.ResponseWriter, r *http.Request, sess accounts.Session, next, notice string) {
	now := g.cfg.Now()
	g.render(w, r, http.StatusOK, "status", pageData{Title: "Signed in", User: &sess.User, Notice: notice, RedirectTo: next,
		CSRF:      g.nonces.create(now, actionLogout, sess.User.ID, sess.TokenHash),
		RESTNonce: g.nonces.create(now, actionREST, sess.User.ID, sess.TokenHash),
		Action:    loginPath + "?action=logout"})
}

// serveLogout: GET asks for confirmation (a link must not sign anyone out),
// POST with the session's form token ends the session.
func (g *Gateway) serveLogout(w http.ResponseWriter, r *http.Request) {
	sess, token, hasCookie, err := g.sessionOf(r)
	if !hasCookie || err != nil {
		g.setCookie(w, "siteplane_session", "", -1)
		redirect(w, loginPath+"?loggedout=true")
		return
	}
	if r.Method != http.MethodPost {
		g.render(w, r, http.StatusOK, "logout", pageData{Title: "Sign out", User: &sess.User,
			CSRF: g.nonces.create(g.cfg.Now(), actionLogout, sess.User.ID, sess.TokenHash), Action: loginPath + "?action=logout"})
		return
	}
	if !g.nonces.verify(g.cfg.Now(), r.PostFormValue("_csrf"), actionLogout, sess.User.ID, sess.TokenHash) {
		g.renderMessage(w, r, http.StatusBadRequest, "Sign out", msgFormExpired)
		return
	}
	if err := g.cfg.Store.DeleteSession(r.Context(), token); err != nil {
		logging.FromContext(r.Context(), g.cfg.Logger).Error("logout failed", "error", err.Error())
		g.renderMessage(w, r, http.StatusServiceUnavailable, "Sign out", msgUnavailable)
		return
	}
	g.setCookie(w, "siteplane_session", "", -1)
	redirect(w, loginPath+"?loggedout=true")
}

// loginURL is the sign-in page that comes back to next afterwards.
func loginURL(next string) string {
	return loginPath + "?redirect_to=" + url.QueryEscape(next)
}

// parseAbsolute parses an absolute http(s) URL with a host.
func parseAbsolute(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, errors.New("not an absolute http(s) URL")
	}
	return u, nil
}
