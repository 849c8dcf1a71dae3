package gateway

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"siteplane.dev/services/internal/gateway/accounts"
)

// Failed application passwords are throttled per account (whichever
// identifier was typed) and per address, as the sign-in page is; in
// issue 26, 300 wrong passwords in a second were all checked.
func TestApplicationPasswordFailuresAreThrottled(t *testing.T) {
	tests := []struct {
		name string
		// logins are typed in turn, each with a wrong password, from one address.
		logins  func(i int) string
		tries   int
		remote  string
		lastNot int // the status the last try must not have (its check ran)
	}{
		{"one account by login and e-mail", func(i int) string {
			if i%2 == 0 {
				return "admin"
			}
			return "ADMIN@example.com"
		}, 51, "192.0.2.1:1000", http.StatusUnauthorized},
		{"one address, unknown logins", func(i int) string { return fmt.Sprintf("ghost%d", i) }, 101, "192.0.2.2:1000", http.StatusUnauthorized},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			var last *http.Response
			for i := range tc.tries {
				req := newReq(http.MethodGet, "/cms-json/cms/v2/posts", tc.remote)
				req.SetBasicAuth(tc.logins(i), "wrongwrongwrongwrongwron")
				rec := serveRec(f.gw, req)
				last = rec
				if i < tc.tries-1 && rec.StatusCode != http.StatusUnauthorized {
					t.Fatalf("try %d: %d", i, rec.StatusCode)
				}
			}
			if last.StatusCode != http.StatusTooManyRequests || last.Header.Get("Retry-After") == "" {
				t.Fatalf("after %d failures: %d Retry-After %q, want 429", tc.tries-1, last.StatusCode, last.Header.Get("Retry-After"))
			}
			// The right password is refused unchecked too, until the window
			// ends; another address is not affected by an account's lock
			// only when the address was the reason.
			req := newReq(http.MethodGet, "/cms-json/cms/v2/users/me", tc.remote)
			req.SetBasicAuth("admin", f.adminPW)
			if rec := serveRec(f.gw, req); tc.name == "one address, unknown logins" && rec.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("locked address let a password through: %d", rec.StatusCode)
			}
			now := time.Now().Add(16 * time.Minute)
			f.store.SetClock(func() time.Time { return now })
			if rec := serveRec(f.gw, req); rec.StatusCode != http.StatusOK {
				t.Fatalf("after the window: %d", rec.StatusCode)
			}
		})
	}
}

// Five wrong sign-ins by login and then by e-mail address count for one
// account: one lock-out bucket, whichever identifier was typed.
func TestSignInThrottleHasOneBucketPerAccount(t *testing.T) {
	f, srv, _ := loginFixture(t)
	f.gw.cfg.Throttle = accounts.Throttle{Window: 15 * time.Minute, PerAccount: 4, PerAddress: 100}
	b := newBrowser(t, srv.URL)
	for i, login := range []string{"ed", "ed@example.com", "ED", "Ed@Example.com"} {
		if p := b.login(login, "nope", nil); p.status != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i, p.status)
		}
	}
	for _, login := range []string{"ed", "ed@example.com"} {
		if p := b.login(login, "correct horse", nil); p.status != http.StatusTooManyRequests {
			t.Fatalf("%s after 4 failures over both identifiers: %d, want 429", login, p.status)
		}
	}
}

// newReq is a client request from remote (host:port).
func newReq(method, target, remote string) *http.Request {
	req := httptest.NewRequest(method, target, nil)
	req.RemoteAddr = remote
	return req
}

// serveRec serves req with h and returns the answer.
func serveRec(h http.Handler, req *http.Request) *http.Response {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}
