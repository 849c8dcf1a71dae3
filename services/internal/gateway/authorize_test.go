package gateway

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

const testAppID = "5c2b1a7e-8f3d-4e6a-9b0c-1d2e3f4a5b6c"

func authorizeQuery(v map[string]string) string {
	q := url.Values{}
	for k, s := range v {
		q.Set(k, s)
	}
	return authorizePath + "?" + q.Encode()
}

func TestAuthorizeRequiresSignIn(t *testing.T) {
	_, srv, _ := loginFixture(t)
	b := newBrowser(t, srv.URL)
	target := authorizeQuery(map[string]string{"app_name": "Tool", "success_url": "https://app.example/cb"})
	p := b.req("GET", target, nil, nil)
	if p.status != 302 || p.header.Get("Location") != loginURL(target) {
		t.Fatalf("not signed in: %d %q", p.status, p.header.Get("Location"))
	}
	// Signing in comes back to the same request.
	if l := b.login("ed", "correct horse", url.Values{"redirect_to": {target}}); l.header.Get("Location") != target {
		t.Fatalf("after sign-in: %q", l.header.Get("Location"))
	}
	if p := b.req("GET", target, nil, nil); p.status != 200 || !strings.Contains(p.body, `id="app-name">Tool<`) {
		t.Fatalf("authorize page: %d %s", p.status, p.body)
	}
}

func TestAuthorizeValidation(t *testing.T) {
	_, srv, _ := loginFixture(t)
	b := newBrowser(t, srv.URL)
	b.login("ed", "correct horse", nil)
	tests := []struct {
		name    string
		params  map[string]string
		status  int
		problem string
	}{
		{"https", map[string]string{"app_name": "A", "app_id": testAppID, "success_url": "https://app.example/cb", "reject_url": "https://app.example/no"}, 200, ""},
		{"http loopback v4", map[string]string{"app_name": "A", "success_url": "http://127.0.0.1:8123/cb"}, 200, ""},
		{"http localhost", map[string]string{"app_name": "A", "success_url": "http://localhost:8123/cb"}, 200, ""},
		{"http loopback v6", map[string]string{"app_name": "A", "reject_url": "http://[::1]:9/x"}, 200, ""},
		{"no URLs", map[string]string{"app_name": "A"}, 200, ""},
		{"app_id not a UUID", map[string]string{"app_name": "A", "app_id": "not-a-uuid"}, 400, msgAppIDNotUUID},
		{"success over http", map[string]string{"app_name": "A", "success_url": "http://app.example/cb"}, 400, msgSuccessURLBad},
		{"success javascript", map[string]string{"app_name": "A", "success_url": "javascript:alert(1)"}, 400, msgSuccessURLBad},
		{"success relative", map[string]string{"app_name": "A", "success_url": "/cb"}, 400, msgSuccessURLBad},
		{"reject over http", map[string]string{"app_name": "A", "reject_url": "http://10.0.0.1/no"}, 400, msgRejectURLBad},
		{"reject with credentials", map[string]string{"app_name": "A", "reject_url": "https://u:p@app.example/no"}, 400, msgRejectURLBad},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := b.req("GET", authorizeQuery(tt.params), nil, nil)
			if p.status != tt.status {
				t.Fatalf("status %d, want %d: %s", p.status, tt.status, p.body)
			}
			if tt.problem != "" {
				if !strings.Contains(p.body, "<li>"+tt.problem+"</li>") || strings.Contains(p.body, `id="approve"`) {
					t.Fatalf("problem %q not shown alone: %s", tt.problem, p.body)
				}
				return
			}
			csp := p.header.Get("Content-Security-Policy")
			if u := tt.params["success_url"]; u != "" {
				pu, _ := url.Parse(u)
				if !strings.Contains(csp, "form-action 'self' "+pu.Scheme+"://"+pu.Host+";") {
					t.Fatalf("CSP %q does not allow the redirect to %s", csp, u)
				}
			}
			if strings.Contains(csp, "unsafe") || strings.Contains(p.body, "<script") {
				t.Fatalf("inline code allowed: %q", csp)
			}
		})
	}
}

