package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestAddressAllowed(t *testing.T) {
	refused := map[string]string{
		"127.0.0.1": "loopback", "127.1.2.3": "loopback", "::1": "loopback v6",
		"10.0.0.1": "private", "172.16.5.4": "private", "192.168.1.1": "private", "fd12::1": "unique local",
		"169.254.1.1": "link-local", "169.254.169.254": "cloud metadata", "fd00:ec2::254": "AWS metadata v6", "fe80::1": "link-local v6",
		"0.0.0.0": "unspecified", "::": "unspecified v6", "0.1.2.3": "this network",
		"100.64.0.1": "carrier-grade NAT", "224.0.0.1": "multicast", "ff02::1": "multicast v6", "255.255.255.255": "broadcast", "240.0.0.1": "reserved",
		"192.0.2.1": "documentation", "198.51.100.7": "documentation", "203.0.113.9": "documentation", "2001:db8::1": "documentation v6", "198.18.0.1": "benchmarking",
		"::ffff:10.0.0.1": "mapped private", "::ffff:127.0.0.1": "mapped loopback", "64:ff9b::a00:1": "NAT64", "2002:a00:1::1": "6to4", "2001::1": "Teredo",
	}
	for s, class := range refused {
		if addressAllowed(netip.MustParseAddr(s), false) {
			t.Errorf("%s (%s) allowed", s, class)
		}
	}
	for _, s := range []string{"8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8"} {
		if !addressAllowed(netip.MustParseAddr(s), false) {
			t.Errorf("public %s refused", s)
		}
	}
	// The test allowance opens loopback only.
	if !addressAllowed(netip.MustParseAddr("127.0.0.1"), true) || !addressAllowed(netip.MustParseAddr("::1"), true) ||
		addressAllowed(netip.MustParseAddr("10.0.0.1"), true) || addressAllowed(netip.MustParseAddr("169.254.169.254"), true) {
		t.Error("the loopback allowance is wrong")
	}
	for port, want := range map[string]bool{"80": true, "443": true, "8080": true, "22": false, "8443": false, "6443": false} {
		if portAllowed(port, netip.MustParseAddr("8.8.8.8"), false) != want {
			t.Errorf("port %s: want %v", port, want)
		}
	}
}

func TestSafeFetcherRefuses(t *testing.T) {
	ctx := context.Background()
	f := newSafeFetcher(false, 3*time.Second, 1024)
	for _, raw := range []string{
		"http://127.0.0.1/", "http://[::1]/", "http://localhost/", "http://10.0.0.1/", "http://172.16.0.1/", "http://192.168.0.1/",
		"http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://100.64.0.1/", "http://0.0.0.0/",
		"http://[::ffff:127.0.0.1]/", "http://224.0.0.1/", "http://93.184.216.34:22/", "http://93.184.216.34:6443/",
		"ftp://93.184.216.34/", "file:///etc/passwd", "http://user:pw@93.184.216.34/", "gopher://93.184.216.34:70/",
	} {
		if _, _, err := f.get(ctx, raw, "*/*", false); !errors.Is(err, errBlockedAddress) {
			t.Errorf("%s: err = %v, want a refusal", raw, err)
		}
	}
	// One bad address among the answers refuses the host (no choosing the
	// good one: a rebinding attacker controls the order).
	f.lookup = func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("8.8.8.8"), netip.MustParseAddr("10.0.0.1")}, nil
	}
	if _, _, err := f.get(ctx, "http://mixed.example/", "*/*", false); !errors.Is(err, errBlockedAddress) {
		t.Errorf("mixed answers: %v", err)
	}
	// A loopback server is refused without the allowance and reachable
	// with it; redirects to refused addresses are refused, and loops end.
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/to-private":
			http.Redirect(w, r, "http://10.0.0.1/", http.StatusFound)
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/big":
			w.Write([]byte(strings.Repeat("x", 4096)))
		default:
			w.Write([]byte("ok"))
		}
	}))
	defer srv.Close()
	if _, _, err := newSafeFetcher(false, 3*time.Second, 1024).get(ctx, srv.URL+"/", "*/*", false); !errors.Is(err, errBlockedAddress) || hits.Load() != 0 {
		t.Fatalf("loopback without the allowance: %v (hits %d)", err, hits.Load())
	}
	allowed := newSafeFetcher(true, 3*time.Second, 1024)
	if body, _, err := allowed.get(ctx, srv.URL+"/", "*/*", false); err != nil || string(body) != "ok" {
		t.Fatalf("loopback with the allowance: %q %v", body, err)
	}
	for _, p := range []string{"/to-private", "/to-metadata"} {
		if _, _, err := allowed.get(ctx, srv.URL+p, "*/*", false); !errors.Is(err, errBlockedAddress) {
			t.Errorf("redirect %s: %v", p, err)
		}
	}
	if _, _, err := allowed.get(ctx, srv.URL+"/loop", "*/*", false); err == nil || !strings.Contains(err.Error(), "too many redirects") {
		t.Errorf("redirect loop: %v", err)
	}
	if _, _, err := allowed.get(ctx, srv.URL+"/big", "*/*", false); err == nil {
		t.Error("a body over the limit was accepted")
	}
	if body, _, err := allowed.get(ctx, srv.URL+"/big", "*/*", true); err != nil || len(body) != 1024 {
		t.Errorf("truncated read: %d %v", len(body), err)
	}
}

