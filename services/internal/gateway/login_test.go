package gateway

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/gateway/accounts"
)

// browser is an HTTP client that keeps cookies and does not follow
// redirects, talking to a real server in front of the gateway.
type browser struct {
	t      *testing.T
	base   string
	client *http.Client
}

func newBrowser(t *testing.T, base string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: base, client: &http.Client{Jar: jar, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

type page struct {
	status int
	header http.Header
	body   string
}

func (b *browser) req(method, path string, form url.Values, header http.Header) page {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.base+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return page{status: res.StatusCode, header: res.Header, body: string(raw)}
}

var csrfRe = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

func formToken(t *testing.T, p page) string {
	t.Helper()
	m := csrfRe.FindStringSubmatch(p.body)
	if m == nil {
		t.Fatalf("no form token in page %d:\n%s", p.status, p.body)
	}
	return m[1]
}

// login signs in through the form and returns the answer to the POST.
func (b *browser) login(user, pw string, extra url.Values) page {
	b.t.Helper()
	form := b.req("GET", loginPath, nil, nil)
	if form.status != 200 {
		b.t.Fatalf("login page: %d", form.status)
	}
	v := url.Values{"log": {user}, "pwd": {pw}, "_csrf": {formToken(b.t, form)}}
	for k, vs := range extra {
		v[k] = vs
	}
	return b.req("POST", loginPath, v, nil)
}

func (b *browser) restNonce() string {
	b.t.Helper()
	p := b.req("GET", ajaxPath+"?action=rest-nonce", nil, nil)
	if p.status != 200 || len(p.body) != 20 {
		b.t.Fatalf("rest-nonce: %d %q", p.status, p.body)
	}
	return p.body
}

func jsonOf(t *testing.T, p page) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(p.body), &m); err != nil {
		t.Fatalf("not JSON (%d): %s", p.status, p.body)
	}
	return m
}

// loginFixture is a gateway behind a real server with an editor that has a
// login password set through the users route.
func loginFixture(t *testing.T) (*fixture, *httptest.Server, int64) {
	f := newFixture(t)
	srv := httptest.NewServer(f.gw)
	t.Cleanup(srv.Close)
	u := createLoginUser(t, srv.URL, f.adminPW, `{"username":"ed","email":"ed@example.com","password":"correct horse","roles":["editor"]}`)
	return f, srv, int64(u["id"].(float64))
}

// createLoginUser creates a user with a login password through the users
// route, as the administrator.
func createLoginUser(t *testing.T, base, adminPW, body string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/cms-json/cms/v2/users", strings.NewReader(body))
	req.SetBasicAuth("admin", adminPW)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var u map[string]any
	_ = json.NewDecoder(res.Body).Decode(&u)
	if res.StatusCode != 201 {
		t.Fatalf("create user: %d %v", res.StatusCode, u)
	}
	if _, ok := u["password"]; ok {
		t.Fatal("the login password is echoed back")
	}
	return u
}

func TestLoginPasswordHashing(t *testing.T) {
	h, err := accounts.HashLoginPassword("s3cret pass")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q is not an argon2id PHC string with the documented parameters", h)
	}
	h2, _ := accounts.HashLoginPassword("s3cret pass")
	if h == h2 {
		t.Fatal("two hashes of one password are equal (no salt)")
	}
	if !accounts.VerifyLoginPassword(h, "s3cret pass") || accounts.VerifyLoginPassword(h, "s3cret pasS") {
		t.Fatal("verification is wrong")
	}
	for _, bad := range []string{"", "plain", strings.Replace(h, "m=19456", "m=99999999", 1), strings.Replace(h, "argon2id", "argon2i", 1)} {
		if accounts.VerifyLoginPassword(bad, "s3cret pass") {
			t.Errorf("%q verified", bad)
		}
	}
	for pw, want := range map[string]error{"": accounts.ErrPasswordEmpty, `a\b`: accounts.ErrPasswordBackslash,
		strings.Repeat("x", accounts.MaxLoginPasswordBytes+1): accounts.ErrPasswordTooLong} {
		if _, err := accounts.HashLoginPassword(pw); err != want {
			t.Errorf("HashLoginPassword(%.10q) = %v, want %v", pw, err, want)
		}
	}
}