func TestAuthorizeApproveAndReject(t *testing.T) {
	f, srv, _ := loginFixture(t)
	b := newBrowser(t, srv.URL)
	b.login("ed", "correct horse", nil)
	params := map[string]string{"app_name": "My Tool", "app_id": testAppID, "success_url": "https://app.example/cb?state=xyz", "reject_url": "https://app.example/no"}
	page := b.req("GET", authorizeQuery(params), nil, nil)
	tok := formToken(t, page)
	form := func(extra ...string) url.Values {
		v := url.Values{"_csrf": {tok}}
		for k, s := range params {
			v.Set(k, s)
		}
		for i := 0; i+1 < len(extra); i += 2 {
			v.Set(extra[i], extra[i+1])
		}
		return v
	}
	// Without the form token nothing is created.
	bad := form("approve", "1")
	bad.Del("_csrf")
	if p := b.req("POST", authorizePath, bad, nil); p.status != 400 {
		t.Fatalf("no token: %d", p.status)
	}
	// Another session's form token does not work either.
	other := newBrowser(t, srv.URL)
	other.login("ed", "correct horse", nil)
	if p := other.req("POST", authorizePath, form("approve", "1"), nil); p.status != 400 {
		t.Fatalf("foreign token: %d", p.status)
	}
	// Reject.
	p := b.req("POST", authorizePath, form("reject", "1"), nil)
	if p.status != 302 || p.header.Get("Location") != "https://app.example/no?success=false" {
		t.Fatalf("reject: %d %q", p.status, p.header.Get("Location"))
	}
	// Approve with a changed name.
	p = b.req("POST", authorizePath, form("approve", "1", "app_name", "Laptop tool"), nil)
	loc, _ := url.Parse(p.header.Get("Location"))
	if p.status != 302 || loc == nil || loc.Host != "app.example" || loc.Path != "/cb" {
		t.Fatalf("approve: %d %q", p.status, p.header.Get("Location"))
	}
	q := loc.Query()
	if q.Get("state") != "xyz" || q.Get("site_url") != "http://site.test" || q.Get("user_login") != "ed" || len(q.Get("password")) != 24 {
		t.Fatalf("redirect query %v", q)
	}
	if p.header.Get("Referrer-Policy") != "no-referrer" || p.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("redirect headers %v", p.header)
	}
	// The password works over Basic auth and is listed with its app_id.
	req, _ := http.NewRequest("GET", srv.URL+"/cms-json/cms/v2/users/me/application-passwords", nil)
	req.SetBasicAuth("ed", q.Get("password"))
	res, err := b.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var list []map[string]any
	_ = json.NewDecoder(res.Body).Decode(&list)
	res.Body.Close()
	if res.StatusCode != 200 || len(list) != 1 || list[0]["name"] != "Laptop tool" || list[0]["app_id"] != testAppID {
		t.Fatalf("application passwords: %d %v", res.StatusCode, list)
	}
	_ = f
	// Without a success_url the password is shown once on the page.
	delete(params, "success_url")
	delete(params, "reject_url")
	p = b.req("POST", authorizePath, form("approve", "1"), nil)
	if p.status != 200 || !strings.Contains(p.body, `id="new-password"`) {
		t.Fatalf("no success_url: %d %s", p.status, p.body)
	}
	// An empty name is refused.
	if p := b.req("POST", authorizePath, form("approve", "1", "app_name", " "), nil); p.status != 400 || !strings.Contains(p.body, msgAppNameMissing) {
		t.Fatalf("empty name: %d", p.status)
	}
	// A POST without a session goes to the sign-in page.
	if p := newBrowser(t, srv.URL).req("POST", authorizePath, form("approve", "1"), nil); p.status != 302 || !strings.HasPrefix(p.header.Get("Location"), loginPath) {
		t.Fatalf("anonymous POST: %d", p.status)
	}
}
