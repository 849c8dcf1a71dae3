package gateway

import (
	"bytes"
	"embed"
	"encoding/json"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/metrics"
)

// The admin at /cms-admin/: WordPress's screen URLs (edit.php, post.php,
// post-new.php, upload.php) answer one HTML shell that loads the admin
// bundle — the block editor packages and Siteplane's host script, built by
// hack/admin.sh from admin/ and embedded from adminui/ — with the page's
// bootstrap data in a JSON element (adminboot.go). The pages need a
// signed-in session (anonymous: to the sign-in page and back); everything
// the admin reads or writes goes through the REST API as that person.

const (
	adminPrefix     = "/cms-admin/"
	adminAssetsPath = adminPrefix + "assets/"
	// adminNotBuilt is what the admin says when the gateway was built
	// without the bundle (adminui/ holds only its placeholder).
	adminNotBuilt = "The admin is not built into this gateway: run `make admin` (hack/admin.sh), then rebuild (`make build`)."
)

//go:embed all:adminui
var adminFS embed.FS

//go:embed pages/admin.html
var adminPageHTML string

var adminPage = template.Must(template.New("admin").Parse(adminPageHTML))

// hashedAsset is the name shape build.mjs gives the bundle's files; only
// such names are served, and they never change content.
var hashedAsset = regexp.MustCompile(`^[a-z]+-[A-Z0-9]{8}\.(js|css)$`)

// adminBundle is the bundle's manifest: the hashed name of each entry.
// Empty names: no bundle.
type adminBundle struct {
	// files holds the bundle (adminui/ of the embedded files).
	files  fs.FS
	JS     string `json:"admin.js"`
	CSS    string `json:"admin.css"`
	Canvas string `json:"canvas.css"`
	// SiteJS and SiteCSS are the site editor's own bundle (its screen
	// only: the post editor does not carry @wordpress/edit-site).
	SiteJS  string `json:"siteeditor.js"`
	SiteCSS string `json:"siteeditor.css"`
	// ScriptHashes are the CSP sources ('sha256-...') of the canvas
	// iframe's two fixed inline scripts (block-editor's Iframe component).
	ScriptHashes []string `json:"scriptHashes"`
}

// embeddedAdmin is the bundle built into this binary.
func embeddedAdmin() adminBundle {
	sub, err := fs.Sub(adminFS, "adminui")
	if err != nil {
		return adminBundle{}
	}
	return loadAdminBundle(sub)
}

func loadAdminBundle(files fs.FS) adminBundle {
	b := adminBundle{files: files}
	raw, err := fs.ReadFile(files, "manifest.json")
	if err != nil || json.Unmarshal(raw, &b) != nil {
		return adminBundle{files: files}
	}
	return b
}

func (b adminBundle) built() bool { return b.JS != "" && b.CSS != "" && b.Canvas != "" }

// adminScreens are the admin's page names under /cms-admin/.
var adminScreens = map[string]bool{"": true, "index.php": true, "edit.php": true, "post.php": true, "post-new.php": true, "upload.php": true,
	siteEditorScreen: true}

func isAdminPath(p string) bool {
	if strings.HasPrefix(p, adminAssetsPath) {
		return true
	}
	name, ok := strings.CutPrefix(p, adminPrefix)
	return ok && adminScreens[name] || p == "/cms-admin"
}

