package gateway

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// A file URL's caller is identified as REST callers are, with an
// application password or the session cookie alone (no nonce), and media
// gets the signed identity (audience media) instead of the credentials;
// credentials that do not check out make the caller anonymous; an
// identified answer is neither served from nor stored in the edge cache
// (issue 26: the author of a private attachment got 404 for its file).
func TestUploadCallersAreIdentifiedForMedia(t *testing.T) {
	f, cache := cacheFixture(t)
	backends := []contract.Backend{{Name: contract.ServiceMedia, URL: contentURL(t, f)}}
	tb, err := routing.Compile(contract.RouteFile{Version: 1, Services: backends,
		Routes: []contract.Route{{Prefix: uploadsPrefix, Service: contract.ServiceMedia, Public: true}}})
	if err != nil {
		t.Fatal(err)
	}
	f.gw.cfg.Routes = routing.NewStatic(tb)
	token, _, err := f.store.CreateSession(context.Background(), f.admin.ID, time.Hour, "")
	if err != nil {
		t.Fatal(err)
	}
	cookie := func(v string) http.Header { return http.Header{"Cookie": {f.gw.sessionCookieName() + "=" + v}} }
	tests := []struct {
		name     string
		header   http.Header
		wantUser int64 // the user signed to media; 0: anonymous
	}{
		{"anonymous", nil, 0},
		{"application password", basic("admin", f.adminPW), f.admin.ID},
		{"session cookie without a nonce", cookie(token), f.admin.ID},
		{"wrong application password", basic("admin", accounts.GeneratePassword()), 0},
		{"stale session cookie", cookie("no-such-session"), 0},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			target := fmt.Sprintf("%s2026/11/file-%d.jpg", uploadsPrefix, i)
			before := len(*f.upstream)
			rec, _ := f.do("GET", target, tc.header)
			if rec.Code != http.StatusOK || len(*f.upstream) != before+1 {
				t.Fatalf("status %d, upstream asked %d times", rec.Code, len(*f.upstream)-before)
			}
			up := (*f.upstream)[before]
			if up.Header.Get("Authorization") != "" || up.Header.Get("Cookie") != "" {
				t.Fatalf("credentials forwarded: %v", up.Header)
			}
			var got int64
			if h := up.Header.Get(contract.IdentityHeader); h != "" {
				id, err := identity.Verify(identity.Static(testKey), contract.ServiceMedia, h, time.Now())
				if err != nil {
					t.Fatalf("identity for media: %v", err)
				}
				got = id.UserID
			}
			if got != tc.wantUser {
				t.Fatalf("signed user %d, want %d", got, tc.wantUser)
			}
			if tc.header != nil && (rec.Header().Get("X-Cache") != "" || cache.Stats().Entries != 0) {
				t.Fatalf("a request with credentials used the cache: X-Cache %q, %d entries", rec.Header().Get("X-Cache"), cache.Stats().Entries)
			}
			// A following anonymous reader gets the anonymous answer from
			// the cache, never what a caller with credentials got.
			if rec, _ := f.do("GET", target, nil); (rec.Header().Get("X-Cache") == "hit") != (tc.header == nil) {
				t.Fatalf("following anonymous request: X-Cache %q", rec.Header().Get("X-Cache"))
			}
			cache.Bump()
		})
	}
}
