package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/gateway/migrations"
	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
	"siteplane.dev/services/pkg/jsonkeys"
)

const siteURL = "http://site.test"

type kitFixture struct {
	gw             *Gateway
	content, media *fakeContent
	adminPW        string
	authorPW       string
}

// newKitFixture runs the gateway in front of two describing services built
// with the route kit: content (posts) and media.
func newKitFixture(t *testing.T, adjust ...func(*contract.Site)) *kitFixture {
	t.Helper()
	pool := pgtest.NewPool(t, "gateway", migrations.FS)
	ctx := context.Background()
	store := accounts.New(pool, accounts.NewHasher(testKey))
	pw := accounts.GeneratePassword()
	if _, err := store.Bootstrap(ctx, accounts.Admin{Login: "admin", Email: "admin@example.com", Password: pw}); err != nil {
		t.Fatal(err)
	}
	sub, err := store.CreateUser(ctx, accounts.NewUser{Login: "sub", Email: "sub@example.com", Role: "subscriber"})
	if err != nil {
		t.Fatal(err)
	}
	subPW, _, err := store.CreatePassword(ctx, sub.ID, "t", "")
	if err != nil {
		t.Fatal(err)
	}
	root := siteURL + RESTPrefix + "/"
	content := newFakeContent(t, testKey, root, "posts")
	media := newFakeContent(t, testKey, root, "media")
	tb, err := routing.Compile(contract.DefaultRoutes(map[string]string{contract.ServiceContent: content.url, contract.ServiceMedia: media.url}))
	if err != nil {
		t.Fatal(err)
	}
	site := contract.DefaultSite(siteURL)
	site.Title, site.Description, site.Timezone = "Test Site", "A test", "Asia/Kolkata"
	for _, a := range adjust {
		a(&site)
	}
	gw, err := New(Config{Store: store, Routes: routing.NewStatic(tb), Proxy: routing.NewProxy(routing.ProxyConfig{}, rest.WriteErrorCode, nil),
		Keys: identity.Static(testKey), Secret: testKey, Site: site, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return &kitFixture{gw: gw, content: content, media: media, adminPW: pw, authorPW: subPW}
}

func (f *kitFixture) do(t *testing.T, method, target string, body any, auth ...string) (*httptest.ResponseRecorder, any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, target, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if len(auth) == 2 {
		req.SetBasicAuth(auth[0], auth[1])
	}
	rec := httptest.NewRecorder()
	f.gw.ServeHTTP(rec, req)
	var v any
	_ = json.Unmarshal(rec.Body.Bytes(), &v)
	return rec, v
}

// keys returns the top-level keys of a JSON object in document order.
func keys(t *testing.T, raw []byte) []string {
	t.Helper()
	out, err := jsonkeys.Of(raw)
	if err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return out
}

func TestIndexShape(t *testing.T) {
	f := newKitFixture(t)
	for _, target := range []string{"/cms-json/", "/cms-json", "/?rest_route=/"} {
		rec, v := f.do(t, "GET", target, nil)
		if rec.Code != 200 {
			t.Fatalf("%s: %d %s", target, rec.Code, rec.Body)
		}
		got := strings.Join(keys(t, rec.Body.Bytes()), ",")
		want := "name,description,url,home,gmt_offset,timezone_string,page_for_posts,page_on_front,show_on_front,namespaces,authentication,routes,site_logo,site_icon,site_icon_url,_links"
		if got != want {
			t.Fatalf("%s keys:\n got %s\nwant %s", target, got, want)
		}
		o := v.(map[string]any)
		if o["name"] != "Test Site" || o["url"] != siteURL || o["home"] != siteURL || o["gmt_offset"] != "5.5" ||
			o["timezone_string"] != "Asia/Kolkata" || o["show_on_front"] != "posts" || o["page_on_front"] != float64(0) {
			t.Fatalf("site settings: %v", o)
		}
		auth := o["authentication"].(map[string]any)["application-passwords"].(map[string]any)["endpoints"].(map[string]any)
		if auth["authorization"] != siteURL+"/cms-admin/authorize-application.php" {
			t.Fatalf("authentication: %v", o["authentication"])
		}
		ns, _ := json.Marshal(o["namespaces"])
		if string(ns) != `["oembed/1.0","cache-plugin/v1","cache-plugin/v3","host-tools/v1","cms/v2","cms-site-health/v1","cms-block-editor/v1","cms-abilities/v1"]` {
			t.Fatalf("namespaces %s", ns)
		}
		if rec.Header().Get("Link") != `<`+siteURL+`/cms-json/>; rel="https://api.w.org/"` {
			t.Fatalf("discovery Link %q", rec.Header().Get("Link"))
		}
	}
	rec, v := f.do(t, "GET", "/cms-json/", nil)
	// Route order: root routes, then each namespace's index and routes.
	var doc struct {
		Routes json.RawMessage `json:"routes"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatalf("index: %v", err)
	}
	order := keys(t, doc.Routes)
	idx := func(k string) int {
		for i, x := range order {
			if x == k {
				return i
			}
		}
		t.Fatalf("route %s missing from %v", k, order)
		return -1
	}
	if !(idx("/") == 0 && idx("/batch/v1") == 1 && idx("/oembed/1.0") < idx("/cms/v2") &&
		idx("/cms/v2") < idx("/cms/v2/posts") && idx("/cms/v2/posts") < idx("/cms/v2/media") && idx("/cms/v2/media") < idx("/cms/v2/users")) {
		t.Fatalf("route order %v", order)
	}
	routes := v.(map[string]any)["routes"].(map[string]any)
	rootRoute, _ := json.Marshal(routes["/"])
	if string(rootRoute) != `{"_links":{"self":[{"href":"http://site.test/cms-json/"}]},"endpoints":[{"args":{"context":{"default":"view","required":false}},"methods":["GET"]}],"methods":["GET"],"namespace":""}` {
		t.Fatalf("root route description %s", rootRoute)
	}
	nsRoute, _ := json.Marshal(routes["/cms/v2"])
	if string(nsRoute) != `{"_links":{"self":[{"href":"http://site.test/cms-json/cms/v2"}]},"endpoints":[{"args":{"context":{"default":"view","required":false},"namespace":{"default":"cms/v2","required":false}},"methods":["GET"]}],"methods":["GET"],"namespace":"cms/v2"}` {
		t.Fatalf("namespace route description %s", nsRoute)
	}
	posts := routes["/cms/v2/posts"].(map[string]any)
	ep0 := posts["endpoints"].([]any)[0].(map[string]any)
	if ab, _ := json.Marshal(ep0["allow_batch"]); string(ab) != `{"v1":true}` || posts["schema"] != nil {
		t.Fatalf("posts description %v", posts)
	}
	item := routes[`/cms/v2/posts/(?P<id>[\d]+)`].(map[string]any)
	if item["_links"] != nil {
		t.Fatal("a route with variables must have no _links.self")
	}
	// context=help adds the schemas.
	_, v = f.do(t, "GET", "/cms-json/?context=help", nil)
	if v.(map[string]any)["routes"].(map[string]any)["/cms/v2/posts"].(map[string]any)["schema"] == nil {
		t.Fatal("context=help: no schema")
	}
}

func TestNamespaceIndex(t *testing.T) {
	f := newKitFixture(t)
	rec, v := f.do(t, "GET", "/cms-json/cms/v2", nil)
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if got := strings.Join(keys(t, rec.Body.Bytes()), ","); got != "namespace,routes,_links" {
		t.Fatalf("keys %s", got)
	}
	o := v.(map[string]any)
	up, _ := json.Marshal(o["_links"])
	if o["namespace"] != "cms/v2" || string(up) != `{"up":[{"href":"http://site.test/cms-json/"}]}` {
		t.Fatalf("body %s", rec.Body)
	}
	routes := o["routes"].(map[string]any)
	for _, k := range []string{"/cms/v2", "/cms/v2/posts", "/cms/v2/media", "/cms/v2/users"} {
		if routes[k] == nil {
			t.Errorf("route %s missing", k)
		}
	}
	if routes["/batch/v1"] != nil || routes["/oembed/1.0/embed"] != nil {
		t.Error("another namespace's routes listed")
	}
	// Case-insensitive, and the ?rest_route= form.
	if rec, _ := f.do(t, "GET", "/?rest_route=/CMS/v2", nil); rec.Code != 200 {
		t.Fatalf("rest_route form: %d", rec.Code)
	}
	if rec, v := f.do(t, "GET", "/cms-json/nope/v9", nil); rec.Code != 404 || v.(map[string]any)["code"] != "rest_no_route" {
		t.Fatalf("unknown namespace: %d %s", rec.Code, rec.Body)
	}
	// /batch/v1 is a POST-only route, not a namespace: GET finds no route.
	for _, target := range []string{"/cms-json/batch/v1", "/?rest_route=/Batch/V1/"} {
		rec, v := f.do(t, "GET", target, nil)
		if rec.Code != 404 || v.(map[string]any)["code"] != "rest_no_route" || rec.Header().Get("Allow") != "" {
			t.Fatalf("GET %s: %d %s (Allow %q)", target, rec.Code, rec.Body, rec.Header().Get("Allow"))
		}
	}
	// §1.9: OPTIONS describes the namespace's own route, as the index does.
	for _, target := range []string{"/cms-json/cms/v2", "/cms-json/CMS/v2/", "/?rest_route=/cms/v2"} {
		rec, _ := f.do(t, "OPTIONS", target, nil)
		want := `{"namespace":"cms\/v2","methods":["GET"],"endpoints":[{"methods":["GET"],"args":{"namespace":{"default":"cms\/v2","required":false},"context":{"default":"view","required":false}}}],"_links":{"self":[{"href":"http:\/\/site.test\/cms-json\/cms\/v2"}]}}`
		if rec.Code != 200 || rec.Body.String() != want || rec.Header().Get("Allow") != "GET" {
			t.Fatalf("OPTIONS %s: %d %s (Allow %q)", target, rec.Code, rec.Body, rec.Header().Get("Allow"))
		}
	}
	// The seed's helper namespaces have their namespace index.
	rec, v = f.do(t, "GET", "/cms-json/cms-block-editor/v1", nil)
	if rec.Code != 200 || v.(map[string]any)["namespace"] != "cms-block-editor/v1" || v.(map[string]any)["routes"].(map[string]any)["/cms-block-editor/v1"] == nil {
		t.Fatalf("helper namespace index: %d %s", rec.Code, rec.Body)
	}
}

func TestExtensionSwitches(t *testing.T) {
	f := newKitFixture(t, func(s *contract.Site) { s.Extensions = contract.Extensions{CachePlugin: false, HostTools: true} })
	_, v := f.do(t, "GET", "/cms-json/", nil)
	ns, _ := json.Marshal(v.(map[string]any)["namespaces"])
	if string(ns) != `["oembed/1.0","host-tools/v1","cms/v2","cms-site-health/v1","cms-block-editor/v1","cms-abilities/v1"]` {
		t.Fatalf("namespaces %s", ns)
	}
	if rec, _ := f.do(t, "POST", "/cms-json/cache-plugin/v3/ping", nil); rec.Code != 404 {
		t.Fatalf("disabled extension: %d", rec.Code)
	}
	if rec, _ := f.do(t, "POST", "/cms-json/host-tools/v1/host-api", nil); rec.Code != 401 {
		t.Fatalf("enabled extension, anonymous: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := f.do(t, "POST", "/cms-json/host-tools/v1/host-api", nil, "admin", f.adminPW); rec.Code != 200 {
		t.Fatalf("enabled extension, admin: %d %s", rec.Code, rec.Body)
	}
}