func TestUsersRoutePasswordRules(t *testing.T) {
	f, srv, id := loginFixture(t)
	b := newBrowser(t, srv.URL)
	admin := http.Header{"Authorization": basic("admin", f.adminPW)["Authorization"], "Content-Type": {"application/json"}}
	for _, tt := range []struct{ body, message string }{
		{`{"password":""}`, "Passwords cannot be empty."},
		{`{"password":"a\\b"}`, `Passwords cannot contain the "\" character.`},
	} {
		req, _ := http.NewRequest("POST", srv.URL+"/cms-json/cms/v2/users/"+jsonNum(id), strings.NewReader(tt.body))
		req.Header = admin.Clone()
		res, err := b.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		_ = json.NewDecoder(res.Body).Decode(&m)
		res.Body.Close()
		if res.StatusCode != 400 || m["code"] != "rest_user_invalid_password" || m["message"] != tt.message {
			t.Errorf("%s: %d %v", tt.body, res.StatusCode, m)
		}
	}
	if p := b.login("ed", "correct horse", nil); p.status != 302 {
		t.Fatalf("the password set at creation does not sign in: %d", p.status)
	}
}

func jsonNum(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestLoginSetsSessionCookie(t *testing.T) {
	_, srv, _ := loginFixture(t)
	b := newBrowser(t, srv.URL)
	form := b.req("GET", loginPath+"?redirect_to=%2Fcms-admin%2Fauthorize-application.php%3Fapp_name%3DX", nil, nil)
	for _, h := range []string{"Content-Security-Policy", "X-Frame-Options", "Cache-Control"} {
		if form.header.Get(h) == "" {
			t.Errorf("login page without %s", h)
		}
	}
	csp := form.header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe") || strings.Contains(form.body, "<script") || strings.Contains(form.body, "style=") {
		t.Errorf("CSP %q or page allows inline code", csp)
	}
	for _, want := range []string{`name="log"`, `name="pwd"`, `name="redirect_to" value="/cms-admin/authorize-application.php?app_name=X"`, `<label for="user_login">`, `lang="en"`} {
		if !strings.Contains(form.body, want) {
			t.Errorf("login page lacks %s", want)
		}
	}
	p := b.req("POST", loginPath, url.Values{"log": {"ed@example.com"}, "pwd": {"correct horse"}, "_csrf": {formToken(t, form)},
		"redirect_to": {"/cms-admin/authorize-application.php?app_name=X"}}, nil)
	if p.status != 302 || p.header.Get("Location") != "/cms-admin/authorize-application.php?app_name=X" {
		t.Fatalf("login: %d %q", p.status, p.header.Get("Location"))
	}
	var session *http.Cookie
	for _, c := range (&http.Response{Header: p.header}).Cookies() {
		if c.Name == "siteplane_session" {
			session = c
		}
	}
	if session == nil || !session.HttpOnly || session.SameSite != http.SameSiteLaxMode || session.Secure || session.MaxAge != 0 || len(session.Value) < 40 {
		t.Fatalf("session cookie %+v", session)
	}
	// The status page shows who is signed in and the REST nonce.
	st := b.req("GET", loginPath, nil, nil)
	if st.status != 200 || !strings.Contains(st.body, `id="user">ed<`) || !regexp.MustCompile(`<meta name="cms-rest-nonce" content="[0-9a-f]{20}">`).MatchString(st.body) {
		t.Fatalf("status page: %d %s", st.status, st.body)
	}
	// An external redirect_to is not followed.
	b2 := newBrowser(t, srv.URL)
	if p := b2.login("ed", "correct horse", url.Values{"redirect_to": {"https://evil.example/"}}); p.header.Get("Location") != loginPath {
		t.Fatalf("external redirect_to followed: %q", p.header.Get("Location"))
	}
	b3 := newBrowser(t, srv.URL)
	if p := b3.login("ed", "correct horse", url.Values{"redirect_to": {"//evil.example/x"}}); p.header.Get("Location") != loginPath {
		t.Fatalf("scheme-relative redirect_to followed: %q", p.header.Get("Location"))
	}
}

