package content

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

func TestSettings(t *testing.T) {
	e := newEnv(t)
	for who, status := range map[string]int{anon: 401, subscriber: 403, contributor: 403, author: 403, editor: 403} {
		wantError(t, e.do(who, "GET", "/cms/v2/settings", nil), status, "rest_forbidden", "Sorry, you are not allowed to do that.")
		wantError(t, e.do(who, "POST", "/cms/v2/settings", map[string]any{"title": "x"}), status, "rest_forbidden", "")
	}
	g := e.do(admin, "GET", "/cms/v2/settings", nil)
	wantStatus(t, g, 200)
	o := g.obj()
	if o["url"] != "http://example.test" || o["timezone"] != "Europe/Paris" || o["posts_per_page"] != float64(10) ||
		o["default_category"] != float64(1) || o["show_on_front"] != "posts" || o["use_smilies"] != true || o["date_format"] != "F j, Y" {
		t.Fatalf("defaults: %s", g.Raw)
	}
	if len(o) != len(siteSettings) {
		t.Fatalf("fields: %d", len(o))
	}
	cat := e.do(admin, "POST", "/cms/v2/categories", map[string]any{"name": "General"}).id()
	page := e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "Home", "status": "publish"}).id()
	u := e.do(admin, "PATCH", "/cms/v2/settings", map[string]any{"title": "My site", "description": "Tagline",
		"timezone": "America/New_York", "posts_per_page": 5, "default_category": cat, "show_on_front": "page",
		"page_on_front": page, "date_format": "Y-m-d"})
	wantStatus(t, u, 200)
	if u.obj()["title"] != "My site" || u.obj()["posts_per_page"] != float64(5) || u.obj()["page_on_front"] != float64(page) {
		t.Fatalf("update: %s", u.Raw)
	}
	if g := e.do(admin, "GET", "/cms/v2/settings", nil); g.obj()["description"] != "Tagline" || g.obj()["date_format"] != "Y-m-d" {
		t.Fatalf("persisted: %s", g.Raw)
	}
	// the default category applies to new posts
	p := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "x"})
	if fmt.Sprint(p.obj()["categories"]) != fmt.Sprintf("[%d]", cat) {
		t.Fatalf("default_category: %v", p.obj()["categories"])
	}
	// the default category cannot be deleted; the former one now can
	wantError(t, e.do(admin, "DELETE", fmt.Sprintf("/cms/v2/categories/%d?force=true", cat), nil), 500, "rest_cannot_delete", "The term cannot be deleted.")
	wantStatus(t, e.do(admin, "DELETE", "/cms/v2/categories/1?force=true", nil), 200)
	// the internal endpoint the index reads
	rec := httptest.NewRecorder()
	e.svc.SettingsHandler().ServeHTTP(rec, httptest.NewRequest("GET", contract.SettingsPath, nil))
	var ss contract.SiteSettings
	if err := json.Unmarshal(rec.Body.Bytes(), &ss); err != nil {
		t.Fatal(err)
	}
	// page_for_posts was never written: the gateway keeps its own site
	// file's value for it (an old replica's site file may differ).
	if !reflect.DeepEqual(ss, contract.SiteSettings{Title: "My site", Description: "Tagline", Timezone: "America/New_York", ShowOnFront: "page", PageOnFront: page,
		Stored: []string{"title", "description", "timezone", "show_on_front", "page_on_front"}}) {
		t.Fatalf("internal settings: %+v", ss)
	}
	// dates follow the timezone setting, and its reset
	post := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "dated", "date_gmt": "2026-01-15T12:00:00"})
	if post.obj()["date"] != "2026-01-15T07:00:00" {
		t.Fatalf("date in America/New_York: %s", post.Raw)
	}
	e.do(admin, "POST", "/cms/v2/settings", map[string]any{"timezone": nil})
	if g := e.do(editor, "GET", fmt.Sprintf("/cms/v2/posts/%d", post.id()), nil); g.obj()["date"] != "2026-01-15T13:00:00" {
		t.Fatalf("date back in Europe/Paris: %s", g.Raw)
	}
	// null resets to the default
	r := e.do(admin, "POST", "/cms/v2/settings", map[string]any{"title": nil})
	if r.obj()["title"] != contract.DefaultSite("http://example.test").Title {
		t.Fatalf("reset: %s", r.Raw)
	}
	for _, c := range []map[string]any{{"show_on_front": "nope"}, {"posts_per_page": "many"}, {"email": "not-an-email"},
		{"timezone": "Mars/Olympus"}, {"url": "https://other.test"}, {"default_ping_status": "maybe"}, {"page_on_front": -1}} {
		wantError(t, e.do(admin, "POST", "/cms/v2/settings", c), 400, "rest_invalid_param", "")
	}
	// a refused update wrote nothing
	if g := e.do(admin, "GET", "/cms/v2/settings", nil); g.obj()["show_on_front"] != "page" {
		t.Fatalf("after refusals: %s", g.Raw)
	}
}

// Another replica's timezone change reaches this one through RefreshSettings.
func TestSettingsRefresh(t *testing.T) {
	e := newEnv(t)
	if _, err := e.pool.Exec(context.Background(), `INSERT INTO settings (name, value) VALUES ('timezone', '"Asia/Tokyo"')`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	e.svc.RefreshSettings(ctx, time.Hour, nil) // one load, then returns at the deadline
	if got := e.svc.location().String(); got != "Asia/Tokyo" {
		t.Fatalf("time zone after refresh: %s", got)
	}
}
