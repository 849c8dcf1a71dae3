package content

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/theme/themetest"
	"siteplane.dev/services/pkg/contract"
)

// useTheme selects the site theme stylesheet from themesDir as the
// service does at start-up, and returns what it logged.
func (e *testEnv) useTheme(themesDir, stylesheet string) string {
	var logs bytes.Buffer
	e.svc.site.Theme = stylesheet
	e.svc.SelectTheme(themesDir, slog.New(slog.NewTextHandler(&logs, nil)))
	return logs.String()
}

// With Twenty Twenty-Three chosen, the REST themes, templates and global
// styles routes answer for it, and the website renders its templates with
// its parts, patterns (PHP rendered), fonts and files.
func TestSiteTwentyTwentyThree(t *testing.T) {
	dir := themetest.TT3Dir(t)
	e := newEnv(t)
	if logs := e.useTheme(filepath.Dir(dir), "twentytwentythree"); strings.Contains(logs, "level=WARN") || strings.Contains(logs, "level=ERROR") {
		t.Fatalf("theme not loaded cleanly: %s", logs)
	}
	const ss = "twentytwentythree"
	r := e.do(admin, "GET", "/cms/v2/themes?status=active", nil)
	if l := r.list(); r.Status != 200 || len(l) != 1 || l[0]["stylesheet"] != ss || field(l[0], "name", "rendered") != "Twenty Twenty-Three" {
		t.Fatalf("active theme: %d %s", r.Status, r.Raw)
	}
	wantStatus(t, e.do(admin, "GET", "/cms/v2/themes/siteplane", nil), 404)
	r = e.do(admin, "GET", "/cms/v2/templates?_fields=id", nil)
	if !strings.Contains(string(r.Raw), `"twentytwentythree\/\/blog-alternative"`) || strings.Contains(string(r.Raw), "siteplane\\/") {
		t.Errorf("templates: %s", r.Raw)
	}
	r = e.do(admin, "GET", "/cms/v2/template-parts/twentytwentythree//post-meta?context=edit", nil)
	wantStatus(t, r, 200)
	r = e.do(admin, "GET", "/cms/v2/global-styles/themes/twentytwentythree/variations", nil)
	if len(r.list()) != 10 {
		t.Errorf("variations: %d %.200s", r.Status, r.Raw)
	}
	r = e.do(admin, "GET", "/cms/v2/global-styles/themes/twentytwentythree?_fields=settings", nil)
	if !strings.Contains(string(r.Raw), `"slug":"tertiary"`) {
		t.Errorf("theme global styles: %.300s", r.Raw)
	}
	r = e.do(admin, "GET", "/cms/v2/block-patterns/patterns", nil)
	if !strings.Contains(string(r.Raw), `"name":"twentytwentythree\/cta"`) || strings.Contains(string(r.Raw), "?php") {
		t.Errorf("patterns: PHP left or cta missing")
	}

	post := e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "Hello theme", "status": "publish",
		"content": "<!-- wp:paragraph --><p>Body text.</p><!-- /wp:paragraph -->"})
	wantStatus(t, post, 201)
	wantPage(t, e.page(anon, "/"), 200, "home", "Hello theme", "Got any book recommendations?",
		`Proudly powered by <a href="https://wordpress.org" rel="nofollow">WordPress</a>`,
		`@font-face{font-family:"DM Sans";font-style:normal;font-weight:400;font-display:fallback;src:url('http://example.test/cms-content/themes/twentytwentythree/assets/fonts/dm-sans/DMSans-Regular.woff2') format('woff2');font-stretch:normal;}`)
	wantPage(t, e.page(anon, "/hello-theme/"), 200, "single", "Body text.", "Comments")
	wantPage(t, e.page(anon, "/nothing-here/"), 404, "404", "This page could not be found.")
	wantPage(t, e.page(anon, "/?s=hello"), 200, "search", "Hello theme")

	// its page templates (theme.json customTemplates) are selectable where
	// their postTypes allow, and render the page
	for _, pt := range []struct{ route, template, slug string }{{"pages", "blog-alternative", "alt-page"}, {"posts", "blank", "blank-post"}} {
		wantStatus(t, e.do(admin, "POST", "/cms/v2/"+pt.route, map[string]any{"title": pt.slug, "slug": pt.slug, "status": "publish", "template": pt.template}), 201)
		wantPage(t, e.page(anon, "/"+pt.slug+"/"), 200, pt.template)
	}
	wantError(t, e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "x", "template": "blog-alternative"}), 400, "rest_invalid_param", "")

	assets := e.svc.web.ThemeAssets()
	for _, c := range []struct {
		path   string
		status int
		ctype  string
	}{
		{"/twentytwentythree/assets/fonts/dm-sans/DMSans-Regular.woff2", 200, "font/woff2"},
		{"/twentytwentythree/screenshot.png", 200, "image/png"},
		{"/twentytwentythree/style.css", 200, "text/css; charset=utf-8"},
		{"/twentytwentythree/patterns/cta.php", 404, ""},
		{"/twentytwentythree/theme.json", 404, ""},
		{"/twentytwentythree/assets/fonts/", 404, ""},
		{"/twentytwentythree/../twentytwentythree/style.css", 404, ""},
		{"/siteplane/style.css", 404, ""},
	} {
		rec := httptest.NewRecorder()
		assets.ServeHTTP(rec, httptest.NewRequest("GET", contract.ThemesPath+c.path, nil))
		if rec.Code != c.status || (c.ctype != "" && rec.Header().Get("Content-Type") != c.ctype) {
			t.Errorf("%s: %d %q, want %d %q", c.path, rec.Code, rec.Header().Get("Content-Type"), c.status, c.ctype)
		}
	}
}

// A theme directory that cannot be used is refused with one error line
// saying why, and the built-in theme serves: pages and the REST routes keep
// answering.
func TestSiteBrokenThemeFallsBack(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken")
	if err := os.MkdirAll(filepath.Join(broken, "templates"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"style.css": "/*\nTheme Name: Broken\n*/", "theme.json": `{"version":3,"settings":`,
		"templates/index.html": "<!-- wp:post-content /-->"} {
		if err := os.WriteFile(filepath.Join(broken, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := newEnv(t)
	logs := e.useTheme(dir, "broken")
	if !strings.Contains(logs, `level=ERROR msg="theme refused: serving the built-in theme instead" theme=broken reason="theme broken: theme.json: unexpected end of JSON input"`) {
		t.Errorf("log: %s", logs)
	}
	wantPage(t, e.page(anon, "/"), 200, "home")
	r := e.do(admin, "GET", "/cms/v2/themes?status=active", nil)
	if l := r.list(); len(l) != 1 || l[0]["stylesheet"] != "siteplane" {
		t.Errorf("active theme: %s", r.Raw)
	}
}
