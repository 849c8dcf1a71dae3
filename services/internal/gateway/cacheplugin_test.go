package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"siteplane.dev/services/internal/gateway/edgecache"
	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// cacheFixture is the gateway fixture with an online edge cache whose
// purges are announced on the test database (nobody else listens).
func cacheFixture(t testing.TB) (*fixture, *edgecache.Cache) {
	t.Helper()
	f := newFixture(t)
	c := edgecache.New(1 << 20)
	c.SetOnline(true)
	f.gw.cfg.Cache, f.gw.cfg.Changes = c, c
	pool := f.store.Pool()
	f.gw.cfg.Notify = func(ctx context.Context, payload string) error { return postgres.NotifyChanged(ctx, pool, payload) }
	return f, c
}

func (f *fixture) post(t *testing.T, target string, body any, header http.Header) (*httptest.ResponseRecorder, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req := httptest.NewRequest("POST", target, bytes.NewReader(b))
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	f.gw.ServeHTTP(rec, req)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec, out
}

func TestEdgeCacheInGateway(t *testing.T) {
	f, c := cacheFixture(t)
	upstream := func() int { return len(*f.upstream) }
	get := func(target string, h http.Header) string {
		rec, _ := f.do("GET", target, h)
		if rec.Code != 200 {
			t.Fatalf("GET %s: %d %s", target, rec.Code, rec.Body)
		}
		return rec.Header().Get("X-Cache")
	}
	before := upstream()
	if xc := get("/cms-json/cms/v2/posts?per_page=2&page=1", nil); xc != "miss" {
		t.Fatalf("first read: X-Cache %q", xc)
	}
	rec, _ := f.do("GET", "/cms-json/cms/v2/posts?page=1&per_page=2", nil)
	if rec.Header().Get("X-Cache") != "hit" || upstream() != before+1 {
		t.Fatalf("second read (query reordered): X-Cache %q, upstream asked %d times", rec.Header().Get("X-Cache"), upstream()-before)
	}
	// The stored answer keeps the gateway's headers and WordPress spellings.
	//nolint:staticcheck // SA1008: the WordPress spelling is what this test asserts
	if rec.Header()["X-WP-Total"] == nil || rec.Header().Get("Link") == "" || rec.Body.String() != `{"path":"/cms/v2/posts"}` {
		t.Fatalf("hit lost headers or body: %v %s", rec.Header(), rec.Body)
	}
	// A different Origin is another answer (CORS headers).
	if xc := get("/cms-json/cms/v2/posts?per_page=2&page=1", http.Header{"Origin": {"https://a.example"}}); xc != "miss" {
		t.Fatalf("other origin: X-Cache %q", xc)
	}
	// Authenticated callers bypass.
	if xc := get("/cms-json/cms/v2/posts?per_page=2&page=1", basic("admin", f.adminPW)); xc != "" {
		t.Fatalf("authenticated read: X-Cache %q", xc)
	}
	// A write proxied by this gateway starts a new generation before its
	// answer: the next read goes to the service.
	if rec, _ := f.post(t, "/cms-json/cms/v2/posts", map[string]any{"title": "x"}, basic("admin", f.adminPW)); rec.Code != 200 {
		t.Fatalf("write: %d %s", rec.Code, rec.Body)
	}
	if xc := get("/cms-json/cms/v2/posts?per_page=2&page=1", nil); xc != "miss" {
		t.Fatalf("read after write: X-Cache %q", xc)
	}
	// So does a GET carrying a method override.
	get("/cms-json/cms/v2/posts/1", nil)
	gen, _ := c.Generation()
	f.do("GET", "/cms-json/cms/v2/posts/1?_method=DELETE", basic("admin", f.adminPW))
	if g, _ := c.Generation(); g == gen {
		t.Fatal("a GET with _method=DELETE did not bump the generation")
	}
	// Upload files are cached; other public URLs (the marketplace) are not.
	tb, err := routing.Compile(contract.RouteFile{Version: 1,
		Services: []contract.Backend{{Name: "media", URL: contentURL(t, f)}},
		Routes:   []contract.Route{{Prefix: "/cms/v2", Service: "media"}, {Prefix: "/cms-content/uploads/", Service: "media", Public: true}, {Prefix: "/api/", Service: "media", Public: true}}})
	if err != nil {
		t.Fatal(err)
	}
	f.gw.cfg.Routes = routing.NewStatic(tb)
	if get("/cms-content/uploads/2026/11/a.jpg", nil) != "miss" || get("/cms-content/uploads/2026/11/a.jpg", nil) != "hit" {
		t.Fatal("upload file not cached")
	}
	if get("/api/v1/items", nil) != "" {
		t.Fatal("a marketplace URL went through the cache")
	}
	// Off: no X-Cache at all.
	f.gw.cfg.Cache = nil
	if xc := get("/cms-json/cms/v2/posts", nil); xc != "" {
		t.Fatalf("cache off: X-Cache %q", xc)
	}
}

