package content

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// newReplica is a second content replica over a's database: its own
// Service (and website) for site, serving the same routes.
func newReplica(t *testing.T, a *testEnv, site contract.Site) *testEnv {
	t.Helper()
	b := &testEnv{t: t, svc: New(a.pool, site, a.svc.users), pool: a.pool}
	srv, err := b.svc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	b.handler = identity.Middleware(identity.Static(testKey), contract.ServiceContent, nil, func(w http.ResponseWriter, r *http.Request, err error) {
		http.Error(w, err.Error(), http.StatusUnauthorized)
	})(srv)
	return b
}

// The website follows the stored site settings as WordPress follows its
// options: a REST settings write of the title, tagline and static front
// page shows on the writing replica's pages and feeds at once, and on
// another replica's as soon as its listener hears the notification, though
// both had their snapshot (compiled templates with the site title) primed
// with the old values.
func TestWebsiteFollowsSiteSettings(t *testing.T) {
	a := newEnv(t)
	b := newReplica(t, a, contract.DefaultSite("http://example.test"))
	a.listen(t)
	b.listen(t) // no RefreshSettings: the notification alone must bring the change
	front := a.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "Cover", "status": "publish",
		"content": "<!-- wp:paragraph -->\n<p>Cover words</p>\n<!-- /wp:paragraph -->"}).id()
	a.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "Latest entry", "status": "publish"})
	for _, e := range []*testEnv{a, b} { // prime each snapshot with the old site
		wantPage(t, e.page(anon, "/"), 200, "home", "Siteplane", "Just another Siteplane site", "Latest entry")
	}
	heard := pgtest.ListenChanges(t, a.pool.Config().ConnConfig.Copy()) // as a gateway's edge cache
	wantStatus(t, a.do(admin, "POST", "/cms/v2/settings", map[string]any{"title": "Harbour Notes",
		"description": "Tides and boats", "show_on_front": "page", "page_on_front": front}), 200)

	cases := []struct {
		name     string
		replica  *testEnv
		atOnce   bool
		path     string
		template string // "" for a feed
		want     []string
	}{
		{"writer's front page", a, true, "/", "page", []string{"<title>Harbour Notes – Tides and boats</title>",
			"Harbour Notes</a>", "Tides and boats</p>", "Cover words"}},
		{"writer's feed", a, true, "/feed/", "", []string{"<title>Harbour Notes</title>", "<description>Tides and boats</description>"}},
		{"other replica's front page", b, false, "/", "page", []string{"<title>Harbour Notes – Tides and boats</title>",
			"Harbour Notes</a>", "Tides and boats</p>", "Cover words"}},
		{"other replica's feed", b, false, "/feed/", "", []string{"<title>Harbour Notes</title>"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			shows := func() bool {
				r := c.replica.page(anon, c.path)
				for _, w := range c.want {
					if !strings.Contains(string(r.Raw), w) {
						return false
					}
				}
				return r.Status == 200 && !strings.Contains(string(r.Raw), "Just another Siteplane site")
			}
			if !c.atOnce {
				eventually(t, "the other replica shows the new settings", shows)
			}
			r := c.replica.page(anon, c.path)
			if c.template != "" {
				wantPage(t, r, 200, c.template, c.want...)
			} else if !shows() {
				t.Fatalf("feed lacks the new settings: %.600s", r.Raw)
			}
			if strings.Contains(string(r.Raw), "Latest entry") && c.path == "/" {
				t.Error("the static front page lists the latest posts")
			}
		})
	}
	// the write's two notifications, then each replica's swap announced
	// once: an edge cache drops what it kept from a replica before its swap
	want := []string{contract.SettingsChangedPayload, contract.ServiceContent, contract.ServiceContent, contract.ServiceContent}
	if got := heard(); !slices.Equal(got, want) {
		t.Errorf("notifications: %q, want %q", got, want)
	}
}

// A snapshot loaded after a change notification moved the generation but
// before the settings were reloaded (the window a replica has between the
// two) holds the old site title in its compiled header; the reload's swap
// must not let it serve another page.
func TestWebsiteSnapshotDoesNotOutliveSettingsReload(t *testing.T) {
	e := newEnv(t)
	e.listen(t)
	ctx := context.Background()
	wantPage(t, e.page(anon, "/"), 200, "home", "Siteplane</a>")
	// stored without the settings notification: only the generation moves
	if _, err := e.pool.Exec(ctx, `INSERT INTO settings (name, value) VALUES ('title', '"Harbour Notes"')`); err != nil {
		t.Fatal(err)
	}
	gen := e.svc.web.Generation()
	if err := postgres.NotifyChanged(ctx, e.pool, contract.ServiceContent); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the notification is heard", func() bool { return e.svc.web.Generation() != gen })
	wantPage(t, e.page(anon, "/"), 200, "home", "Siteplane</a>") // the snapshot of the new generation, old site

	for _, c := range []struct {
		name string
		path string
	}{{"front page", "/"}, {"a 404", "/no-such-page/"}} {
		t.Run(c.name, func(t *testing.T) {
			reload, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			defer cancel()
			e.svc.RefreshSettings(reload, time.Hour, nil) // one load, then returns at the deadline
			r := e.page(anon, c.path)
			if !strings.Contains(string(r.Raw), "Harbour Notes</a>") || strings.Contains(string(r.Raw), "Siteplane</a>") {
				t.Fatalf("the header keeps the old title after the reload: %.1500s", r.Raw)
			}
		})
	}
}
