package gateway

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"siteplane.dev/services/internal/gateway/accounts"
)

func TestClientAddress(t *testing.T) {
	proxies, err := ParseTrustedProxies("10.0.0.0/8, 192.168.1.5 ,fd00::/8")
	if err != nil {
		t.Fatal(err)
	}
	g := &Gateway{cfg: Config{TrustedProxies: proxies}}
	tests := []struct {
		peer string
		xff  []string
		want string
	}{
		{"203.0.113.7:1234", []string{"1.2.3.4"}, "203.0.113.7"},                          // untrusted peer: its header is ignored
		{"10.1.2.3:1234", nil, "10.1.2.3"},                                                // trusted peer, no header
		{"10.1.2.3:1234", []string{"198.51.100.9"}, "198.51.100.9"},                       // one proxy
		{"10.1.2.3:1234", []string{"6.6.6.6, 198.51.100.9, 192.168.1.5"}, "198.51.100.9"}, // right-most untrusted wins
		{"10.1.2.3:1234", []string{"6.6.6.6", "198.51.100.9"}, "198.51.100.9"},            // several header lines
		{"10.1.2.3:1234", []string{"6.6.6.6, garbage"}, "10.1.2.3"},                       // malformed: stop at the last trusted hop
		{"[fd00::1]:1234", []string{"2001:db8::5"}, "2001:db8::5"},
		{"10.1.2.3:1234", []string{"::ffff:198.51.100.9"}, "198.51.100.9"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tt.peer
		for _, v := range tt.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := g.clientAddress(r); got != tt.want {
			t.Errorf("%s %v: %s, want %s", tt.peer, tt.xff, got, tt.want)
		}
	}
	if _, err := ParseTrustedProxies("10.0.0.0/33"); err == nil {
		t.Error("a bad CIDR was accepted")
	}
	// Without trusted proxies the header never counts.
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "10.1.2.3:1"
	r.Header.Set("X-Forwarded-For", "1.2.3.4")
	if got := (&Gateway{}).clientAddress(r); got != "10.1.2.3" {
		t.Errorf("no trusted proxies: %s", got)
	}
}

// Behind a trusted proxy, the per-address throttle counts each forwarded
// client, not the proxy.
func TestThrottleBehindTrustedProxy(t *testing.T) {
	f, srv, _ := loginFixture(t)
	f.gw.cfg.TrustedProxies, _ = ParseTrustedProxies("127.0.0.0/8")
	f.gw.cfg.Throttle = accounts.Throttle{Window: 15 * time.Minute, PerAccount: 100, PerAddress: 2}
	from := func(b *browser, addr, user, pw string) page {
		h := http.Header{"X-Forwarded-For": {addr}}
		form := b.req("GET", loginPath, nil, h)
		return b.req("POST", loginPath, url.Values{"log": {user}, "pwd": {pw}, "_csrf": {formToken(t, form)}}, h)
	}
	attacker := newBrowser(t, srv.URL)
	for _, u := range []string{"x1", "x2"} {
		from(attacker, "198.51.100.66", u, "nope")
	}
	if p := from(attacker, "198.51.100.66", "ed", "correct horse"); p.status != 429 {
		t.Fatalf("the attacker's address is not locked: %d", p.status)
	}
	if p := from(newBrowser(t, srv.URL), "198.51.100.77", "ed", "correct horse"); p.status != 302 {
		t.Fatalf("another client behind the same proxy is locked out: %d", p.status)
	}
}

// cache-plugin/v1/tool/check_ip answers the trusted-proxy-aware address.
func TestCheckIPBehindTrustedProxy(t *testing.T) {
	f := newFixture(t)
	h := basic("admin", f.adminPW)
	h.Set("X-Forwarded-For", "198.51.100.3")
	// httptest requests come from 192.0.2.1.
	if rec, body := f.do("GET", "/cms-json/cache-plugin/v1/tool/check_ip", h); rec.Code != 200 || body["ip"] != "192.0.2.1" {
		t.Fatalf("untrusted peer: %d %s", rec.Code, rec.Body)
	}
	f.gw.cfg.TrustedProxies, _ = ParseTrustedProxies("192.0.2.0/24")
	if rec, body := f.do("GET", "/cms-json/cache-plugin/v1/tool/check_ip", h); rec.Code != 200 || body["ip"] != "198.51.100.3" {
		t.Fatalf("trusted peer: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := f.do("GET", "/cms-json/cache-plugin/v1/tool/check_ip", http.Header{"X-Forwarded-For": {"198.51.100.3"}}); rec.Code != 401 {
		t.Fatalf("anonymous: %d", rec.Code)
	}
}
