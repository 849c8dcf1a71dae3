package gateway

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"siteplane.dev/services/pkg/contract"
)

// testBundle is an admin bundle as build.mjs writes it.
func testBundle(t *testing.T) fstest.MapFS {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	_, _ = w.Write([]byte("console.log('admin')"))
	_ = w.Close()
	return fstest.MapFS{
		"manifest.json": {Data: []byte(`{"admin.js":"admin-AAAAAAAA.js","admin.css":"admin-BBBBBBBB.css","canvas.css":"canvas-CCCCCCCC.css",` +
			`"siteeditor.js":"siteeditor-DDDDDDDD.js","siteeditor.css":"siteeditor-EEEEEEEE.css",` +
			`"scriptHashes":["'sha256-canvasScript='"]}`)},
		"admin-AAAAAAAA.js":    {Data: []byte("console.log('admin')")},
		"admin-AAAAAAAA.js.gz": {Data: gz.Bytes()},
	}
}

var bootRe = regexp.MustCompile(`(?s)<script type="application/json" id="siteplane-admin-data">(.*?)</script>`)

// bootOf reads an admin page's bootstrap data.
func bootOf(t *testing.T, p page) map[string]any {
	t.Helper()
	m := bootRe.FindStringSubmatch(p.body)
	if m == nil {
		t.Fatalf("no bootstrap data in %d:\n%.600s", p.status, p.body)
	}
	var boot map[string]any
	if err := json.Unmarshal([]byte(m[1]), &boot); err != nil {
		t.Fatalf("bootstrap data: %v", err)
	}
	return boot
}

// The admin's screens: behind the sign-in (anonymous → sign-in page and
// back), for people who may edit posts, with a strict CSP and the page's
// data in a JSON element; its bundle is immutable and precompressed.
func TestAdminScreens(t *testing.T) {
	f, srv, _ := loginFixture(t)
	f.gw.admin = loadAdminBundle(testBundle(t))
	// A title that would end a script element if it were not escaped.
	f.gw.cfg.Site.Title = `Site</script><script>alert(1)</script>`
	anon := newBrowser(t, srv.URL)
	ed := newBrowser(t, srv.URL)
	ed.login("ed", "correct horse", nil)
	sub := newBrowser(t, srv.URL)
	createLoginUser(t, srv.URL, f.adminPW, `{"username":"sub","email":"sub@example.com","password":"sub password","roles":["subscriber"]}`)
	sub.login("sub", "sub password", nil)

	gzipped := http.Header{"Accept-Encoding": {"gzip, deflate"}}
	cases := []struct {
		name     string
		who      *browser
		path     string
		header   http.Header
		status   int
		location string
		body     []string
		headers  map[string]string
	}{
		{name: "anonymous to the sign-in page", who: anon, path: "/cms-admin/edit.php?post_type=page", status: 302,
			location: "/cms-login.php?redirect_to=%2Fcms-admin%2Fedit.php%3Fpost_type%3Dpage"},
		{name: "the admin's root is the post list", who: ed, path: "/cms-admin/", status: 302, location: "/cms-admin/edit.php"},
		{name: "page list", who: ed, path: "/cms-admin/edit.php?post_type=page", status: 200,
			body:    []string{`<script src="/cms-admin/assets/admin-AAAAAAAA.js" defer></script>`, `href="/cms-admin/assets/admin-BBBBBBBB.css"`, `"restBase":"pages"`},
			headers: map[string]string{"X-Frame-Options": "DENY", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}},
		{name: "unknown post type", who: ed, path: "/cms-admin/edit.php?post_type=nope", status: 400},
		{name: "a subscriber may not", who: sub, path: "/cms-admin/edit.php", status: 403},
		{name: "editor of post 5", who: ed, path: "/cms-admin/post.php?post=5&action=edit", status: 200, body: []string{`"view":"editor"`, `"postId":5`}},
		{name: "editor of no post", who: ed, path: "/cms-admin/post.php?post=x", status: 400},
		{name: "bundle, gzip", who: anon, path: "/cms-admin/assets/admin-AAAAAAAA.js", header: gzipped, status: 200,
			headers: map[string]string{"Content-Encoding": "gzip", "Cache-Control": "public, max-age=31536000, immutable", "Content-Type": "text/javascript; charset=utf-8", "Vary": "Accept-Encoding"}},
		{name: "bundle, identity", who: anon, path: "/cms-admin/assets/admin-AAAAAAAA.js", status: 200, body: []string{"console.log('admin')"},
			headers: map[string]string{"Content-Encoding": ""}},
		{name: "bundle, gzip refused", who: anon, path: "/cms-admin/assets/admin-AAAAAAAA.js", header: http.Header{"Accept-Encoding": {"gzip;q=0"}}, status: 200,
			headers: map[string]string{"Content-Encoding": ""}},
		{name: "not a bundle file", who: anon, path: "/cms-admin/assets/manifest.json", status: 404},
		{name: "a file the bundle lacks", who: anon, path: "/cms-admin/assets/admin-ZZZZZZZZ.js", status: 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.who.req("GET", c.path, nil, c.header)
			if p.status != c.status || p.header.Get("Location") != c.location {
				t.Fatalf("%d %q, want %d %q:\n%.400s", p.status, p.header.Get("Location"), c.status, c.location, p.body)
			}
			for _, want := range c.body {
				if !strings.Contains(p.body, want) {
					t.Errorf("body lacks %s:\n%.800s", want, p.body)
				}
			}
			for h, want := range c.headers {
				if got := p.header.Get(h); got != want {
					t.Errorf("%s %q, want %q", h, got, want)
				}
			}
			if c.status != 200 || !strings.HasPrefix(p.header.Get("Content-Type"), "text/html") {
				return
			}
			csp := p.header.Get("Content-Security-Policy")
			for _, want := range []string{"script-src 'self' 'sha256-canvasScript=';", "frame-ancestors 'none'", "object-src 'none'", "form-action 'self'"} {
				if !strings.Contains(csp, want) {
					t.Errorf("CSP %q lacks %s", csp, want)
				}
			}
			if strings.Contains(p.body, "</script><script>alert") {
				t.Error("the site title ends the bootstrap element")
			}
			if boot := bootOf(t, p); boot["siteTitle"] != f.gw.cfg.Site.Title || boot["nonce"] == "" || boot["root"] != "http://site.test/cms-json/" {
				t.Errorf("bootstrap data: %v", boot)
			}
		})
	}
}

