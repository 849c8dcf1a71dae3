package gateway

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"strings"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/metrics"
)

// The gateway's few HTML pages: sign in/out (login.go), the
// application-password authorisation (authorize.go) and the REST nonce for
// browser apps. They are rendered from html/template files embedded under
// pages/, carry no script at all, and are sent with a strict
// Content-Security-Policy (only the stylesheet below may load; forms post
// to the site itself, plus, on the authorisation page, the application's
// validated success/reject origins, which Chromium checks on the redirect).

// Page paths under the site URL.
const (
	loginPath     = "/cms-login.php"
	authorizePath = "/cms-admin/authorize-application.php"
	ajaxPath      = "/cms-admin/admin-ajax.php"
	stylePath     = "/cms-admin/siteplane.css"
)

//go:embed pages/*.html pages/*.css
var pageFS embed.FS

// maxPageFormBytes bounds the body of the pages' forms.
const maxPageFormBytes = 64 << 10

// pageSet holds one template per page, each with the shared layout.
type pageSet struct {
	pages map[string]*template.Template
	css   []byte
}

func loadPages() *pageSet {
	ps := &pageSet{pages: map[string]*template.Template{}}
	for _, name := range []string{"login", "status", "logout", "authorize", "authorized", "message"} {
		ps.pages[name] = template.Must(template.New("layout.html").ParseFS(pageFS, "pages/layout.html", "pages/"+name+".html"))
	}
	css, err := pageFS.ReadFile("pages/siteplane.css")
	if err != nil {
		panic("gateway: embedded stylesheet missing: " + err.Error())
	}
	ps.css = css
	return ps
}

// pageData is what every page template receives.
type pageData struct {
	Title     string
	SiteTitle string
	SiteURL   string
	Style     string
	// Error is shown in an alert region; Notice in a status region.
	Error  string
	Notice string
	User   *accounts.User
	// CSRF is the form token of the page's form; RESTNonce the wp_rest
	// nonce of a signed-in user (also in a <meta> for browser apps).
	CSRF      string
	RESTNonce string
	// Login form.
	Login, RedirectTo string
	Remember          bool
	// Authorisation page.
	App      *appRequest
	Problems []string
	Password string
	Action   string
}

func isPagePath(p string) bool {
	switch p {
	case loginPath, authorizePath, ajaxPath, stylePath:
		return true
	}
	return false
}

// servePage dispatches the pages.
func (g *Gateway) servePage(w http.ResponseWriter, r *http.Request) {
	metrics.SetRoute(r.Context(), "page:"+r.URL.Path)
	// The forms are small: a larger body is refused while parsing.
	r.Body = http.MaxBytesReader(w, r.Body, maxPageFormBytes)
	switch {
	case r.URL.Path == stylePath && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		_, _ = w.Write(g.pages.css)
	case r.URL.Path == ajaxPath:
		g.serveAjax(w, r)
	case r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodPost:
		w.Header().Set("Allow", "GET, HEAD, POST")
		g.renderMessage(w, r, http.StatusMethodNotAllowed, "Method not allowed", "This page answers GET and POST only.")
	case r.URL.Path == loginPath:
		g.serveLogin(w, r)
	case r.URL.Path == authorizePath:
		g.serveAuthorize(w, r)
	}
}

// pageHeaders are sent with every page and redirect of the sign-in flow.
func pageHeaders(h http.Header, formTargets ...string) {
	formAction := "'self'"
	for _, t := range formTargets {
		formAction += " " + t
	}
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action "+formAction+
		"; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
}

// render writes a page; formTargets extend the CSP's form-action.
func (g *Gateway) render(w http.ResponseWriter, r *http.Request, status int, page string, d pageData, formTargets ...string) {
	d.SiteTitle, d.SiteURL, d.Style = g.cfg.Site.Title, g.cfg.Site.URL, stylePath
	if d.SiteTitle == "" {
		d.SiteTitle = "Siteplane"
	}
	var buf bytes.Buffer
	if err := g.pages.pages[page].Execute(&buf, d); err != nil {
		logging.FromContext(r.Context(), g.cfg.Logger).Error("render page", "page", page, "error", err.Error())
		http.Error(w, "The page could not be rendered.", http.StatusInternalServerError)
		return
	}
	pageHeaders(w.Header(), formTargets...)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(buf.Bytes())
	}
}

func (g *Gateway) renderMessage(w http.ResponseWriter, r *http.Request, status int, title, msg string) {
	g.render(w, r, status, "message", pageData{Title: title, Error: msg})
}

// redirect answers 302 with the page headers (no-store, no referrer).
func redirect(w http.ResponseWriter, location string) {
	pageHeaders(w.Header())
	w.Header().Set("Location", location)
	w.WriteHeader(http.StatusFound)
}

// serveAjax answers admin-ajax.php?action=rest-nonce as WordPress does: the
// wp_rest nonce of the signed-in session as plain text, or "0" with 400
// when nobody is signed in (or the action is unknown).
func (g *Gateway) serveAjax(w http.ResponseWriter, r *http.Request) {
	pageHeaders(w.Header())
	w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
	action := r.URL.Query().Get("action")
	if action == "" && r.Method == http.MethodPost {
		action = r.PostFormValue("action")
	}
	if action == "rest-nonce" {
		sess, _, ok, err := g.sessionOf(r)
		if ok && err == nil {
			_, _ = w.Write([]byte(g.nonces.create(g.cfg.Now(), actionREST, sess.User.ID, sess.TokenHash)))
			return
		}
	}
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write([]byte("0"))
}

// sameSiteTarget returns the target after normalising it as a browser
// would (WHATWG URL parsing: C0 controls and spaces trimmed, every tab, CR
// and LF removed, backslashes read as slashes) when it is then a safe place
// to send the person after signing in: a path on this site, or an absolute
// URL of this site's origin. Anything else ("//host", "/<TAB>/host",
// "/\host", other hosts, javascript:) is "", and the caller falls back to
// its own page, as WordPress's wp_validate_redirect falls back to the admin.
func (g *Gateway) sameSiteTarget(raw string) string {
	target := browserURL(raw)
	if target == "" || strings.IndexFunc(target, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return ""
	}
	if strings.HasPrefix(target, "/") && !strings.HasPrefix(target, "//") {
		return target
	}
	u, err := parseAbsolute(target)
	if err != nil || g.site == nil || !strings.EqualFold(u.Scheme, g.site.Scheme) || !strings.EqualFold(u.Host, g.site.Host) {
		return ""
	}
	return target
}

// browserURL is what a browser's URL parser reads in a Location value
// before resolving it: leading and trailing C0 controls and spaces go, tab,
// CR and LF anywhere are skipped, and "\" is "/" in http(s) URLs.
func browserURL(raw string) string {
	raw = strings.TrimFunc(raw, func(r rune) bool { return r <= 0x20 })
	raw = strings.Map(func(r rune) rune {
		switch r {
		case '\t', '\n', '\r':
			return -1
		case '\\':
			return '/'
		}
		return r
	}, raw)
	return raw
}
