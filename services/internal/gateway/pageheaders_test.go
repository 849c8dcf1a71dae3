package gateway

import (
	"net/url"
	"strings"
	"testing"
)

// Every HTML page the gateway serves (sign-in, its errors, sign-out, the
// authorisation page) carries the headers that keep it from being framed,
// sniffed, scripted or leaking its URL (issue 26 asks it of the website's
// pages; the gateway's had them, and keep them).
func TestGatewayPagesCarrySecurityHeaders(t *testing.T) {
	_, srv, _ := loginFixture(t)
	b := newBrowser(t, srv.URL)
	pages := map[string]page{"sign-in form": b.req("GET", loginPath, nil, nil)}
	pages["failed sign-in"] = b.login("ed", "wrong", nil)
	b.login("ed", "correct horse", nil)
	pages["signed-in status"] = b.req("GET", loginPath, nil, nil)
	pages["sign-out confirmation"] = b.req("GET", loginPath+"?action=logout", nil, nil)
	pages["authorisation"] = b.req("GET", authorizePath+"?"+url.Values{"app_name": {"Tool"}}.Encode(), nil, nil)
	for name, p := range pages {
		t.Run(name, func(t *testing.T) {
			if !strings.HasPrefix(p.header.Get("Content-Type"), "text/html") {
				t.Fatalf("%d %q: not a page", p.status, p.header.Get("Content-Type"))
			}
			csp := p.header.Get("Content-Security-Policy")
			for _, want := range []string{"default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'"} {
				if !strings.Contains(csp, want) {
					t.Errorf("CSP %q lacks %s", csp, want)
				}
			}
			for h, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"} {
				if got := p.header.Get(h); got != want {
					t.Errorf("%s %q, want %q", h, got, want)
				}
			}
		})
	}
}