// adminHeaders are the admin pages' headers: scripts from the site itself
// only (plus, by hash, the editor canvas's two fixed inline scripts), no
// framing, no referrer to other sites. Styles may be inline (the
// components library writes <style> elements); the editor canvas is a
// blob: iframe whose document sets <base> to the site; media previews are
// blob: URLs; images in posts may come from anywhere, as in WordPress.
func (b adminBundle) headers(h http.Header) {
	scripts := strings.Join(append([]string{"'self'"}, b.ScriptHashes...), " ")
	h.Set("Content-Security-Policy", "default-src 'self'; script-src "+scripts+"; style-src 'self' 'unsafe-inline'; "+
		"img-src 'self' data: blob: https:; media-src 'self' blob:; font-src 'self' data:; connect-src 'self'; "+
		"frame-src 'self' blob:; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("Cache-Control", "no-store")
}

// serveAdmin dispatches /cms-admin/ pages and assets.
func (g *Gateway) serveAdmin(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, adminAssetsPath) {
		metrics.SetRoute(r.Context(), "admin:asset")
		g.admin.serveAsset(w, r)
		return
	}
	metrics.SetRoute(r.Context(), "admin:page")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		g.renderMessage(w, r, http.StatusMethodNotAllowed, "Method not allowed", "This page answers GET only.")
		return
	}
	sess, _, ok, err := g.sessionOf(r)
	if !ok || err != nil {
		// auth_redirect: to the sign-in page, which brings the person back.
		redirect(w, loginPath+"?redirect_to="+url.QueryEscape(r.URL.RequestURI()))
		return
	}
	name := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/cms-admin"), "/")
	if name == siteEditorScreen {
		g.serveSiteEditor(w, r, sess)
		return
	}
	if !sess.User.Role.Can("edit_posts") {
		g.renderMessage(w, r, http.StatusForbidden, "Not allowed", "Sorry, you are not allowed to access this page.")
		return
	}
	if name == "" || name == "index.php" {
		redirect(w, adminPrefix+"edit.php")
		return
	}
	if !g.admin.built() {
		g.renderMessage(w, r, http.StatusServiceUnavailable, "Admin not built", adminNotBuilt)
		return
	}
	g.serveAdminScreen(w, r, sess, name)
}

// serveAdminScreen builds the bootstrap data of one screen and renders the shell.
func (g *Gateway) serveAdminScreen(w http.ResponseWriter, r *http.Request, sess accounts.Session, name string) {
	boot, status, msg := g.adminBoot(r, sess, name)
	g.renderAdminPage(w, r, boot, status, msg, adminShell{JS: g.admin.JS, CSS: g.admin.CSS, RootID: "editor", RootClass: "block-editor__container"})
}

// adminShell names what differs between the screens' pages: the bundle
// and the element the screen renders into.
type adminShell struct{ JS, CSS, RootID, RootClass string }

// renderAdminPage answers the shell with the bootstrap data, or the
// status and message for the person (302 with the target in msg).
func (g *Gateway) renderAdminPage(w http.ResponseWriter, r *http.Request, boot adminBootData, status int, msg string, shell adminShell) {
	if status == http.StatusFound {
		redirect(w, msg)
		return
	}
	if status != http.StatusOK {
		g.renderMessage(w, r, status, "Cannot open this screen", msg)
		return
	}
	data, err := json.Marshal(boot)
	if err != nil {
		g.renderMessage(w, r, http.StatusInternalServerError, "Error", "The page could not be rendered.")
		return
	}
	var buf bytes.Buffer
	err = adminPage.Execute(&buf, map[string]any{
		"Title": boot.Title + " ‹ " + boot.SiteTitle, "Style": adminAssetsPath + shell.CSS,
		"Script": adminAssetsPath + shell.JS, "Boot": template.JS(data), "RootID": shell.RootID, "RootClass": shell.RootClass, //nolint:gosec // json.Marshal escapes <, > and &: the JSON cannot end the element
	})
	if err != nil {
		logging.FromContext(r.Context(), g.cfg.Logger).Error("render admin page", "error", err.Error())
		http.Error(w, "The page could not be rendered.", http.StatusInternalServerError)
		return
	}
	g.admin.headers(w.Header())
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(buf.Bytes())
	}
}

// serveAdminAsset answers a hashed bundle file: immutable, precompressed
// for clients that accept gzip.
func (b adminBundle) serveAsset(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, adminAssetsPath)
	if r.Method != http.MethodGet && r.Method != http.MethodHead || !hashedAsset.MatchString(name) {
		http.NotFound(w, r)
		return
	}
	file := name
	gz := acceptsGzip(r)
	if gz {
		file += ".gz"
	}
	body, err := fs.ReadFile(b.files, file)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}[path.Ext(name)])
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Vary", "Accept-Encoding")
	if gz {
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// acceptsGzip reads Accept-Encoding: gzip listed without q=0.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
