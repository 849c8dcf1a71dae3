package gateway

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// Website requests go to the content service under contract.SitePath with
// the caller's signed identity and no other credentials; reserved paths
// never do.
func TestSiteRequestsGoToTheRenderer(t *testing.T) {
	f := newFixture(t)
	var mu sync.Mutex
	var last *http.Request
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		last = r.Clone(context.Background())
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set(contract.RequestIDHeader, "from-service")
		_, _ = io.WriteString(w, "<p>page</p>")
	}))
	t.Cleanup(up.Close)
	tb, err := routing.Compile(contract.DefaultRoutes(map[string]string{contract.ServiceContent: up.URL}))
	if err != nil {
		t.Fatal(err)
	}
	gw, err := New(Config{Store: f.store, Routes: routing.NewStatic(tb), Proxy: routing.NewProxy(routing.ProxyConfig{}, rest.WriteErrorCode, nil),
		Keys: identity.Static(testKey), Secret: testKey, Site: contract.DefaultSite("http://site.test"), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	cookies := http.Header{"Cookie": {"session=secret; cms-postpass=abc"}}
	tests := []struct {
		name, target string
		header       http.Header
		wantPath     string // "" = not forwarded
		wantRole     string
		wantCookie   string // the Cookie header forwarded, when one is sent
	}{
		{"front page", "/", nil, contract.SitePath + "/", "", ""},
		{"nested page with query", "/a/b/?x=1", nil, contract.SitePath + "/a/b/", "", ""},
		{"logged in", "/hello/", basic("admin", f.adminPW), contract.SitePath + "/hello/", "administrator", ""},
		{"bad credentials are anonymous", "/hello/", basic("admin", "wrong"), contract.SitePath + "/hello/", "", ""},
		{"only the post password cookie passes", "/locked/", cookies, contract.SitePath + "/locked/", "", "cms-postpass=abc"},
		{"and the commenter's three cookies", "/hello/", http.Header{"Cookie": {"session=secret; comment_author_ab=Ann; comment_author_email_ab=ann%40x.test; " +
			"comment_author_url_ab=; comment_author_more=4; cms-postpass=abc"}}, contract.SitePath + "/hello/", "",
			"comment_author_ab=Ann; comment_author_email_ab=ann%40x.test; comment_author_url_ab=; cms-postpass=abc"},
		{"admin pages are reserved", "/cms-admin/", nil, "", "", ""},
		{"login page is reserved", "/cms-login.php", nil, "", "", ""},
		{"uploads are reserved", "/cms-content/uploads/a.png", nil, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mu.Lock()
			last = nil
			mu.Unlock()
			req := httptest.NewRequest("GET", tt.target, nil)
			for k, v := range tt.header {
				req.Header[k] = v
			}
			rec := httptest.NewRecorder()
			gw.ServeHTTP(rec, req)
			mu.Lock()
			got := last
			mu.Unlock()
			if tt.wantPath == "" {
				// reserved: answered by the gateway itself (the sign-in
				// page, the admin) or not found, never by the renderer
				if got != nil || (rec.Code != 404 && tt.target != "/cms-login.php" && tt.target != "/cms-admin/") {
					t.Fatalf("forwarded %v, status %d", got, rec.Code)
				}
				return
			}
			if got == nil || got.URL.Path != tt.wantPath || rec.Code != 200 {
				t.Fatalf("status %d, upstream %v", rec.Code, got)
			}
			if got.Header.Get("Authorization") != "" {
				t.Error("credentials reached the renderer")
			}
			if c := got.Header.Values("Cookie"); tt.header.Get("Cookie") != "" && (len(c) != 1 || c[0] != tt.wantCookie) {
				t.Errorf("cookies forwarded: %v", c)
			}
			role := ""
			if h := got.Header.Get(contract.IdentityHeader); h != "" {
				id, err := identity.Verify(identity.Static(testKey), "content", h, time.Now())
				if err != nil {
					t.Fatal(err)
				}
				role = string(id.Role)
			}
			if role != tt.wantRole {
				t.Errorf("role %q, want %q", role, tt.wantRole)
			}
			if ids := rec.Header().Values(contract.RequestIDHeader); len(ids) != 1 || ids[0] != "from-service" {
				t.Errorf("request ids %v", ids)
			}
			if got.URL.RawQuery != req.URL.RawQuery {
				t.Errorf("query %q", got.URL.RawQuery)
			}
		})
	}
}
