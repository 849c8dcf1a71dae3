package gateway

import (
	"net/url"
	"testing"
)

// After signing in, redirect_to is followed only when, read as a browser
// reads a Location header, it stays on this site; otherwise the person
// lands on the sign-in page (issue 26: "/%09/evil.example/" was sent as
// "Location: /<TAB>/evil.example/", which browsers follow off-site).
func TestSignInRedirectIsNormalisedAsBrowsersRead(t *testing.T) {
	_, srv, _ := loginFixture(t)
	tests := []struct {
		name, target, location string
	}{
		{"tab between slashes", "/\t/evil.example/", loginPath},
		{"newline between slashes", "/\n/evil.example/", loginPath},
		{"carriage return and tab", "/\r\t/evil.example/", loginPath},
		{"backslash", `/\evil.example/`, loginPath},
		{"leading blank", " //evil.example/", loginPath},
		{"tab in scheme-relative", "/\t\\evil.example", loginPath},
		{"other origin", "http://evil.example/", loginPath},
		{"own path", "/cms-admin/authorize-application.php?app_name=X", "/cms-admin/authorize-application.php?app_name=X"},
		{"own path with a tab inside", "/cms-admin/authorize\t-application.php", "/cms-admin/authorize-application.php"},
		{"own origin", srv.URL + "/x", loginPath}, // the site URL is http://site.test, not the test server
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowser(t, srv.URL)
			p := b.login("ed", "correct horse", url.Values{"redirect_to": {tc.target}})
			if p.status != 302 || p.header.Get("Location") != tc.location {
				t.Fatalf("%d Location %q, want 302 %q", p.status, p.header.Get("Location"), tc.location)
			}
		})
	}
}
