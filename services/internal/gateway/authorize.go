package gateway

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/platform/logging"

	"siteplane.dev/services/internal/platform/rest"
)

// /cms-admin/authorize-application.php: an application asks a person for an
// application password, as WordPress's authorize-application.php does. The
// application opens the page with app_name, app_id (a UUID), success_url and
// reject_url; the person signs in if needed, then approves or rejects.
// Approval creates the password and sends the browser to success_url with
// site_url, user_login and password added to its query (or shows the
// password when there is no success_url); rejection sends it to reject_url
// (else success_url) with success=false. Both URLs must be https, or http
// on a loopback host (a native app listening on 127.0.0.1).

const (
	msgAppIDNotUUID   = "The application ID must be a UUID."
	msgSuccessURLBad  = "The success URL must be an https URL, or http on a loopback address (localhost, 127.0.0.1, ::1)."
	msgRejectURLBad   = "The reject URL must be an https URL, or http on a loopback address (localhost, 127.0.0.1, ::1)."
	msgAppNameMissing = "An application name is required to create an application password."
)

// appRequest is the validated request of an application.
type appRequest struct {
	Name, AppID, SuccessURL, RejectURL string
	success, reject                    *url.URL
}

// readAppRequest reads and validates the parameters (query on GET, form on
// POST); problems are the messages to show.
func readAppRequest(get func(string) string) (*appRequest, []string) {
	a := &appRequest{Name: strings.TrimSpace(get("app_name")), AppID: strings.TrimSpace(get("app_id")),
		SuccessURL: strings.TrimSpace(get("success_url")), RejectURL: strings.TrimSpace(get("reject_url"))}
	var problems []string
	if a.AppID != "" && !rest.IsUUID(a.AppID) {
		problems = append(problems, msgAppIDNotUUID)
	}
	var ok bool
	if a.SuccessURL != "" {
		if a.success, ok = redirectURL(a.SuccessURL); !ok {
			problems = append(problems, msgSuccessURLBad)
		}
	}
	if a.RejectURL != "" {
		if a.reject, ok = redirectURL(a.RejectURL); !ok {
			problems = append(problems, msgRejectURLBad)
		}
	}
	return a, problems
}

// redirectURL accepts https URLs, and http URLs whose host is loopback.
func redirectURL(raw string) (*url.URL, bool) {
	u, err := parseAbsolute(raw)
	if err != nil || strings.ContainsAny(u.Host, " ;,'\"") {
		return nil, false
	}
	if u.Scheme == "https" {
		return u, true
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return u, true
	}
	ip := net.ParseIP(host)
	return u, ip != nil && ip.IsLoopback()
}

// origins are the CSP form-action sources the page's form may end at.
func (a *appRequest) origins() []string {
	var out []string
	for _, u := range []*url.URL{a.success, a.reject} {
		if o := ""; u != nil {
			if o = u.Scheme + "://" + u.Host; !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	return out
}

// withQuery adds parameters to a URL's query, keeping the rest.
func withQuery(u *url.URL, kv ...string) string {
	c := *u
	q := c.Query()
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	c.RawQuery = q.Encode()
	return c.String()
}

func (g *Gateway) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	sess, _, hasCookie, err := g.sessionOf(r)
	if err != nil && !errors.Is(err, accounts.ErrNotFound) {
		logging.FromContext(r.Context(), g.cfg.Logger).Error("session lookup failed", "error", err.Error())
		g.renderMessage(w, r, http.StatusServiceUnavailable, "Authorize application", msgUnavailable)
		return
	}
	if !hasCookie || err != nil {
		// Sign in first, then come back with the same parameters. A POST
		// without a session has nothing to come back to: start again.
		back := authorizePath
		if r.Method != http.MethodPost && r.URL.RawQuery != "" {
			back += "?" + r.URL.RawQuery
		}
		redirect(w, loginURL(back))
		return
	}
	get := r.URL.Query().Get
	if r.Method == http.MethodPost {
		get = r.PostFormValue
	}
	app, problems := readAppRequest(get)
	d := pageData{Title: "Authorize application", User: &sess.User, App: app, Action: authorizePath,
		CSRF: g.nonces.create(g.cfg.Now(), actionAuthorize, sess.User.ID, sess.TokenHash)}
	if len(problems) > 0 {
		d.Problems = problems
		g.render(w, r, http.StatusBadRequest, "authorize", d)
		return
	}
	if r.Method != http.MethodPost {
		g.render(w, r, http.StatusOK, "authorize", d, app.origins()...)
		return
	}
	if !g.nonces.verify(g.cfg.Now(), r.PostFormValue("_csrf"), actionAuthorize, sess.User.ID, sess.TokenHash) {
		d.Error = msgFormExpired
		g.render(w, r, http.StatusBadRequest, "authorize", d, app.origins()...)
		return
	}
	if r.PostFormValue("reject") != "" {
		target := app.reject
		if target == nil {
			target = app.success
		}
		if target == nil {
			g.renderStatus(w, r, sess, "", "No application password was created.")
			return
		}
		redirect(w, withQuery(target, "success", "false"))
		return
	}
	if r.PostFormValue("approve") == "" {
		d.Error = "Choose Approve or Reject."
		g.render(w, r, http.StatusBadRequest, "authorize", d, app.origins()...)
		return
	}
	plain, _, err := g.cfg.Store.CreatePassword(r.Context(), sess.User.ID, app.Name, app.AppID)
	if errors.Is(err, accounts.ErrInvalidName) {
		d.Error = msgAppNameMissing
		g.render(w, r, http.StatusBadRequest, "authorize", d, app.origins()...)
		return
	}
	if err != nil {
		logging.FromContext(r.Context(), g.cfg.Logger).Error("create application password", "error", err.Error())
		g.renderMessage(w, r, http.StatusServiceUnavailable, "Authorize application", msgUnavailable)
		return
	}
	logging.FromContext(r.Context(), g.cfg.Logger).Info("application authorized", "user_id", sess.User.ID, "app_id", app.AppID)
	if app.success != nil {
		redirect(w, withQuery(app.success, "site_url", g.cfg.Site.URL, "user_login", sess.User.Login, "password", plain))
		return
	}
	d.Password = accounts.Chunk(plain)
	g.render(w, r, http.StatusOK, "authorized", d)
}