func TestSecureSiteCookies(t *testing.T) {
	f := newFixture(t)
	f.gw.site, _ = url.Parse("https://site.test")
	rec := httptest.NewRecorder()
	f.gw.ServeHTTP(rec, httptest.NewRequest("GET", loginPath, nil))
	var found bool
	for _, c := range rec.Result().Cookies() {
		if c.Name == "__Host-siteplane_login" {
			found = c.Secure && c.HttpOnly && c.Path == "/" && c.Domain == ""
		}
	}
	if !found {
		t.Fatalf("https site: cookies %v", rec.Result().Header["Set-Cookie"])
	}
}

func TestLoginFormToken(t *testing.T) {
	_, srv, _ := loginFixture(t)
	b := newBrowser(t, srv.URL)
	b.req("GET", loginPath, nil, nil)
	if p := b.req("POST", loginPath, url.Values{"log": {"ed"}, "pwd": {"correct horse"}}, nil); p.status != 400 || !strings.Contains(p.body, "expired") {
		t.Fatalf("no token: %d", p.status)
	}
	// A token minted for another browser's pre-login cookie does not work.
	other := newBrowser(t, srv.URL)
	tok := formToken(t, other.req("GET", loginPath, nil, nil))
	if p := b.req("POST", loginPath, url.Values{"log": {"ed"}, "pwd": {"correct horse"}, "_csrf": {tok}}, nil); p.status != 400 {
		t.Fatalf("foreign token: %d", p.status)
	}
	if p := b.login("", "", nil); p.status != 400 || !strings.Contains(p.body, "Enter your username") {
		t.Fatalf("empty form: %d", p.status)
	}
}

var errMsgRe = regexp.MustCompile(`role="alert" id="error">([^<]*)<`)

func TestLoginFailuresLookAlike(t *testing.T) {
	f, srv, _ := loginFixture(t)
	f.gw.cfg.Throttle = accounts.Throttle{Window: time.Minute, PerAccount: 1000, PerAddress: 1000}
	b := newBrowser(t, srv.URL)
	timed := func(user string) (page, time.Duration) {
		form := b.req("GET", loginPath, nil, nil)
		v := url.Values{"log": {user}, "pwd": {"wrong horse"}, "_csrf": {formToken(t, form)}}
		start := time.Now()
		p := b.req("POST", loginPath, v, nil)
		return p, time.Since(start)
	}
	minOf := func(user string) (page, time.Duration) {
		var best time.Duration
		var last page
		for i := 0; i < 3; i++ {
			p, d := timed(user)
			if i == 0 || d < best {
				best = d
			}
			last = p
		}
		return last, best
	}
	wrong, dWrong := minOf("ed")
	unknown, dUnknown := minOf("nobody")
	unknownEmail, _ := minOf("nobody@example.com")
	for _, p := range []page{wrong, unknown, unknownEmail} {
		m := errMsgRe.FindStringSubmatch(p.body)
		if p.status != 401 || m == nil || m[1] != msgBadLogin {
			t.Fatalf("failed login: %d %v", p.status, m)
		}
	}
	// The unknown login pays for an argon2id verification too: without the
	// dummy hash it would answer an order of magnitude faster.
	if dUnknown*3 < dWrong {
		t.Fatalf("unknown login answered in %v, wrong password in %v: timing tells them apart", dUnknown, dWrong)
	}
	t.Logf("fastest failed login: wrong password %v, unknown login %v", dWrong, dUnknown)
}

