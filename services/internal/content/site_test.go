package content

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// page requests a website path from the content service as the gateway
// forwards it (under contract.SitePath).
func (e *testEnv) page(who, path string) *resp {
	e.t.Helper()
	h := identity.Middleware(identity.Static(testKey), contract.ServiceContent, nil, func(w http.ResponseWriter, r *http.Request, err error) {
		http.Error(w, err.Error(), http.StatusUnauthorized)
	})(e.svc.SiteHandler(nil))
	req := httptest.NewRequest("GET", contract.SitePath+path, nil)
	if id := callers[who]; id.LoggedIn() {
		req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey(testKey), contract.ServiceContent, id, time.Now().Add(time.Minute)))
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return &resp{Status: rec.Code, Header: rec.Header(), Raw: rec.Body.Bytes()}
}

func wantPage(t *testing.T, r *resp, status int, template string, want ...string) {
	t.Helper()
	if r.Status != status || r.Header.Get("X-Siteplane-Template") != template {
		t.Fatalf("status %d template %q, want %d %q: %.400s", r.Status, r.Header.Get("X-Siteplane-Template"), status, template, r.Raw)
	}
	for _, w := range want {
		if !strings.Contains(string(r.Raw), w) {
			t.Errorf("page lacks %q", w)
		}
	}
	checkHTML(t, string(r.Raw))
}

var (
	tagRe   = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>`)
	idRe    = regexp.MustCompile(`\sid="([^"]*)"`)
	voidTag = map[string]bool{"meta": true, "link": true, "img": true, "input": true, "br": true, "hr": true, "source": true}
)

// checkHTML is a structural check of a rendered page: one doctype, html
// with lang, every element closed in order, no duplicate ids, images with
// alt text, no block delimiters left.
func checkHTML(t *testing.T, doc string) {
	t.Helper()
	if !strings.HasPrefix(doc, "<!DOCTYPE html>\n<html lang=\"en\">") || strings.Contains(doc, "<!-- wp:") {
		t.Errorf("not an HTML5 document with a language: %.100s", doc)
	}
	if i, j := strings.Index(doc, "<style"), strings.Index(doc, "</style>"); i >= 0 && j > i {
		doc = doc[:i] + doc[j+len("</style>"):]
	}
	var stack []string
	for _, m := range tagRe.FindAllStringSubmatch(doc, -1) {
		name := strings.ToLower(m[2])
		switch {
		case voidTag[name]:
			if name == "img" && !strings.Contains(m[3], "alt=") {
				t.Errorf("img without alt: %s", m[0])
			}
		case m[1] == "":
			stack = append(stack, name)
		default:
			if len(stack) == 0 || stack[len(stack)-1] != name {
				t.Fatalf("</%s> closes %v", name, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		t.Errorf("unclosed elements %v", stack)
	}
	seen := map[string]bool{}
	for _, m := range idRe.FindAllStringSubmatch(doc, -1) {
		if seen[m[1]] {
			t.Errorf("duplicate id %q", m[1])
		}
		seen[m[1]] = true
	}
}

func TestSiteStaticFrontPageAndPostsPage(t *testing.T) {
	e := newEnv(t)
	front := e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "Welcome", "status": "publish", "content": "<!-- wp:paragraph -->\n<p>Front words</p>\n<!-- /wp:paragraph -->"}).id()
	blog := e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "Journal", "slug": "journal", "status": "publish"}).id()
	e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "Entry one", "status": "publish"})
	wantStatus(t, e.do(admin, "POST", "/cms/v2/settings", map[string]any{"show_on_front": "page", "page_on_front": front, "page_for_posts": blog}), 200)

	r := e.page(anon, "/")
	wantPage(t, r, 200, "page", `<meta property="og:type" content="website">`, "Welcome</h1>", "Front words", `<link rel="canonical" href="http://example.test/">`)
	if strings.Contains(string(r.Raw), "Entry one") {
		t.Error("the static front page lists posts")
	}
	wantPage(t, e.page(anon, "/journal/"), 200, "home", "Entry one", "<title>Journal – ")
	sm := e.page(anon, "/cms-sitemap-posts-page-1.xml")
	if !strings.Contains(string(sm.Raw), "<loc>http://example.test/</loc>") || strings.Contains(string(sm.Raw), "/welcome/") {
		t.Errorf("page sitemap: %s", sm.Raw)
	}

	// an unpublished front page falls back to the latest posts
	e.do(admin, "POST", "/cms/v2/pages/"+store.Itoa(front), map[string]any{"status": "draft"})
	wantPage(t, e.page(anon, "/"), 200, "home", "Entry one")
}

