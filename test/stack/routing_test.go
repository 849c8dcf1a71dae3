package stack

import (
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

func TestMarketplaceThroughGateway(t *testing.T) {
	// No api_key: the marketplace answers in its own envelope, untouched.
	r := call(t, "GET", accountPath, nil)
	if r.Status != 401 && r.Status != 403 && r.Status != 400 {
		t.Fatalf("marketplace without key: %d %s", r.Status, r.Raw)
	}
	if r.Header.Get("X-Robots-Tag") != "" {
		t.Fatal("REST headers on the marketplace API")
	}
}

// accountPath is a marketplace route: without api_key it answers an error
// in the marketplace's own envelope, never the gateway's rest_no_route.
const accountPath = "/api/account/details"

func marketplaceRouted(t *testing.T) func() bool {
	return func() bool { r := call(t, "GET", accountPath, nil); return r.Obj()["code"] == nil && r.Status != 503 }
}

// waitFor polls cond for up to 5 s (the gateway polls the route file every second).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

func TestRouteFileHotReload(t *testing.T) {
	good := contract.DefaultRoutes(st.urls)
	t.Cleanup(func() {
		_ = st.WriteRoutes(good)
		waitFor(t, "restore", marketplaceRouted(t))
	})
	// Drop the marketplace route: /api/ is no longer served.
	without := contract.RouteFile{Version: good.Version}
	for _, b := range good.Services {
		if b.Name != contract.ServiceMarketplace {
			without.Services = append(without.Services, b)
		}
	}
	for _, r := range good.Routes {
		if r.Service != contract.ServiceMarketplace {
			without.Routes = append(without.Routes, r)
		}
	}
	if err := st.WriteRoutes(without); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the route to disappear", func() bool {
		r := call(t, "GET", accountPath, nil)
		return r.Status == 404 && r.Obj()["code"] == "rest_no_route"
	})
	// An invalid file is rejected: the last good table (without /api/) stays.
	if err := writeAtomic(st.RoutesFile, []byte(`{"version":1,"services":[],"routes":[{"prefix":"/api/","service":"ghost","public":true}]}`)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2500 * time.Millisecond)
	if r := call(t, "GET", accountPath, nil); r.Status != 404 {
		t.Fatalf("after an invalid file: %d %s", r.Status, r.Raw)
	}
	// Back to the good file.
	if err := st.WriteRoutes(good); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the route to come back", marketplaceRouted(t))
}

func TestStoppedServiceGives503(t *testing.T) {
	st.StopService(contract.ServiceMarketplace)
	t.Cleanup(func() {
		if err := st.StartService(contract.ServiceMarketplace); err != nil {
			t.Fatal(err)
		}
	})
	r := call(t, "GET", accountPath, nil)
	expectError(t, r, 503, "rest_service_unavailable")
}

func TestStoppedRESTServiceGives503(t *testing.T) {
	needs(t, contract.ServiceContent)
	// Warm the index so the content routes are known, then stop content.
	if r := call(t, "GET", "/cms-json/", nil); r.Obj()["routes"].(map[string]any)["/cms/v2/posts"] == nil {
		t.Fatal("the index does not list the content routes")
	}
	st.StopService(contract.ServiceContent)
	t.Cleanup(func() {
		if err := st.StartService(contract.ServiceContent); err != nil {
			t.Fatal(err)
		}
	})
	expectError(t, call(t, "GET", "/cms-json/cms/v2/posts", nil), 503, "rest_service_unavailable")
	expectError(t, call(t, "GET", "/?rest_route=/cms/v2/posts/1", nil, admin()...), 503, "rest_service_unavailable")
	// The gateway's own routes keep working, and the index keeps the last
	// known description of the stopped service.
	r := call(t, "GET", "/cms-json/", nil)
	if r.Status != 200 || r.Obj()["routes"].(map[string]any)["/cms/v2/posts"] == nil {
		t.Fatalf("index while content is down: %d", r.Status)
	}
}