func TestLoginThrottling(t *testing.T) {
	f, srv, _ := loginFixture(t)
	now := time.Now()
	clock := func() time.Time { return now }
	f.store.SetClock(func() time.Time { return clock() })
	f.gw.cfg.Throttle = accounts.Throttle{Window: 15 * time.Minute, PerAccount: 3, PerAddress: 100}
	b := newBrowser(t, srv.URL)
	for i := 0; i < 3; i++ {
		if p := b.login("ed", "nope", nil); p.status != 401 {
			t.Fatalf("failure %d: %d", i, p.status)
		}
	}
	p := b.login("ed", "correct horse", nil)
	m := errMsgRe.FindStringSubmatch(p.body)
	if p.status != 429 || m == nil || m[1] != "Too many failed sign-in attempts. Please try again in 15 minutes." || p.header.Get("Retry-After") != "900" {
		t.Fatalf("locked account: %d %v %q", p.status, m, p.header.Get("Retry-After"))
	}
	// Unknown logins lock the same way, so the lock-out reveals nothing.
	for i := 0; i < 3; i++ {
		b.login("ghost", "nope", nil)
	}
	if p := b.login("ghost", "nope", nil); p.status != 429 {
		t.Fatalf("unknown login not throttled: %d", p.status)
	}
	// Another account is not affected; the window ends.
	f.gw.cfg.Throttle.PerAddress = 100
	now = now.Add(16 * time.Minute)
	if p := b.login("ed", "correct horse", nil); p.status != 302 {
		t.Fatalf("after the window: %d", p.status)
	}
	// Per address: failures on many logins from one address lock it.
	f.gw.cfg.Throttle = accounts.Throttle{Window: 15 * time.Minute, PerAccount: 100, PerAddress: 3}
	now = now.Add(16 * time.Minute)
	b2 := newBrowser(t, srv.URL)
	for _, u := range []string{"a1", "a2", "a3"} {
		b2.login(u, "nope", nil)
	}
	if p := b2.login("ed", "correct horse", nil); p.status != 429 {
		t.Fatalf("address not throttled: %d", p.status)
	}
}