// Who may call each cache-plugin route, and that the argument errors are
// the route kit's.
func TestCachePluginPermissions(t *testing.T) {
	f, _ := cacheFixture(t)
	subPW := f.userPassword(t, "reader", "subscriber")
	site := "http://site.test/cms-json/cms/v2/posts"
	routes := []struct {
		method, path string
		body         map[string]any
		public       bool
	}{
		{"POST", "/cache-plugin/v1/toggle_crawler_state", map[string]any{"enabled": false}, false},
		{"GET", "/cache-plugin/v1/tool/check_ip", nil, false},
		{"GET", "/cache-plugin/v1/guest/sync", nil, true},
		{"POST", "/cache-plugin/v1/notify_img", map[string]any{"urls": []string{site}}, false},
		{"POST", "/cache-plugin/v1/notify_ccss", map[string]any{"urls": []string{site}}, false},
		{"POST", "/cache-plugin/v1/notify_ucss", map[string]any{"urls": []string{site}}, false},
		{"POST", "/cache-plugin/v1/notify_vpi", map[string]any{"urls": []string{site}}, false},
		{"POST", "/cache-plugin/v1/check_img", map[string]any{"urls": []string{site}}, false},
		{"POST", "/cache-plugin/v3/ip_validate", map[string]any{"ip": "192.0.2.1"}, false},
		{"POST", "/cache-plugin/v3/cms_rest_echo", map[string]any{"a": 1}, false},
		{"POST", "/cache-plugin/v3/ping", nil, true},
		{"POST", "/cache-plugin/v3/cdn_status", nil, false},
		{"POST", "/cache-plugin/v3/err_domains", map[string]any{"all": true}, false},
	}
	callers := []struct {
		name   string
		header http.Header
		admin  bool
		denied int
	}{
		{"anonymous", nil, false, 401},
		{"subscriber", basic("reader", subPW), false, 403},
		{"administrator", basic("admin", f.adminPW), true, 0},
	}
	for _, rt := range routes {
		for _, c := range callers {
			var rec *httptest.ResponseRecorder
			var body map[string]any
			if rt.method == "GET" {
				rec, body = f.do("GET", "/cms-json"+rt.path, c.header)
			} else {
				rec, body = f.post(t, "/cms-json"+rt.path, rt.body, c.header)
			}
			if rt.public || c.admin {
				if rec.Code != 200 || body["success"] != true {
					t.Errorf("%s %s: %d %s", c.name, rt.path, rec.Code, rec.Body)
				}
				continue
			}
			if rec.Code != c.denied || body["code"] != "rest_forbidden" {
				t.Errorf("%s %s: %d %s, want %d rest_forbidden", c.name, rt.path, rec.Code, rec.Body, c.denied)
			}
		}
	}
}

