package gateway

import (
	"context"
	"runtime"
	"testing"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/gateway/migrations"
	"siteplane.dev/services/internal/platform/postgres"
)

func TestHostAPI(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	ed, err := f.store.CreateUser(ctx, accounts.NewUser{Login: "ed", Email: "ed@example.com", Role: "editor"})
	if err != nil {
		t.Fatal(err)
	}
	edPW, _, _ := f.store.CreatePassword(ctx, ed.ID, "x", "")
	admin := basic("admin", f.adminPW)
	const path = "/cms-json/host-tools/v1/host-api"

	if rec, body := f.do("POST", path, nil); rec.Code != 401 || body["code"] != "rest_forbidden" {
		t.Fatalf("anonymous: %d %s", rec.Code, rec.Body)
	}
	if rec, body := f.do("POST", path, basic("ed", edPW)); rec.Code != 403 || body["code"] != "rest_forbidden" {
		t.Fatalf("editor: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := f.do("GET", path, admin); rec.Code != 404 {
		t.Fatalf("GET: %d", rec.Code)
	}

	// Everything: the fixture's media backend is down, so "degraded".
	rec, body := f.do("POST", path, admin)
	if rec.Code != 200 || body["status"] != "degraded" || body["site_url"] != "http://site.test" {
		t.Fatalf("all checks: %d %s", rec.Code, rec.Body)
	}
	health := body["health"].(map[string]any)
	if db := health["database"].(map[string]any); db["status"] != "ok" {
		t.Fatalf("database %v", db)
	}
	services := map[string]string{}
	for _, s := range health["services"].([]any) {
		m := s.(map[string]any)
		services[m["name"].(string)] = m["status"].(string)
	}
	if services["content"] != "ok" || services["marketplace"] != "ok" || services["media"] != "unavailable" {
		t.Fatalf("services %v", services)
	}
	v := body["versions"].(map[string]any)
	latest, err := postgres.LatestVersion(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	if v["go"] != runtime.Version() || v["postgresql"] == "" || v["gateway_schema"] != float64(latest) || v["route_file"] != float64(1) {
		t.Fatalf("versions %v", v)
	}
	// Only the database: ok.
	rec, body = f.do("POST", path+"?checks[]=database", admin)
	if rec.Code != 200 || body["status"] != "ok" || body["health"].(map[string]any)["services"] != nil {
		t.Fatalf("database only: %d %s", rec.Code, rec.Body)
	}
	for _, bad := range []string{"?checks[]=disk", "?timeout=0", "?timeout=11", "?timeout=x"} {
		if rec, body := f.do("POST", path+bad, admin); rec.Code != 400 || body["code"] != "rest_invalid_param" {
			t.Errorf("%s: %d %s", bad, rec.Code, rec.Body)
		}
	}
	// The arguments are declared in the namespace index.
	rec, body = f.do("GET", "/cms-json/host-tools/v1", nil)
	routes, _ := body["routes"].(map[string]any)
	route, _ := routes["/host-tools/v1/host-api"].(map[string]any)
	if rec.Code != 200 || route == nil {
		t.Fatalf("index: %d %s", rec.Code, rec.Body)
	}
	args := route["endpoints"].([]any)[0].(map[string]any)["args"].(map[string]any)
	if args["checks"] == nil || args["timeout"] == nil {
		t.Fatalf("declared args %v", args)
	}
}