func TestSiteTemplateHierarchyFromTheDatabase(t *testing.T) {
	e := newEnv(t)
	e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "About", "slug": "about", "status": "publish", "content": "About text"})
	wantPage(t, e.page(anon, "/about/"), 200, "page", "About text")

	// a stored page-about template is more specific than the theme's page
	r := e.do(admin, "POST", "/cms/v2/templates", map[string]any{"slug": "page-about", "title": "About page",
		"content": `<!-- wp:group {"tagName":"main"} --><main class="wp-block-group"><!-- wp:post-title {"level":1} /--><p>ABOUT-TEMPLATE</p><!-- wp:post-content /--></main><!-- /wp:group -->`})
	wantStatus(t, r, 201)
	wantPage(t, e.page(anon, "/about/"), 200, "page-about", "ABOUT-TEMPLATE", "About text", `<main id="wp--skip-link--target"`)

	// a customised header part shows on every page
	r = e.do(admin, "POST", "/cms/v2/template-parts/siteplane//header", map[string]any{"content": `<!-- wp:paragraph --><p>CUSTOM-HEADER</p><!-- /wp:paragraph -->`})
	wantStatus(t, r, 200)
	wantPage(t, e.page(anon, "/no-such-page/"), 404, "404", "CUSTOM-HEADER", "Page not found")

	// user global styles reach the page's CSS
	th := e.do(admin, "GET", "/cms/v2/themes/siteplane", nil)
	links, _ := th.obj()["_links"].(map[string]any)
	gsLink, _ := links["wp:user-global-styles"].([]any)
	href := str(gsLink[0].(map[string]any)["href"])
	_, rest, ok := strings.Cut(href, "/cms-json")
	if !ok {
		t.Fatalf("global styles link %q", href)
	}
	path := rest
	wantStatus(t, e.do(admin, "POST", path, map[string]any{"styles": map[string]any{"color": map[string]any{"background": "#123456"}}}), 200)
	if r := e.page(anon, "/about/"); !strings.Contains(string(r.Raw), "background-color:#123456") {
		t.Error("user global styles are not in the page CSS")
	}
}

func TestSitePrivacyAndWellFormedPages(t *testing.T) {
	e := newEnv(t)
	draft := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "Author draft", "status": "draft"}).id()
	pub := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "Out there", "status": "publish",
		"content": "<!-- wp:list -->\n<ul class=\"wp-block-list\"><!-- wp:list-item --><li>one</li><!-- /wp:list-item --></ul>\n<!-- /wp:list -->\n<!-- wp:quote --><blockquote class=\"wp-block-quote\"><!-- wp:paragraph --><p>q</p><!-- /wp:paragraph --></blockquote><!-- /wp:quote -->\n<!-- wp:separator --><hr class=\"wp-block-separator\"/><!-- /wp:separator -->"}).id()
	for _, tt := range []struct {
		who    string
		status int
	}{{anon, 404}, {subscriber, 404}, {author2, 404}, {author, 200}, {editor, 200}} {
		if r := e.page(tt.who, "/?p="+store.Itoa(draft)); r.Status != tt.status {
			t.Errorf("draft as %s: %d, want %d", tt.who, r.Status, tt.status)
		}
	}
	for _, p := range []string{"/", "/out-there/", "/?s=out", "/no/", "/" + time.Now().Format("2006") + "/"} {
		r := e.page(anon, p)
		if r.Status >= 300 && r.Status != 404 {
			t.Fatalf("%s: %d", p, r.Status)
		}
		checkHTML(t, string(r.Raw))
	}
	if r := e.page(anon, "/?p="+store.Itoa(pub)); r.Status != 301 || r.Header.Get("Location") != "http://example.test/out-there/" {
		t.Errorf("?p= of a published post: %d %q", r.Status, r.Header.Get("Location"))
	}
}

func TestSiteTrailingSlashRedirect(t *testing.T) {
	e := newEnv(t)
	for _, tt := range []struct{ path, want string }{
		{"/hello", "http://example.test/hello/"},
		{"/a/b?x=1", "http://example.test/a/b/?x=1"},
		{"/caf%C3%A9", "http://example.test/caf%C3%A9/"},
	} {
		if r := e.page(anon, tt.path); r.Status != 301 || r.Header.Get("Location") != tt.want {
			t.Errorf("%s: %d %q, want 301 %q", tt.path, r.Status, r.Header.Get("Location"), tt.want)
		}
	}
	if r := e.page(anon, "/favicon.ico"); r.Status != 404 {
		t.Errorf("/favicon.ico: %d", r.Status)
	}
}

func TestSiteArchiveQueryForms(t *testing.T) {
	e := newEnv(t)
	cat := e.do(admin, "POST", "/cms/v2/categories", map[string]any{"name": "News"}).id()
	e.do(admin, "POST", "/cms/v2/tags", map[string]any{"name": "Go Lang"})
	for _, tt := range []struct {
		path   string
		status int
		want   string
	}{
		{"/?cat=" + store.Itoa(cat), 301, "http://example.test/category/news/"},
		{"/?tag=go-lang", 301, "http://example.test/tag/go-lang/"},
		{"/?cat=999999", 404, ""},
		{"/?cat=x", 404, ""},
		{"/?tag=nope", 404, ""},
		{"/?author=1", 404, ""}, // no user directory in this test: no author archives
	} {
		r := e.page(anon, tt.path)
		if r.Status != tt.status || r.Header.Get("Location") != tt.want {
			t.Errorf("%s: %d %q, want %d %q", tt.path, r.Status, r.Header.Get("Location"), tt.status, tt.want)
		}
	}
}