func TestCachePluginRoutes(t *testing.T) {
	f, c := cacheFixture(t)
	adm := basic("admin", f.adminPW)
	fill := func(target string) {
		t.Helper()
		f.do("GET", target, nil)
		if rec, _ := f.do("GET", target, nil); rec.Header().Get("X-Cache") != "hit" {
			t.Fatalf("%s not cached", target)
		}
	}
	cached := func(target string) bool {
		rec, _ := f.do("GET", target, nil)
		return rec.Header().Get("X-Cache") == "hit"
	}
	wantError := func(rec *httptest.ResponseRecorder, body map[string]any, status int, code string) {
		t.Helper()
		if rec.Code != status || body["code"] != code {
			t.Fatalf("got %d %s, want %d %s", rec.Code, rec.Body, status, code)
		}
	}

	// Purge by URL (pretty and ?rest_route= forms); other answers stay.
	fill("/cms-json/cms/v2/posts/1")
	fill("/cms-json/cms/v2/pages")
	rec, body := f.post(t, "/cms-json/cache-plugin/v1/notify_img", map[string]any{"urls": []string{"http://site.test/?rest_route=/cms/v2/posts/1"}}, adm)
	if rec.Code != 200 || body["purged"] != float64(1) {
		t.Fatalf("notify_img: %d %s", rec.Code, rec.Body)
	}
	if cached("/cms-json/cms/v2/posts/1") || !cached("/cms-json/cms/v2/pages") {
		t.Fatal("purge by URL dropped the wrong entries")
	}
	// A status call or a purge is no content write: the cache is kept.
	fill("/cms-json/cms/v2/posts/1")
	rec, body = f.post(t, "/cms-json/cache-plugin/v3/cdn_status", nil, adm)
	st, _ := body["cache"].(map[string]any)
	if rec.Code != 200 || st["enabled"] != true || st["online"] != true || st["entries"].(float64) < 2 || !cached("/cms-json/cms/v2/posts/1") {
		t.Fatalf("cdn_status: %d %s", rec.Code, rec.Body)
	}
	// check_img looks URLs up.
	rec, body = f.post(t, "/cms-json/cache-plugin/v1/check_img", map[string]any{"urls": []string{
		"http://site.test/cms-json/cms/v2/posts/1", "http://site.test/cms-json/cms/v2/tags"}}, adm)
	if m, _ := body["cached"].(map[string]any); rec.Code != 200 || m["http://site.test/cms-json/cms/v2/posts/1"] != true || m["http://site.test/cms-json/cms/v2/tags"] != false {
		t.Fatalf("check_img: %d %s", rec.Code, rec.Body)
	}
	// Purge by tag (route prefix), then everything.
	rec, body = f.post(t, "/cms-json/cache-plugin/v3/err_domains", map[string]any{"tags": []string{"cms/v2/posts"}}, adm)
	if rec.Code != 200 || body["purged"] != float64(1) || cached("/cms-json/cms/v2/posts/1") || !cached("/cms-json/cms/v2/pages") {
		t.Fatalf("purge by tag: %d %s", rec.Code, rec.Body)
	}
	gen, _ := c.Generation()
	if rec, _ := f.post(t, "/cms-json/cache-plugin/v3/err_domains", map[string]any{"all": true}, adm); rec.Code != 200 || cached("/cms-json/cms/v2/pages") {
		t.Fatalf("purge all: %d %s", rec.Code, rec.Body)
	}
	if g, _ := c.Generation(); g == gen {
		t.Fatal("purge all did not start a new generation (answers in flight would be stored)")
	}

	// Arguments are validated by the route kit.
	rec, body = f.post(t, "/cms-json/cache-plugin/v1/notify_ccss", map[string]any{"urls": "not a list"}, adm)
	wantError(rec, body, 400, "rest_invalid_param")
	rec, body = f.post(t, "/cms-json/cache-plugin/v1/notify_ucss", map[string]any{"urls": []string{"https://elsewhere.example/cms-json/cms/v2/posts"}}, adm)
	wantError(rec, body, 400, "rest_invalid_param")
	rec, body = f.post(t, "/cms-json/cache-plugin/v3/err_domains", map[string]any{"tags": []string{"../x y"}}, adm)
	wantError(rec, body, 400, "rest_invalid_param")
	rec, body = f.post(t, "/cms-json/cache-plugin/v3/ip_validate", map[string]any{"ip": "256.1.1.1"}, adm)
	wantError(rec, body, 400, "rest_invalid_param")
	rec, body = f.post(t, "/cms-json/cache-plugin/v1/toggle_crawler_state", map[string]any{"enabled": "maybe"}, adm)
	wantError(rec, body, 400, "rest_invalid_param")

	// The crawler switch lives in PostgreSQL: flipped, set, and seen by a
	// second gateway on the same database.
	for _, c := range []struct {
		body map[string]any
		want bool
	}{{nil, true}, {nil, false}, {map[string]any{"enabled": true}, true}, {map[string]any{"enabled": true}, true}} {
		rec, body = f.post(t, "/cms-json/cache-plugin/v1/toggle_crawler_state", c.body, adm)
		if rec.Code != 200 || body["crawler_enabled"] != c.want {
			t.Fatalf("toggle %v: %d %s, want %v", c.body, rec.Code, rec.Body, c.want)
		}
	}
	other, err := New(f.gw.cfg)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("POST", "/cms-json/cache-plugin/v3/cdn_status", nil)
	req.Header = adm.Clone()
	w := httptest.NewRecorder()
	other.ServeHTTP(w, req)
	if !bytes.Contains(w.Body.Bytes(), []byte(`"crawler_enabled":true`)) {
		t.Fatalf("second gateway: %d %s", w.Code, w.Body)
	}

	// The address checks answer the trusted-proxy-aware client address.
	f.gw.cfg.TrustedProxies, _ = ParseTrustedProxies("192.0.2.0/24")
	h := adm.Clone()
	h.Set("X-Forwarded-For", "198.51.100.3")
	rec, body = f.post(t, "/cms-json/cache-plugin/v3/ip_validate", map[string]any{"ip": "198.51.100.3"}, h)
	if rec.Code != 200 || body["ip"] != "198.51.100.3" || body["valid"] != true {
		t.Fatalf("ip_validate: %d %s", rec.Code, rec.Body)
	}
	rec, body = f.post(t, "/cms-json/cache-plugin/v3/ip_validate", map[string]any{"ip": "192.0.2.1"}, h)
	if rec.Code != 200 || body["valid"] != false {
		t.Fatalf("ip_validate of the proxy's address: %d %s", rec.Code, rec.Body)
	}
	rec, body = f.post(t, "/cms-json/cache-plugin/v3/cms_rest_echo", map[string]any{"a": "b"}, h)
	if e, _ := body["echo"].(map[string]any); rec.Code != 200 || body["ip"] != "198.51.100.3" || e["a"] != "b" {
		t.Fatalf("cms_rest_echo: %d %s", rec.Code, rec.Body)
	}
}

