package stack

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// Sign-in through /cms-login.php and the cookie+nonce matrix against the
// running stack, including a request the gateway forwards to the content
// service (which must see the signed-in user, not anonymous).
func TestCookieNonceAuthentication(t *testing.T) {
	login, password := "cookie-author", "another typed password"
	if r := call(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": login, "email": "cookie@example.com",
		"password": password, "roles": []string{"author"}}, admin()...); r.Status != 201 {
		t.Fatalf("create user: %d %s", r.Status, r.Raw)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method, path string, form url.Values, header http.Header) (int, http.Header, string) {
		t.Helper()
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequest(method, st.Gateway+path, body)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		for k, v := range header {
			req.Header[k] = v
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, string(b)
	}
	_, _, page := do("GET", "/cms-login.php", nil, nil)
	m := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("login page: %s", page)
	}
	if s, h, _ := do("POST", "/cms-login.php", url.Values{"log": {login}, "pwd": {password}, "_csrf": {m[1]}}, nil); s != 302 || h.Get("Location") != "/cms-login.php" {
		t.Fatalf("sign in: %d %v", s, h)
	}
	s, _, nonce := do("GET", "/cms-admin/admin-ajax.php?action=rest-nonce", nil, nil)
	if s != 200 || len(nonce) != 20 {
		t.Fatalf("nonce: %d %q", s, nonce)
	}
	tests := []struct {
		name   string
		path   string
		header http.Header
		status int
		want   string
	}{
		{"cookie, no nonce: anonymous", "/cms-json/cms/v2/users/me", nil, 401, `"rest_not_logged_in"`},
		{"cookie + nonce: the user", "/cms-json/cms/v2/users/me?context=edit", http.Header{"X-Wp-Nonce": {nonce}}, 200, `"username":"` + login + `"`},
		{"cookie + nonce forwarded to content", "/cms-json/cms/v2/posts?context=edit&_fields=id", http.Header{"X-Wp-Nonce": {nonce}}, 200, `[`},
		{"cookie, no nonce, forwarded: anonymous", "/cms-json/cms/v2/posts?context=edit", nil, 401, `"rest_forbidden_context"`},
		{"cookie + bad nonce", "/cms-json/cms/v2/posts", http.Header{"X-Wp-Nonce": {"00000000000000000000"}}, 403, `{"code":"rest_cookie_invalid_nonce","message":"Cookie check failed","data":{"status":403}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, h, body := do("GET", tt.path, nil, tt.header)
			if s != tt.status || !strings.Contains(body, tt.want) {
				t.Fatalf("%d %s, want %d with %s", s, body, tt.status, tt.want)
			}
			if s == 200 && len(h.Get("X-WP-Nonce")) != 20 {
				t.Fatal("no fresh X-WP-Nonce")
			}
		})
	}

	// The website shows a signed-in visitor their own draft on the session
	// cookie alone (a page view needs no nonce); anonymous visitors get 404.
	t.Run("website: the session shows the visitor's draft", func(t *testing.T) {
		draft := `{"title":"Cookie draft","status":"draft"}`
		req, _ := http.NewRequest("POST", st.Gateway+"/cms-json/cms/v2/posts", strings.NewReader(draft))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-WP-Nonce", nonce)
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		id := regexp.MustCompile(`"id":(\d+)`).FindStringSubmatch(string(b))
		if res.StatusCode != 201 || id == nil {
			t.Fatalf("create draft: %d %s", res.StatusCode, b)
		}
		if s, _, body := do("GET", "/?p="+id[1], nil, nil); s != 200 || !strings.Contains(body, "Cookie draft") {
			t.Fatalf("signed-in visitor: %d %.300s", s, body)
		}
		anon, err := http.Get(st.Gateway + "/?p=" + id[1])
		if err != nil {
			t.Fatal(err)
		}
		anon.Body.Close()
		if anon.StatusCode != 404 {
			t.Fatalf("anonymous visitor: %d, want 404", anon.StatusCode)
		}
	})
}