// provider is a loopback oEmbed provider: JSON and XML endpoints, pages
// with discovery links, a redirect and an oversized answer.
type testProvider struct {
	srv  *httptest.Server
	hits atomic.Int32
	last atomic.Value // url.Values of the last endpoint call
}

func newTestProvider(t *testing.T) *testProvider {
	p := &testProvider{}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/oembed.json":
			p.hits.Add(1)
			p.last.Store(r.URL.Query())
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"version":"1.0","type":"video","title":"Clip of %s","provider_name":"Loopback","width":%q,"height":300,`+
				`"html":"<iframe src=\"https://player.example/v/1\" width=\"400\" onload=\"alert(1)\"></iframe><script>alert(2)</script><a href=\"javascript:alert(3)\">x</a>"}`,
				r.URL.Query().Get("url"), r.URL.Query().Get("maxwidth"))
		case "/oembed.xml":
			p.hits.Add(1)
			p.last.Store(r.URL.Query())
			w.Header().Set("Content-Type", "text/xml")
			fmt.Fprint(w, `<?xml version="1.0" encoding="utf-8"?><oembed><version>1.0</version><type>photo</type><title>A &amp; B</title><url>https://img.example/1.jpg</url><width>640</width></oembed>`)
		case "/oembed-big.json":
			w.Write([]byte(`{"type":"rich","html":"` + strings.Repeat("x", 2<<20) + `"}`))
		case "/oembed-notype.json":
			w.Write([]byte(`{"version":"1.0","title":"no type"}`))
		case "/page-json":
			fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>P</title><link rel="alternate" type="application/json+oembed" href="/oembed.json?url=%s"></head><body>x</body></html>`,
				url.QueryEscape(p.srv.URL+"/page-json"))
		case "/page-xml":
			fmt.Fprint(w, `<html><head><link rel="alternate" type="text/xml+oembed" href="/oembed.xml?url=x"></head></html>`)
		case "/page-none":
			fmt.Fprint(w, `<html><head><title>nothing</title></head><body><link rel="alternate" type="application/json+oembed" href="/oembed.json"></body></html>`)
		case "/moved":
			http.Redirect(w, r, "/page-json", http.StatusMovedPermanently)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// proxyFixture is the gateway with a loopback provider in its registry.
func proxyFixture(t *testing.T, allowLoopback bool) (*fixture, *testProvider) {
	f := newFixture(t)
	p := newTestProvider(t)
	u, _ := url.Parse(p.srv.URL)
	file := filepath.Join(t.TempDir(), "providers.json")
	reg := fmt.Sprintf(`{"providers":[{"name":"Loopback","endpoint":"%[1]s/oembed.json","urls":["%[2]s/video/*"]},`+
		`{"name":"Big","endpoint":"%[1]s/oembed-big.json","urls":["%[2]s/big/*"]},{"name":"Typeless","endpoint":"%[1]s/oembed-notype.json","urls":["%[2]s/notype/*"]}]}`, p.srv.URL, u.Host)
	if err := os.WriteFile(file, []byte(reg), 0o600); err != nil {
		t.Fatal(err)
	}
	oe, err := newOEmbedProxy(OEmbedConfig{AllowLoopbackForTests: allowLoopback, ProvidersFile: file, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	f.gw.oembed = oe
	return f, p
}

func proxyPath(target string, extra ...string) string {
	q := url.Values{"url": {target}}
	for i := 0; i+1 < len(extra); i += 2 {
		q.Set(extra[i], extra[i+1])
	}
	return "/cms-json/oembed/1.0/proxy?" + q.Encode()
}

func TestOEmbedProxy(t *testing.T) {
	f, p := proxyFixture(t, true)
	admin := basic("admin", f.adminPW)
	video := p.srv.URL + "/video/42"

	// Registry provider, JSON; maxwidth/maxheight passed on; html filtered.
	rec, body := f.do("GET", proxyPath(video, "maxwidth", "400", "maxheight", "300"), admin)
	if rec.Code != 200 || body["type"] != "video" || body["title"] != "Clip of "+video || body["width"] != "400" {
		t.Fatalf("registry: %d %s", rec.Code, rec.Body)
	}
	q := p.last.Load().(url.Values)
	if q.Get("url") != video || q.Get("maxwidth") != "400" || q.Get("maxheight") != "300" || q.Get("format") != "json" {
		t.Fatalf("provider saw %v", q)
	}
	html := body["html"].(string)
	if html != `<iframe src="https://player.example/v/1" width="400"></iframe><a>x</a>` {
		t.Fatalf("html not filtered: %q", html)
	}
	// Cache hit: same arguments, no second fetch; other arguments fetch.
	hits := p.hits.Load()
	rec2, _ := f.do("GET", proxyPath(video, "maxwidth", "400", "maxheight", "300"), admin)
	if rec2.Code != 200 || rec2.Body.String() != rec.Body.String() || p.hits.Load() != hits {
		t.Fatalf("cache: %d, hits %d → %d", rec2.Code, hits, p.hits.Load())
	}
	if rec3, _ := f.do("GET", proxyPath(video, "maxwidth", "500"), admin); rec3.Code != 200 || p.hits.Load() != hits+1 {
		t.Fatalf("other arguments not fetched: %d", rec3.Code)
	}
	// The cache expires.
	f.gw.cfg.Now = func() time.Time { return time.Now().Add(25 * time.Hour) }
	if rec4, _ := f.do("GET", proxyPath(video, "maxwidth", "400", "maxheight", "300"), admin); rec4.Code != 200 || p.hits.Load() != hits+2 {
		t.Fatalf("expired entry reused: hits %d", p.hits.Load())
	}
	f.gw.cfg.Now = time.Now

	tests := []struct {
		name   string
		path   string
		status int
		check  func(map[string]any) bool
	}{
		{"discovery JSON", proxyPath(p.srv.URL + "/page-json"), 200, func(b map[string]any) bool { return b["title"] == "Clip of "+p.srv.URL+"/page-json" }},
		{"discovery XML", proxyPath(p.srv.URL + "/page-xml"), 200, func(b map[string]any) bool {
			return b["type"] == "photo" && b["title"] == "A & B" && b["width"] == "640" && b["url"] == "https://img.example/1.jpg"
		}},
		{"discovery after a redirect", proxyPath(p.srv.URL + "/moved"), 200, func(b map[string]any) bool { return b["type"] == "video" }},
		{"discover=false", proxyPath(p.srv.URL+"/page-json", "discover", "false"), 404, nil},
		{"no link in the head", proxyPath(p.srv.URL + "/page-none"), 404, nil},
		{"page not found", proxyPath(p.srv.URL + "/missing"), 404, nil},
		{"answer too large", proxyPath(p.srv.URL + "/big/1"), 404, nil},
		{"answer without type", proxyPath(p.srv.URL + "/notype/1"), 404, nil},
		{"format=xml answers JSON", proxyPath(video, "format", "xml"), 200, func(b map[string]any) bool { return b["type"] == "video" }},
		{"bad format", proxyPath(video, "format", "html"), 400, nil},
		{"bad discover", proxyPath(video, "discover", "maybe"), 400, nil},
		{"missing url", "/cms-json/oembed/1.0/proxy", 400, nil},
		{"not a URL scheme we fetch", proxyPath("ftp://example.com/x"), 404, nil},
		{"metadata address", proxyPath("http://169.254.169.254/latest/meta-data/"), 404, nil},
		{"private address", proxyPath("http://10.1.2.3/"), 404, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, body := f.do("GET", tt.path, admin)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			if tt.status == 404 && (body["code"] != "oembed_invalid_url" || body["message"] != "Not Found") {
				t.Fatalf("error %s", rec.Body)
			}
			if tt.check != nil && !tt.check(body) {
				t.Fatalf("body %s", rec.Body)
			}
		})
	}
	// Permission: edit_posts.
	if rec, body := f.do("GET", proxyPath(video), nil); rec.Code != 401 || body["code"] != "rest_forbidden" {
		t.Fatalf("anonymous: %d %s", rec.Code, rec.Body)
	}
}

func TestOEmbedProxyRefusesLoopbackWithoutAllowance(t *testing.T) {
	f, p := proxyFixture(t, false)
	admin := basic("admin", f.adminPW)
	for _, target := range []string{p.srv.URL + "/video/7", p.srv.URL + "/page-json"} {
		if rec, body := f.do("GET", proxyPath(target), admin); rec.Code != 404 || body["code"] != "oembed_invalid_url" {
			t.Fatalf("%s without the allowance: %d %s", target, rec.Code, rec.Body)
		}
	}
	if p.hits.Load() != 0 {
		t.Fatal("the provider was reached")
	}
	// The same URLs with the allowance are served (so the refusal above is
	// the address check, not a broken provider).
	oe, err := newOEmbedProxy(OEmbedConfig{AllowLoopbackForTests: true, ProvidersFile: "", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	oe.providers = f.gw.oembed.providers
	f.gw.oembed = oe
	for _, target := range []string{p.srv.URL + "/video/7", p.srv.URL + "/page-json"} {
		if rec, _ := f.do("GET", proxyPath(target), admin); rec.Code != 200 {
			t.Fatalf("%s with the allowance: %d %s", target, rec.Code, rec.Body)
		}
	}
}

func TestSanitizeEmbedHTML(t *testing.T) {
	for in, want := range map[string]string{
		`<blockquote class="twitter-tweet"><p lang="en">Hi &amp; bye</p>&mdash; X <a href="https://x.com/a/status/1">May 1</a></blockquote><script async src="https://platform.x.com/widgets.js"></script>`: `<blockquote class="twitter-tweet"><p lang="en">Hi &amp; bye</p>— X <a href="https://x.com/a/status/1">May 1</a></blockquote>`,
		`<iframe src="javascript:alert(1)" srcdoc="<script>x</script>"></iframe>`:        `<iframe></iframe>`,
		`<img src="https://i.example/a.png" onerror="alert(1)" alt="a">`:                 `<img src="https://i.example/a.png" alt="a">`,
		`<div style="x"><style>body{}</style>text<form action="/x"><input></form></div>`: `text`,
		`<svg><script>alert(1)</script></svg><a href="data:text/html,x">d</a>`:           `<a>d</a>`,
	} {
		if got := sanitizeEmbedHTML(in); got != want {
			t.Errorf("sanitize(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}