// The editor's preloaded answers are asked as the signed-in person, with
// WordPress's paths renamed; OPTIONS answers sit under "OPTIONS".
func TestAdminEditorPreloadsAsThePerson(t *testing.T) {
	f, srv, edID := loginFixture(t)
	f.gw.admin = loadAdminBundle(testBundle(t))
	ed := newBrowser(t, srv.URL)
	ed.login("ed", "correct horse", nil)
	p := ed.req("GET", "/cms-admin/post.php?post=7&action=edit", nil, nil)
	boot := bootOf(t, p)
	preload, _ := boot["preload"].(map[string]any)
	for _, key := range []string{"/cms/v2/posts/7?context=edit", "/cms/v2/types/post?context=edit", "/cms/v2/users/me", "/cms/v2/posts/7/autosaves?context=edit",
		"/cms/v2/themes?context=edit&status=active", "/cms/v2/global-styles/themes/" + contract.ActiveTheme + "?context=view", "/cms/v2/templates/lookup?slug=single-post"} {
		if _, ok := preload[key]; !ok {
			t.Errorf("not preloaded: %s (have %d keys)", key, len(preload))
		}
	}
	options, _ := preload["OPTIONS"].(map[string]any)
	if _, ok := options["/cms/v2/settings"]; !ok {
		t.Errorf("OPTIONS /cms/v2/settings not preloaded: %v", options)
	}
	signed := 0
	for _, r := range *f.upstream {
		if strings.HasPrefix(r.URL.Path, "/cms/v2/posts/7") && r.Header.Get(contract.IdentityHeader) != "" {
			signed++
		}
	}
	if signed == 0 {
		t.Errorf("the preload did not reach content as user %d", edID)
	}
}

// Without the bundle the gateway still builds, and the admin says how to
// build it.
func TestAdminNotBuilt(t *testing.T) {
	f, srv, _ := loginFixture(t)
	f.gw.admin = loadAdminBundle(fstest.MapFS{})
	ed := newBrowser(t, srv.URL)
	ed.login("ed", "correct horse", nil)
	p := ed.req("GET", "/cms-admin/edit.php", nil, nil)
	if p.status != http.StatusServiceUnavailable || !strings.Contains(p.body, "make admin") {
		t.Fatalf("%d:\n%.600s", p.status, p.body)
	}
}