// The seed documents notify_*, check_img, ip_validate and err_domains as
// taking no arguments; called that way each answers 200 with the meaning
// docs/edge-cache.md gives it (purge everything; count the entries; report
// the caller's address).
func TestCachePluginSeedCalls(t *testing.T) {
	f, c := cacheFixture(t)
	adm := basic("admin", f.adminPW)
	cases := []struct {
		route string
		body  any // nil: no body at all; otherwise sent as JSON
		purge bool
		want  map[string]any
	}{
		{"v1/notify_img", nil, true, map[string]any{"purged": float64(2)}},
		{"v1/notify_ccss", map[string]any{}, true, map[string]any{"purged": float64(2)}},
		{"v1/notify_ucss", nil, true, map[string]any{"purged": float64(2)}},
		{"v1/notify_vpi", nil, true, map[string]any{"purged": float64(2)}},
		{"v3/err_domains", nil, true, map[string]any{"purged": float64(2)}},
		{"v3/err_domains", map[string]any{"all": false}, false, map[string]any{"purged": float64(0)}},
		{"v1/check_img", nil, false, map[string]any{"cached": map[string]any{}, "entries": float64(2)}},
		{"v3/ip_validate", nil, false, map[string]any{"ip": "192.0.2.1", "valid": true}},
	}
	for _, tc := range cases {
		t.Run(tc.route, func(t *testing.T) {
			for _, target := range []string{"/cms-json/cms/v2/posts/1", "/cms-json/cms/v2/pages"} {
				f.do("GET", target, nil)
			}
			gen, _ := c.Generation()
			req := httptest.NewRequest("POST", "/cms-json/cache-plugin/"+tc.route, nil)
			if tc.body != nil {
				b, _ := json.Marshal(tc.body)
				req = httptest.NewRequest("POST", "/cms-json/cache-plugin/"+tc.route, bytes.NewReader(b))
				req.Header.Set("Content-Type", "application/json")
			}
			req.Header.Set("Authorization", adm.Get("Authorization"))
			rec := httptest.NewRecorder()
			f.gw.ServeHTTP(rec, req)
			var body map[string]any
			_ = json.Unmarshal(rec.Body.Bytes(), &body)
			if rec.Code != 200 || body["success"] != true {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
			for k, v := range tc.want {
				if got, _ := json.Marshal(body[k]); string(got) != mustJSON(v) {
					t.Errorf("%s = %s, want %s (%s)", k, got, mustJSON(v), rec.Body)
				}
			}
			if g, _ := c.Generation(); (g != gen) != tc.purge {
				t.Errorf("purged everything: %v, want %v", g != gen, tc.purge)
			}
		})
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// contentURL is the fixture's upstream (the "content" backend).
func contentURL(t *testing.T, f *fixture) string {
	t.Helper()
	b, ok := f.gw.cfg.Routes.Current().Backend("content")
	if !ok {
		t.Fatal("no content backend")
	}
	return b.URL
}

// The index reads the site settings from content once per cache generation:
// settings change only by a committed write, which starts a new one. With
// the edge cache switched off the generations are still heard (Changes).
func TestIndexSettingsOncePerGeneration(t *testing.T) {
	t.Run("cache on", func(t *testing.T) {
		f, c := cacheFixture(t)
		indexSettingsOncePerGeneration(t, f, c)
	})
	t.Run("cache off", func(t *testing.T) {
		f := newFixture(t)
		c := edgecache.New(0)
		c.SetOnline(true)
		f.gw.cfg.Cache, f.gw.cfg.Changes = nil, c
		indexSettingsOncePerGeneration(t, f, c)
		if rec, _ := f.do("GET", "/cms-json/cms/v2/posts", nil); rec.Header().Get(edgecache.XCache) != "" {
			t.Fatalf("X-Cache %q with the cache off", rec.Header().Get(edgecache.XCache))
		}
	})
}

func indexSettingsOncePerGeneration(t *testing.T, f *fixture, c *edgecache.Cache) {
	asked := func() int {
		n := 0
		for _, r := range *f.upstream {
			if r.URL.Path == contract.SettingsPath {
				n++
			}
		}
		return n
	}
	index := func() {
		t.Helper()
		if rec, _ := f.do("GET", "/cms-json/", nil); rec.Code != 200 {
			t.Fatalf("index: %d %s", rec.Code, rec.Body)
		}
	}
	index()
	index()
	if n := asked(); n != 1 {
		t.Fatalf("two index reads in one generation asked content for the settings %d times, want 1", n)
	}
	c.Bump()
	index()
	if n := asked(); n != 2 {
		t.Fatalf("after a write the settings were asked %d times in all, want 2", n)
	}
	c.SetOnline(false)
	index()
	index()
	if n := asked(); n != 4 {
		t.Fatalf("without change notifications every index must ask: %d in all, want 4", n)
	}
}
