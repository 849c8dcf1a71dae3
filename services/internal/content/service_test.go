package content

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/service"
	"siteplane.dev/services/pkg/contract"
)

// TestServiceStartsAsMainDoes runs Register under service.Run with the
// environment the supervisor sets, and checks the wiring: migrations, the
// REST routes (case-insensitive, signed identities), the route index and
// the rest_no_route answer of unknown paths.
func TestServiceStartsAsMainDoes(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	env := map[string]string{
		contract.EnvDatabaseURL: dsn, contract.EnvInternalKey: "k",
		contract.EnvListenAddr: "127.0.0.1:0", contract.EnvMetricsAddr: "127.0.0.1:0",
	}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	ctx, cancel := context.WithCancel(context.Background())
	addrc, done := make(chan string, 1), make(chan error, 1)
	go func() { done <- service.Run(ctx, Options(), lookup, Register, func(a string) { addrc <- a }) }()
	var base string
	select {
	case a := <-addrc:
		base = "http://" + a
	case err := <-done:
		t.Fatalf("service exited: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("service did not start")
	}
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("shutdown: %v", err)
		}
	}()

	get := func(path string, who identity.Identity) (int, http.Header, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		if who.LoggedIn() {
			req.Header.Set(contract.IdentityHeader, identity.Sign([]byte("k"), who, time.Now().Add(time.Minute)))
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
