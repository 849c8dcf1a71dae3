package stack

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// signIn signs login in at /cms-login.php and returns a client holding the
// session cookie (and following no redirects).
func signIn(t *testing.T, login, password string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	m := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindStringSubmatch(string(pageWith(t, c, "GET", "/cms-login.php").Raw))
	if m == nil {
		t.Fatal("no _csrf on the sign-in page")
	}
	form := url.Values{"log": {login}, "pwd": {password}, "_csrf": {m[1]}}
	res, err := c.Post(st.SiteURL+"/cms-login.php", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		t.Fatalf("sign in %s: %d", login, res.StatusCode)
	}
	return c
}

// A private attachment's file through the gateway (issue 26): its author
// and administrators get it, with an application password or the sign-in
// cookie alone; another author and anonymous callers get 404; the answer
// never enters the edge cache, and public files still do.
func TestPrivateFilesThroughGateway(t *testing.T) {
	needs(t, contract.ServiceMedia)
	login, password := fmt.Sprintf("pf-author-%d", time.Now().UnixNano()), "private files typed password"
	u := call(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": login, "email": login + "@example.com",
		"password": password, "roles": []string{"author"}}, admin()...)
	if u.Status != 201 {
		t.Fatalf("create author: %d %s", u.Status, u.Raw)
	}
	ap := call(t, "POST", fmt.Sprintf("/cms-json/cms/v2/users/%v/application-passwords", u.Obj()["id"]), map[string]any{"name": "pf"}, admin()...)
	if ap.Status != 201 {
		t.Fatalf("application password: %d %s", ap.Status, ap.Raw)
	}
	author := []string{login, ap.Obj()["password"].(string)}
	upload := func(name string, status string) string {
		t.Helper()
		r := send(t, "POST", "/cms-json/cms/v2/media", sampleJPEG(t, 64, 48), http.Header{
			"Content-Type": {"image/jpeg"}, "Content-Disposition": {`attachment; filename="` + name + `"`}}, author...)
		if r.Status != 201 {
			t.Fatalf("upload: %d %.300s", r.Status, r.Raw)
		}
		if status != "inherit" {
			if s := call(t, "POST", fmt.Sprintf("/cms-json/cms/v2/media/%v", r.Obj()["id"]), map[string]any{"status": status}, author...); s.Status != 200 {
				t.Fatalf("make %s: %d %.300s", status, s.Status, s.Raw)
			}
		}
		return uploadPath(t, r.Obj()["source_url"].(string))
	}
	private := upload("pf-private.jpg", "private")
	cookie := signIn(t, login, password)
	basic := func(creds []string) func(string) *Response {
		return func(p string) *Response { return page(t, "GET", p, creds...) }
	}
	tests := []struct {
		name   string
		get    func(string) *Response
		status int
	}{
		{"anonymous before anyone read it", basic(nil), 404},
		{"its author, application password", basic(author), 200},
		{"its author, sign-in cookie only", func(p string) *Response { return pageWith(t, cookie, "GET", p) }, 200},
		{"an administrator", basic(admin()), 200},
		{"another author", basic(roleUser(t, "author")), 404},
		{"wrong application password: anonymous", basic([]string{login, "wrong wrong wrong"}), 404},
		{"anonymous after its readers", basic(nil), 404},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.get(private)
			if r.Status != tc.status || r.Header.Get("X-Cache") == "hit" {
				t.Fatalf("%d X-Cache %q, want %d and no hit", r.Status, r.Header.Get("X-Cache"), tc.status)
			}
			if tc.status == 200 && (r.Header.Get("Cache-Control") != "private, no-cache" || r.Header.Get("X-Cache") != "") {
				t.Fatalf("Cache-Control %q X-Cache %q, want private and no cache", r.Header.Get("Cache-Control"), r.Header.Get("X-Cache"))
			}
		})
	}
	t.Run("a public file is still cached for anonymous readers", func(t *testing.T) {
		public := upload("pf-public.jpg", "inherit")
		// A write's notification may land after the first read was
		// stored and start a new generation: wait for a hit (2 s at most).
		for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			r := page(t, "GET", public)
			if r.Status != 200 {
				t.Fatalf("public file: %d", r.Status)
			}
			if r.Header.Get("X-Cache") == "hit" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("public file never served from the cache: X-Cache %q", r.Header.Get("X-Cache"))
			}
		}
	})
}
