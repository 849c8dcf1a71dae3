package routing

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

func table(t *testing.T) *Table {
	t.Helper()
	tb, err := Compile(contract.DefaultRoutes(map[string]string{
		contract.ServiceMarketplace: "http://m:1", contract.ServiceContent: "http://c:1", contract.ServiceMedia: "http://md:1",
	}))
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestMatchLongestSegmentPrefix(t *testing.T) {
	tb := table(t)
	tests := []struct {
		route, want string
		public      bool
	}{
		{"/cms/v2/posts", "content", false},
		{"/cms/v2/posts/5", "content", false},
		{"/cms/v2/media", "media", false},
		{"/CMS/v2/Media/5/edit", "media", false},
		{"/cms/v2/mediax", "content", false}, // whole segments only
		{"/cms/v2", "content", false},
		{"/cms/v3/posts", "", false},
		{"/api/", "", false}, // public prefixes are not REST routes
		{"/api/v1/market/items", "marketplace", true},
		{"/cms-content/uploads/2026/a.png", "media", true},
		{"/cms-json/cms/v2/posts", "", true},
		// the website owns every other public path
		{"/", "content", true},
		{"/hello-world/", "content", true},
		{"/parent/child/", "content", true},
		{"/api", "marketplace", true},
		{"/cms-admin/", "", true},
		{"/CMS-Login.php", "", true},
		{"/cms-content/themes/x.css", "content", true}, // the theme's files (contract.ThemesPath)
		{"/cms-content/theme/x.css", "", true},
		{"/cms-contents/", "content", true},
	}
	for _, tt := range tests {
		var b *Backend
		var ok bool
		if tt.public {
			b, ok = tb.MatchPublic(tt.route)
		} else {
			b, ok = tb.MatchREST(tt.route)
		}
		got := ""
		if ok {
			got = b.Name
		}
		if got != tt.want {
			t.Errorf("%s (public=%v) → %q, want %q", tt.route, tt.public, got, tt.want)
		}
	}
	if _, site, ok := tb.MatchPublicSite("/hello/"); !ok || !site {
		t.Error("/hello/ is not the site route")
	}
	if _, site, ok := tb.MatchPublicSite("/cms-content/uploads/a.png"); !ok || site {
		t.Error("uploads went to the site route")
	}
	if _, site, ok := tb.MatchPublicSite("/cms-content/themes/t/assets/f.woff2"); !ok || site {
		t.Error("theme files went to the site route")
	}
	if d := tb.Describing(); len(d) != 2 || d[0].Name != "content" || d[1].Name != "media" {
		t.Errorf("Describing = %v", d)
	}
}

func TestReloadSwapsOnlyValidFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "routes.json")
	write := func(f contract.RouteFile) {
		b, _ := f.Marshal()
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(contract.DefaultRoutes(map[string]string{contract.ServiceContent: "http://c:1"}))
	src, err := Load(path, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	changes := 0
	src.OnChange(func(*Table) { changes++ })
	if src.Reload() {
		t.Fatal("reload of an unchanged file swapped the table")
	}
	// Invalid: unknown service. The old table stays.
	os.WriteFile(path, []byte(`{"version":1,"services":[],"routes":[{"prefix":"/x","service":"nope"}]}`), 0o644)
	if src.Reload() {
		t.Fatal("an invalid file was swapped in")
	}
	if b, ok := src.Current().MatchREST("/cms/v2/posts"); !ok || b.URL != "http://c:1" {
		t.Fatal("the last good table is not in force")
	}
	os.WriteFile(path, []byte(`not json`), 0o644)
	if src.Reload() {
		t.Fatal("garbage was swapped in")
	}
	write(contract.DefaultRoutes(map[string]string{contract.ServiceContent: "http://c2:1"}))
	if !src.Reload() || changes != 1 {
		t.Fatalf("a valid change was not applied (changes=%d)", changes)
	}
	if b, _ := src.Current().MatchREST("/cms/v2/posts"); b.URL != "http://c2:1" {
		t.Fatalf("new table not in force: %s", b.URL)
	}
}

func TestForwardAndFailureStatuses(t *testing.T) {
	var got *http.Request
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		if r.URL.Path == "/slow" {
			time.Sleep(300 * time.Millisecond)
		}
		w.Header().Set("X-Up", "1")
		io.WriteString(w, "ok")
	}))
	defer up.Close()
	// A port nobody listens on.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	deadURL := "http://" + ln.Addr().String()
	ln.Close()
	tb, err := Compile(contract.RouteFile{Version: 1,
		Services: []contract.Backend{{Name: "up", URL: up.URL}, {Name: "dead", URL: deadURL}},
		Routes:   []contract.Route{{Prefix: "/up", Service: "up"}, {Prefix: "/dead", Service: "dead"}}})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	p := NewProxy(ProxyConfig{Timeout: 100 * time.Millisecond}, func(w http.ResponseWriter, _ *http.Request, status int, code, msg string) {
		codes = append(codes, code)
		w.WriteHeader(status)
	}, nil)
	do := func(backend, path string) *httptest.ResponseRecorder {
		b, _ := tb.Backend(backend)
		req := httptest.NewRequest("GET", "http://gw/x?y=1", nil)
		req.Header.Set("X-Forwarded-For", "10.0.0.9")
		rec := httptest.NewRecorder()
		p.Forward(rec, req, Target{Backend: b, Path: path, RawQuery: "a=1&b=2", SetHeaders: http.Header{"X-Signed": {"s"}}})
		return rec
	}
	rec := do("up", "/p/q")
	if rec.Code != 200 || rec.Body.String() != "ok" || rec.Header().Get("X-Up") != "1" {
		t.Fatalf("forward: %d %q", rec.Code, rec.Body)
	}
	if got.URL.Path != "/p/q" || got.URL.RawQuery != "a=1&b=2" || got.Header.Get("X-Signed") != "s" ||
		!strings.HasPrefix(got.Header.Get("X-Forwarded-For"), "10.0.0.9, ") || got.Header.Get("X-Forwarded-Host") != "gw" {
		t.Fatalf("upstream saw %s?%s headers %v", got.URL.Path, got.URL.RawQuery, got.Header)
	}
	if rec := do("dead", "/"); rec.Code != 503 {
		t.Fatalf("refused: %d, want 503", rec.Code)
	}
	if rec := do("up", "/slow"); rec.Code != 504 {
		t.Fatalf("slow: %d, want 504", rec.Code)
	}
	if strings.Join(codes, ",") != "rest_service_unavailable,rest_upstream_timeout" {
		t.Fatalf("codes %v", codes)
	}
}

func TestClassify(t *testing.T) {
	if s, _, _ := Classify(errors.New("malformed HTTP response")); s != 502 {
		t.Fatalf("protocol error → %d, want 502", s)
	}
	if s, _, _ := Classify(context.DeadlineExceeded); s != 504 {
		t.Fatalf("deadline → %d", s)
	}
	if s, _, _ := Classify(&http.MaxBytesError{Limit: 1}); s != 413 {
		t.Fatalf("max bytes → %d", s)
	}
}
