package stack

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/pkg/contract"
)

// browserAt is a person's browser against one gateway replica: its own
// cookie jar, no redirects followed. A jar keys cookies by host, not port,
// so two replicas on 127.0.0.1 see the same cookies, as two pods behind
// one Service do.
type browserAt struct {
	t   *testing.T
	c   *http.Client
	jar http.CookieJar
}

func newBrowserAt(t *testing.T) *browserAt {
	jar, _ := cookiejar.New(nil)
	return &browserAt{t: t, jar: jar, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

func (b *browserAt) do(method, target string, body io.Reader, header http.Header) (int, string) {
	b.t.Helper()
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		b.t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(raw)
}

// signIn posts the sign-in form of the gateway at base and returns the
// status of the answer (302 when signed in, 401 with an error otherwise,
// 429 when throttled).
func (b *browserAt) signIn(base, login, password string) (int, string) {
	b.t.Helper()
	_, page := b.do("GET", base+"/cms-login.php", nil, nil)
	m := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindStringSubmatch(page)
	if m == nil {
		b.t.Fatalf("no sign-in form on %s: %.300s", base, page)
	}
	form := url.Values{"log": {login}, "pwd": {password}, "_csrf": {m[1]}}
	return b.do("POST", base+"/cms-login.php", strings.NewReader(form.Encode()),
		http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
}

// A second gateway replica honours what the first one granted or refused:
// the session and nonce of a sign-in on A work on B; failed sign-ins on A
// and B count together towards one lock-out (PostgreSQL, not the replica's
// memory); an application password revoked through A is refused by B
// within the change notification's delay; a post published through A
// shows on B's website page at once. The marketplace's purchase-validation
// limit is the one state kept per replica (docs/replicas.md).
func TestSharedStateAcrossGatewayReplicas(t *testing.T) {
	needs(t, contract.ServiceContent)
	a, b := st.Gateway, startSecondGateway(t)
	login, password := "replica-author", "a password for two replicas"
	u := call(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": login, "email": "replica@example.com",
		"password": password, "roles": []string{"author"}}, admin()...)
	if u.Status != 201 {
		t.Fatalf("create user: %d %s", u.Status, u.Raw)
	}
	userID := fmt.Sprint(u.Obj()["id"])

	t.Run("a session and nonce from A act on B", func(t *testing.T) {
		br := newBrowserAt(t)
		if s, body := br.signIn(a, login, password); s != http.StatusFound {
			t.Fatalf("sign in on A: %d %.300s", s, body)
		}
		s, nonce := br.do("GET", a+"/cms-admin/admin-ajax.php?action=rest-nonce", nil, nil)
		if s != 200 || len(nonce) != 20 {
			t.Fatalf("nonce from A: %d %q", s, nonce)
		}
		s, body := br.do("POST", b+"/cms-json/cms/v2/posts", strings.NewReader(`{"title":"Written on B","status":"draft"}`),
			http.Header{"Content-Type": {"application/json"}, "X-Wp-Nonce": {nonce}})
		if s != 201 || !strings.Contains(body, `"author":`+userID) {
			t.Fatalf("create on B with A's session and nonce: %d %.300s", s, body)
		}
	})

	t.Run("failed sign-ins on A and B count together", func(t *testing.T) {
		// The account's limit is 5 failures a window: 3 on A, 2 on B.
		br := newBrowserAt(t)
		for i, gw := range []string{a, a, a, b, b} {
			if s, body := br.signIn(gw, login, "not the password"); s != http.StatusUnauthorized || !strings.Contains(body, "incorrect") {
				t.Fatalf("failure %d: %d %.200s", i+1, s, body)
			}
		}
		for _, gw := range []string{a, b} {
			if s, body := br.signIn(gw, login, password); s != http.StatusTooManyRequests || !strings.Contains(body, "Too many failed sign-in attempts") {
				t.Errorf("right password after 5 failures split over two replicas, on %s: %d %.200s; want 429", gw, s, body)
			}
		}
		// Unlock the account for the other tests: a successful sign-in
		// would clear its counter, and none can happen now
		conn, err := pgx.Connect(context.Background(), st.dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		// (and take this test's failures off the address's counter, which
		// the other tests' sign-ins from 127.0.0.1 share)
		if _, err := conn.Exec(context.Background(), `DELETE FROM gateway.login_failures WHERE key = 'login:' || $1`, login); err != nil {
			t.Fatalf("clear the lock-out: %v", err)
		}
		if _, err := conn.Exec(context.Background(), `UPDATE gateway.login_failures SET failures = greatest(failures - 5, 0) WHERE key = 'addr:127.0.0.1'`); err != nil {
			t.Fatalf("clear the address's failures: %v", err)
		}
	})

	t.Run("an application password revoked on A is refused on B", func(t *testing.T) {
		r := call(t, "POST", "/cms-json/cms/v2/users/"+userID+"/application-passwords", map[string]any{"name": "replicas"}, admin()...)
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Raw)
		}
		pw, uuid := fmt.Sprint(r.Obj()["password"]), fmt.Sprint(r.Obj()["uuid"])
		me := func(base string) int {
			req, _ := http.NewRequest("GET", base+"/cms-json/cms/v2/users/me", nil)
			req.SetBasicAuth(login, pw)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			return res.StatusCode
		}
		// Both replicas verify it (and keep it in their credential caches).
		for _, gw := range []string{a, b} {
			if s := me(gw); s != 200 {
				t.Fatalf("%s: %d before the revocation", gw, s)
			}
		}
		if r := call(t, "DELETE", "/cms-json/cms/v2/users/"+userID+"/application-passwords/"+uuid, nil, admin()...); r.Status != 200 {
			t.Fatalf("revoke on A: %d %s", r.Status, r.Raw)
		}
		revoked := time.Now()
		if s := me(a); s != 401 {
			t.Fatalf("A after the revocation: %d, want 401", s)
		}
		for me(b) != 401 {
			if time.Since(revoked) > 5*time.Second {
				t.Fatal("B still accepts the revoked password 5 s later")
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Logf("B refused the revoked password %s after the revocation", time.Since(revoked).Round(time.Millisecond))
	})

	t.Run("a post published through A shows on B's website", func(t *testing.T) {
		// B caches the front page first.
		for range 2 {
			if s, _ := newBrowserAt(t).do("GET", b+"/", nil, nil); s != 200 {
				t.Fatalf("front page on B: %d", s)
			}
		}
		title := fmt.Sprintf("Replica news %d", time.Now().UnixNano())
		if r := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": title, "status": "publish"}, admin()...); r.Status != 201 {
			t.Fatalf("publish on A: %d %.300s", r.Status, r.Raw)
		}
		written := time.Now()
		for {
			_, page := newBrowserAt(t).do("GET", b+"/", nil, nil)
			if strings.Contains(page, title) {
				break
			}
			if time.Since(written) > 5*time.Second {
				t.Fatal("B's front page lacks the new post 5 s after it was published on A")
			}
			time.Sleep(2 * time.Millisecond)
		}
		t.Logf("B's front page showed the post %s after the write on A", time.Since(written).Round(time.Millisecond))
	})
}
