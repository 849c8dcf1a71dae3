package gateway

import (
	"net/http"
	"strings"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

// The site editor's page: administrators only (others get WordPress's
// refusal, 403), its own bundle and root element, WordPress's redirects of
// the old site editor URLs, and site-editor.php's preloads as the person.
func TestAdminSiteEditor(t *testing.T) {
	f, srv, _ := loginFixture(t)
	f.gw.admin = loadAdminBundle(testBundle(t))
	ed := newBrowser(t, srv.URL)
	ed.login("ed", "correct horse", nil)
	createLoginUser(t, srv.URL, f.adminPW, `{"username":"boss","email":"boss@example.com","password":"boss password","roles":["administrator"]}`)
	boss := newBrowser(t, srv.URL)
	boss.login("boss", "boss password", nil)
	anon := newBrowser(t, srv.URL)
	cases := []struct {
		name     string
		who      *browser
		path     string
		status   int
		location string
		body     []string
	}{
		{name: "anonymous to the sign-in page", who: anon, path: "/cms-admin/site-editor.php", status: 302,
			location: "/cms-login.php?redirect_to=%2Fcms-admin%2Fsite-editor.php"},
		{name: "an editor is refused", who: ed, path: "/cms-admin/site-editor.php", status: 403,
			body: []string{"You need a higher level of permission.", "Sorry, you are not allowed to edit theme options on this site."}},
		{name: "an administrator", who: boss, path: "/cms-admin/site-editor.php", status: 200,
			body: []string{`<script src="/cms-admin/assets/siteeditor-DDDDDDDD.js" defer></script>`, `href="/cms-admin/assets/siteeditor-EEEEEEEE.css"`,
				`<div id="site-editor" class="edit-site">`, `"view":"site-editor"`, `"dashboardURL":"/cms-admin/"`}},
		{name: "a page in the page view", who: boss, path: "/cms-admin/site-editor.php?p=%2Fpage%2F7", status: 200},
		{name: "old template URL", who: boss, path: "/cms-admin/site-editor.php?postType=wp_template&postId=siteplane%2F%2Fhome&canvas=edit", status: 302,
			location: "/cms-admin/site-editor.php?canvas=edit&p=%2Fwp_template%2Fsiteplane%2F%2Fhome"},
		{name: "old styles URL", who: boss, path: "/cms-admin/site-editor.php?path=%2Fwp_global_styles", status: 302,
			location: "/cms-admin/site-editor.php?p=%2Fstyles"},
		{name: "old template parts list", who: boss, path: "/cms-admin/site-editor.php?path=%2Fwp_template_part%2Fall", status: 302,
			location: "/cms-admin/site-editor.php?p=%2Fpattern&postType=wp_template_part"},
		{name: "any other query", who: boss, path: "/cms-admin/site-editor.php?x=1", status: 302,
			location: "/cms-admin/site-editor.php?p=%2F&x=1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.who.req("GET", c.path, nil, nil)
			if p.status != c.status || p.header.Get("Location") != c.location {
				t.Fatalf("%d %q, want %d %q:\n%.400s", p.status, p.header.Get("Location"), c.status, c.location, p.body)
			}
			for _, want := range c.body {
				if !strings.Contains(p.body, want) {
					t.Errorf("body lacks %s:\n%.800s", want, p.body)
				}
			}
		})
	}
	upstream := len(*f.upstream)
	boot := bootOf(t, boss.req("GET", "/cms-admin/site-editor.php", nil, nil))
	preload, _ := boot["preload"].(map[string]any)
	for _, key := range []string{"/cms/v2/types/wp_template?context=edit", "/cms/v2/templates?context=edit&per_page=-1",
		"/cms/v2/template-parts?context=edit&per_page=-1", "/cms/v2/themes?context=edit&status=active",
		"/cms/v2/global-styles/themes/" + contract.ActiveTheme + "/variations?context=view", "/cms/v2/templates/lookup?slug=front-page"} {
		if _, ok := preload[key]; !ok {
			t.Errorf("not preloaded: %s (have %d keys)", key, len(preload))
		}
	}
	signed := 0
	for _, r := range (*f.upstream)[upstream:] {
		if r.URL.Path == "/cms/v2/templates" && r.Header.Get(contract.IdentityHeader) != "" {
			signed++
		}
	}
	if signed == 0 {
		t.Error("the preload did not reach content as the administrator")
	}
	if p := ed.req("HEAD", "/cms-admin/site-editor.php", nil, nil); p.status != http.StatusForbidden {
		t.Errorf("HEAD as an editor: %d", p.status)
	}
}