func TestCookieNonceMatrix(t *testing.T) {
	f, srv, id := loginFixture(t)
	b := newBrowser(t, srv.URL)
	if p := b.login("ed", "correct horse", nil); p.status != 302 {
		t.Fatalf("login: %d %s", p.status, p.body)
	}
	nonce := b.restNonce()
	me := "/cms-json/cms/v2/users/me"
	other := newBrowser(t, srv.URL)
	other.login("ed", "correct horse", nil)
	otherNonce := other.restNonce()
	anon := newBrowser(t, srv.URL)

	tests := []struct {
		name   string
		b      *browser
		method string
		path   string
		form   url.Values
		header http.Header
		status int
		code   string
	}{
		{"no cookie, no nonce", anon, "GET", me, nil, nil, 401, "rest_not_logged_in"},
		{"cookie without nonce is anonymous", b, "GET", me, nil, nil, 401, "rest_not_logged_in"},
		{"cookie + X-WP-Nonce", b, "GET", me, nil, http.Header{"X-Wp-Nonce": {nonce}}, 200, ""},
		{"cookie + _wpnonce query", b, "GET", me + "?_wpnonce=" + nonce, nil, nil, 200, ""},
		{"cookie + _wpnonce form field", b, "POST", me, url.Values{"_wpnonce": {nonce}, "first_name": {"Edith"}}, nil, 200, ""},
		{"cookie + bad nonce", b, "GET", me, nil, http.Header{"X-Wp-Nonce": {"0123456789abcdef0123"}}, 403, "rest_cookie_invalid_nonce"},
		{"bad nonce before routing", b, "GET", "/cms-json/nope/v1/x", nil, http.Header{"X-Wp-Nonce": {"garbage"}}, 403, "rest_cookie_invalid_nonce"},
		{"another session's nonce", b, "GET", me, nil, http.Header{"X-Wp-Nonce": {otherNonce}}, 403, "rest_cookie_invalid_nonce"},
		{"nonce without cookie is anonymous", anon, "GET", me, nil, http.Header{"X-Wp-Nonce": {nonce}}, 401, "rest_not_logged_in"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.b.req(tt.method, tt.path, tt.form, tt.header)
			m := jsonOf(t, p)
			if p.status != tt.status {
				t.Fatalf("status %d, want %d: %s", p.status, tt.status, p.body)
			}
			if tt.code != "" {
				if m["code"] != tt.code {
					t.Fatalf("code %v, want %s", m["code"], tt.code)
				}
				if tt.code == "rest_cookie_invalid_nonce" && (m["message"] != "Cookie check failed" || !strings.Contains(p.header.Get("Cache-Control"), "no-cache")) {
					t.Fatalf("nonce error %v, Cache-Control %q", m, p.header.Get("Cache-Control"))
				}
				return
			}
			if m["id"] != float64(id) {
				t.Fatalf("acted as %v, want %d", m["id"], id)
			}
			if n := p.header.Get("X-WP-Nonce"); len(n) != 20 {
				t.Fatalf("no fresh X-WP-Nonce: %q", n)
			}
		})
	}
	if u, _ := f.store.UserByID(context.Background(), id); u.FirstName != "Edith" {
		t.Fatalf("the form-body nonce request did not write: %+v", u)
	}

	// Nonces live 12 to 24 hours: until the end of the tick after the one
	// they were made in. The checks are placed on the tick boundaries, so
	// that they hold at any time of day the test runs.
	base := time.Now()
	tickStart := time.Unix(0, base.UnixNano()/int64(nonceTick)*int64(nonceTick))
	for _, c := range []struct {
		name   string
		at     time.Time
		status int
	}{
		{"12h-old nonce", base.Add(12 * time.Hour), 200},
		{"nonce at the last second of the next tick", tickStart.Add(2*nonceTick - time.Second), 200},
		{"nonce two ticks on", tickStart.Add(2 * nonceTick), 403},
		{"25h-old nonce", base.Add(25 * time.Hour), 403},
	} {
		f.gw.cfg.Now = func() time.Time { return c.at }
		if p := b.req("GET", me, nil, http.Header{"X-Wp-Nonce": {nonce}}); p.status != c.status {
			t.Fatalf("%s: %d, want %d", c.name, p.status, c.status)
		}
	}
	f.gw.cfg.Now = time.Now

	// Logging out voids the session's nonces.
	logout := b.req("GET", loginPath+"?action=logout", nil, nil)
	if p := b.req("POST", loginPath+"?action=logout", url.Values{"_csrf": {formToken(t, logout)}}, nil); p.status != 302 || p.header.Get("Location") != loginPath+"?loggedout=true" {
		t.Fatalf("logout: %d %q", p.status, p.header.Get("Location"))
	}
	if p := other.req("GET", ajaxPath+"?action=rest-nonce", nil, nil); p.status != 200 {
		t.Fatal("logging out one session ended another")
	}
	// The browser dropped its cookie; a kept copy of it is void too.
	jar := b.client.Jar
	u, _ := url.Parse(srv.URL)
	if len(jar.Cookies(u)) != 0 {
		t.Fatalf("cookies after logout: %v", jar.Cookies(u))
	}
	if p := anon.req("GET", ajaxPath+"?action=rest-nonce", nil, nil); p.status != 400 || p.body != "0" {
		t.Fatalf("rest-nonce without a session: %d %q", p.status, p.body)
	}
	// A password change ends every session of the user.
	req, _ := http.NewRequest("POST", srv.URL+"/cms-json/cms/v2/users/"+jsonNum(id), strings.NewReader(`{"password":"new horse"}`))
	req.SetBasicAuth("admin", f.adminPW)
	req.Header.Set("Content-Type", "application/json")
	res, err := other.client.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("password change: %v %v", err, res)
	}
	res.Body.Close()
	if p := other.req("GET", me, nil, http.Header{"X-Wp-Nonce": {otherNonce}}); p.status != 403 {
		t.Fatalf("session survived the password change: %d", p.status)
	}
	if p := newBrowser(t, srv.URL).login("ed", "new horse", nil); p.status != 302 {
		t.Fatalf("new password: %d", p.status)
	}
}
