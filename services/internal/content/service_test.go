package content

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/service/servicetest"
	"siteplane.dev/services/pkg/contract"
)

// TestServiceStartsAsMainDoes runs Register under service.Run with the
// environment the supervisor sets, and checks the wiring: migrations, the
// REST routes (case-insensitive, signed identities), the route index and
// the rest_no_route answer of unknown paths.
func TestServiceStartsAsMainDoes(t *testing.T) {
	base := servicetest.Start(t, Options(), map[string]string{
		contract.EnvDatabaseURL: pgtest.NewDatabase(t), contract.EnvInternalKey: "k",
	}, Register)

	get := func(path string, who identity.Identity) (int, http.Header, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		if who.LoggedIn() {
			req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey([]byte("k")), contract.ServiceContent, who, time.Now().Add(time.Minute)))
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body any
		_ = json.NewDecoder(res.Body).Decode(&body)
		m, _ := body.(map[string]any)
		return res.StatusCode, res.Header, m
	}
	if code, h, _ := get("/CMS/v2/Posts/", identity.Identity{}); code != 200 || h.Get("X-WP-Total") != "0" {
		t.Fatalf("posts: %d %v", code, h)
	}
	if code, h, _ := get("/cms/v2/posts", identity.Identity{UserID: 1, Role: identity.Administrator}); code != 200 || h.Get("Allow") != "GET, POST" {
		t.Fatalf("signed caller: %d Allow %q", code, h.Get("Allow"))
	}
	if code, _, body := get(contract.RouteDescriptionsPath, identity.Identity{}); code != 200 || body["routes"] == nil {
		t.Fatalf("route index: %d", code)
	}
	if code, _, body := get("/cms/v2/nothing", identity.Identity{}); code != 404 || body["code"] != "rest_no_route" {
		t.Fatalf("unknown route: %d %v", code, body)
	}
}
