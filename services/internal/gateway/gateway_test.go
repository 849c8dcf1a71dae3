package gateway

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/gateway/migrations"
	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

var testKey = []byte("test-internal-key")

type fixture struct {
	gw       *Gateway
	store    *accounts.Store
	upstream *[]*http.Request
	admin    accounts.User
	adminPW  string
	logs     *lockedBuffer // the gateway's log
}

// lockedBuffer is a log destination safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	pool := pgtest.NewPool(t, "gateway", migrations.FS)
	ctx := context.Background()
	store := accounts.New(pool, accounts.NewHasher(testKey))
	pw := accounts.GeneratePassword()
	admin, err := store.Bootstrap(ctx, accounts.Admin{Login: "admin", Email: "admin@example.com", Password: pw})
	if err != nil {
		t.Fatal(err)
	}
	var seen []*http.Request
	var mu sync.Mutex
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if len(seen) < 100 {
			seen = append(seen, r.Clone(context.Background()))
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		if r.URL.Path == "/cms/v2/posts" {
			w.Header().Set("Link", `<http://x/cms-json/cms/v2/posts?page=2>; rel="next"`)
			w.Header().Set("X-WP-Total", "11")
			w.Header().Set("X-WP-TotalPages", "2")
		}
		io.WriteString(w, `{"path":"`+r.URL.Path+`"}`)
	}))
	t.Cleanup(up.Close)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + ln.Addr().String()
	ln.Close()
	tb, err := routing.Compile(contract.RouteFile{Version: 1,
		Services: []contract.Backend{{Name: "content", URL: up.URL}, {Name: "marketplace", URL: up.URL}, {Name: "media", URL: dead}},
		Routes: []contract.Route{{Prefix: "/cms/v2", Service: "content"}, {Prefix: "/cms/v2/media", Service: "media"},
			{Prefix: "/api/", Service: "marketplace", Public: true}}})
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	gw, err := New(Config{Store: store, Routes: routing.NewStatic(tb), Proxy: routing.NewProxy(routing.ProxyConfig{}, rest.WriteErrorCode, nil),
		Keys: identity.Static(testKey), Secret: testKey, Site: contract.DefaultSite("http://site.test"), Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{gw: gw, store: store, upstream: &seen, admin: admin, adminPW: pw, logs: logs}
}

func (f *fixture) do(method, target string, header http.Header) (*httptest.ResponseRecorder, map[string]any) {
	return f.serve(f.gw, method, target, header)
}

// doInternal sends the request to the gateway's internal listener.
func (f *fixture) doInternal(method, target string, header http.Header) (*httptest.ResponseRecorder, map[string]any) {
	return f.serve(f.gw.InternalHandler(), method, target, header)
}

func (f *fixture) serve(h http.Handler, method, target string, header http.Header) (*httptest.ResponseRecorder, map[string]any) {
	req := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var body map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &body)
	return rec, body
}

func basic(user, pw string) http.Header {
	req, _ := http.NewRequest("GET", "/", nil)
	req.SetBasicAuth(user, pw)
	return req.Header
}

func TestAuthenticationOutcomes(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name     string
		header   http.Header
		status   int
		code     string
		message  string
		wantRole string // role signed to the service; "" = anonymous
	}{
		{"anonymous", nil, 200, "", "", ""},
		{"good login", basic("admin", f.adminPW), 200, "", "", "administrator"},
		{"good email, chunked", basic("admin@example.com", accounts.Chunk(f.adminPW)), 200, "", "", "administrator"},
		{"unknown user", basic("ghost", f.adminPW), 401, "invalid_username", "<strong>Error:</strong> Unknown username. Check again or try your email address.", ""},
		{"unknown email", basic("ghost@example.com", f.adminPW), 401, "invalid_email", "<strong>Error:</strong> Unknown email address. Check again or try your username.", ""},
		{"wrong password", basic("admin", accounts.GeneratePassword()), 401, "incorrect_password", "The provided password is an invalid application password.", ""},
		{"bearer ignored", http.Header{"Authorization": {"Bearer x"}}, 200, "", "", ""},
		// PostgreSQL refuses NUL and invalid UTF-8: such a login is unknown, not a 503.
		{"NUL in the login", basic("adm\x00in", f.adminPW), 401, "invalid_username", "<strong>Error:</strong> Unknown username. Check again or try your email address.", ""},
		{"invalid UTF-8 in the login", basic("adm\xffin", f.adminPW), 401, "invalid_username", "<strong>Error:</strong> Unknown username. Check again or try your email address.", ""},
		{"NUL in the password", basic("admin", "a\x00b"), 401, "incorrect_password", "The provided password is an invalid application password.", ""},
		{"invalid UTF-8 in the password", basic("admin", "a\xffb"), 401, "incorrect_password", "The provided password is an invalid application password.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			*f.upstream = nil
			rec, body := f.do("GET", "/cms-json/cms/v2/posts", tt.header)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d (%s)", rec.Code, tt.status, rec.Body)
			}
			if logs := f.logs.String(); strings.Contains(logs, "level=ERROR") {
				t.Fatalf("an ERROR was logged: %s", logs)
			}
			if tt.code != "" {
				if body["code"] != tt.code || body["message"] != tt.message || body["data"].(map[string]any)["status"] != float64(401) {
					t.Fatalf("body %s", rec.Body)
				}
				if len(*f.upstream) != 0 {
					t.Fatal("a failed authentication reached the service")
				}
				return
			}
			up := (*f.upstream)[0]
			if up.Header.Get("Authorization") != "" {
				t.Fatal("the client's credentials reached the service")
			}
			h := up.Header.Get(contract.IdentityHeader)
			if tt.wantRole == "" {
				if h != "" {
					t.Fatalf("anonymous request carried identity %q", h)
				}
				return
			}
			id, err := identity.Verify(identity.Static(testKey), "content", h, time.Now())
			if err != nil || string(id.Role) != tt.wantRole || id.UserID != f.admin.ID {
				t.Fatalf("signed identity %+v %v", id, err)
			}
		})
	}
	// Auth errors come before routing: an unknown route still gets 401.
	if rec, body := f.do("GET", "/cms-json/nowhere", basic("admin", "x")); rec.Code != 401 || body["code"] != "incorrect_password" {
		t.Fatalf("unknown route with bad credentials: %d %s", rec.Code, rec.Body)
	}
}

func TestClientIdentityHeaderIsStripped(t *testing.T) {
	f := newFixture(t)
	forged := identity.Sign(identity.NewKey(testKey), "content", identity.Identity{UserID: f.admin.ID, Role: identity.Administrator}, time.Now().Add(time.Minute))
	rec, _ := f.do("POST", "/cms-json/cms/v2/posts", http.Header{contract.IdentityHeader: {forged}})
	if rec.Code != 200 {
		t.Fatalf("status %d", rec.Code)
	}
	if h := (*f.upstream)[0].Header.Get(contract.IdentityHeader); h != "" {
		t.Fatal("a client-supplied identity header reached the service")
	}
}

func TestRoutingForms(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		target, wantPath, wantQuery string
		status                      int
	}{
		{"/cms-json/cms/v2/posts/", "/cms/v2/posts", "", 200},
		{"/cms-json/cms/v2/posts?per_page=2&page=1", "/cms/v2/posts", "per_page=2&page=1", 200},
		{"/?rest_route=/cms/v2/posts/7&context=edit", "/cms/v2/posts/7", "context=edit", 200},
		{"/?per_page=1&rest_route=%2Fcms%2Fv2%2Fpages", "/cms/v2/pages", "per_page=1", 200},
		// rest_route wins over the pretty path (§1.12, WordPress's query vars).
		{"/cms-json/elsewhere/v1/x?rest_route=/cms/v2/pages/3&a=1", "/cms/v2/pages/3", "a=1", 200},
		{"/cms-json/cms/v2/pages?rest_route=/elsewhere/v1", "", "", 404},
		{"/api/v1/market/items?api_key=k", "/api/v1/market/items", "api_key=k", 200},
		{"/cms-json/cms/v2/media/5", "", "", 503},
		{"/cms-json/elsewhere/v1/x", "", "", 404},
		{"/random/page", "", "", 404},
		{"/cms-json/cms/v2/../../internal/batch/v1", "", "", 404},
		{"/api/../internal/users/1", "", "", 404},
		{"/?rest_route=/cms/v2/./posts", "", "", 404},
	}
	for _, tt := range tests {
		*f.upstream = nil
		rec, body := f.do("GET", tt.target, nil)
		if rec.Code != tt.status {
			t.Errorf("%s: status %d, want %d (%s)", tt.target, rec.Code, tt.status, rec.Body)
			continue
		}
		if tt.status == 200 {
			up := (*f.upstream)[0]
			if up.URL.Path != tt.wantPath || up.URL.RawQuery != tt.wantQuery {
				t.Errorf("%s: upstream got %s?%s", tt.target, up.URL.Path, up.URL.RawQuery)
			}
		}
		if tt.status == 503 && body["code"] != "rest_service_unavailable" {
			t.Errorf("%s: body %s", tt.target, rec.Body)
		}
		if tt.status == 404 && body["code"] != "rest_no_route" {
			t.Errorf("%s: body %s", tt.target, rec.Body)
		}
	}
}

func TestOptionsOnUnknownRoute(t *testing.T) {
	f := newFixture(t)
	rec, _ := f.do("OPTIONS", "/cms-json/nowhere/v1", http.Header{"Origin": {"https://app.example"}})
	if rec.Code != 200 || rec.Body.String() != "[]" || rec.Header().Get("Access-Control-Allow-Origin") != "https://app.example" {
		t.Fatalf("%d %q %v", rec.Code, rec.Body, rec.Header())
	}
}

// What the gateway answers itself before any route (failed authentication,
// unknown routes) goes through the whole REST pipeline: JSONP checks first,
// _envelope, Vary for anonymous GETs, no-cache for logged-in callers and for
// a 4xx after X-HTTP-Method-Override, PHP's "\/" escaping (§1.1, §1.8).
func TestGatewayOwnAnswers(t *testing.T) {
	f := newFixture(t)
	basic := func(user, pw string) string {
		r := httptest.NewRequest("GET", "/", nil)
		r.SetBasicAuth(user, pw)
		return r.Header.Get("Authorization")
	}
	noRoute := `{"code":"rest_no_route","message":"No route was found matching the URL and request method.","data":{"status":404}}`
	tests := []struct {
		name, method, target string
		header               http.Header
		status               int
		body, contentType    string
		vary, cacheControl   string
	}{
		{"anonymous unknown route", "GET", "/cms-json/nowhere/v1", nil, 404, noRoute, "application/json; charset=UTF-8", "Origin", ""},
		{"plain form", "GET", "/?rest_route=/nowhere/v1/x", nil, 404, noRoute, "application/json; charset=UTF-8", "Origin", ""},
		{"anonymous POST: no Vary", "POST", "/cms-json/nowhere/v1", nil, 404, noRoute, "application/json; charset=UTF-8", "", ""},
		{"logged in: no-cache", "GET", "/cms-json/nowhere/v1", http.Header{"Authorization": {basic("admin", f.adminPW)}}, 404, noRoute,
			"application/json; charset=UTF-8", "", "no-cache, must-revalidate, max-age=0, no-store, private"},
		{"method override 4xx: no-cache", "POST", "/cms-json/nowhere/v1", http.Header{"X-Http-Method-Override": {"PUT"}}, 404, noRoute,
			"application/json; charset=UTF-8", "", "no-cache, must-revalidate, max-age=0"},
		{"jsonp", "GET", "/cms-json/nowhere/v1?_jsonp=cb", nil, 404, "/**/cb(" + noRoute + ")", "application/javascript; charset=UTF-8", "Origin", ""},
		{"envelope", "GET", "/cms-json/nowhere/v1?_envelope", nil, 200, `{"body":` + noRoute + `,"status":404,"headers":[]}`, "application/json; charset=UTF-8", "Origin", ""},
		{"unknown user", "GET", "/cms-json/", http.Header{"Authorization": {basic("nobody", "x")}}, 401,
			`{"code":"invalid_username","message":"<strong>Error:<\/strong> Unknown username. Check again or try your email address.","data":{"status":401}}`,
			"application/json; charset=UTF-8", "Origin", ""},
		{"bad password, enveloped", "GET", "/cms-json/nowhere/v1?_envelope=1", http.Header{"Authorization": {basic("admin", "wrong")}}, 200,
			`{"body":{"code":"incorrect_password","message":"The provided password is an invalid application password.","data":{"status":401}},"status":401,"headers":[]}`,
			"application/json; charset=UTF-8", "Origin", ""},
		{"dot segment: after authentication", "GET", "/cms-json/cms/v2/../../internal/batch/v1", http.Header{"Authorization": {basic("admin", "wrong")}}, 401,
			`{"code":"incorrect_password","message":"The provided password is an invalid application password.","data":{"status":401}}`,
			"application/json; charset=UTF-8", "Origin", ""},
		{"dot segment, logged in", "GET", "/?rest_route=/cms/v2/./posts", http.Header{"Authorization": {basic("admin", f.adminPW)}}, 404, noRoute,
			"application/json; charset=UTF-8", "", "no-cache, must-revalidate, max-age=0, no-store, private"},
		{"service down", "GET", "/cms-json/cms/v2/media/5", nil, 503,
			`{"code":"rest_service_unavailable","message":"The service that owns this route is unavailable.","data":{"status":503}}`,
			"application/json; charset=UTF-8", "Origin", ""},
		{"service down, logged in, enveloped", "GET", "/cms-json/cms/v2/media/5?_envelope", http.Header{"Authorization": {basic("admin", f.adminPW)}}, 200,
			`{"body":{"code":"rest_service_unavailable","message":"The service that owns this route is unavailable.","data":{"status":503}},"status":503,"headers":[]}`,
			"application/json; charset=UTF-8", "", "no-cache, must-revalidate, max-age=0, no-store, private"},
		{"JSONP is checked before authentication", "GET", "/cms-json/?_jsonp=a-b", http.Header{"Authorization": {basic("admin", "wrong")}}, 400,
			`{"code":"rest_callback_invalid","message":"Invalid JSONP callback function."}`, "application/javascript; charset=UTF-8", "", ""},
	}
	for _, tt := range tests {
		rec, _ := f.do(tt.method, tt.target, tt.header)
		h := rec.Header()
		if rec.Code != tt.status || rec.Body.String() != tt.body {
			t.Errorf("%s: %d %s\nwant %d %s", tt.name, rec.Code, rec.Body, tt.status, tt.body)
		}
		if h.Get("Content-Type") != tt.contentType || strings.Join(h.Values("Vary"), ",") != tt.vary || h.Get("Cache-Control") != tt.cacheControl {
			t.Errorf("%s: Content-Type %q Vary %q Cache-Control %q", tt.name, h.Get("Content-Type"), h.Values("Vary"), h.Get("Cache-Control"))
		}
		if tt.cacheControl != "" && h.Get("Expires") != "Wed, 11 Jan 1984 05:00:00 GMT" {
			t.Errorf("%s: Expires %q", tt.name, h.Get("Expires"))
		}
		// A refused JSONP callback ends the request right after the first
		// headers (step 2), before the CORS ones.
		jsonpRefused := tt.status == 400
		if h.Get("X-Robots-Tag") != "noindex" || (h.Get("Access-Control-Expose-Headers") == "") != jsonpRefused || h.Get("Allow") != "" {
			t.Errorf("%s: headers %v", tt.name, h)
		}
	}
}

func TestRESTHeaders(t *testing.T) {
	f := newFixture(t)
	rec, _ := f.do("GET", "/cms-json/cms/v2/pages", http.Header{"Origin": {"https://app.example"}})
	h := rec.Header()
	want := map[string]string{
		"Link":                             `<http://site.test/cms-json/>; rel="https://api.w.org/"`,
		"X-Robots-Tag":                     "noindex",
		"X-Content-Type-Options":           "nosniff",
		"Access-Control-Expose-Headers":    "X-WP-Total, X-WP-TotalPages, Link",
		"Access-Control-Allow-Headers":     "Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type",
		"Access-Control-Allow-Origin":      "https://app.example",
		"Access-Control-Allow-Credentials": "true",
	}
	for k, v := range want {
		if got := h.Values(k); len(got) != 1 || got[0] != v {
			t.Errorf("%s = %q, want [%q]", k, got, v)
		}
	}
	// A service's own Link (pagination) replaces the discovery link, as in WordPress.
	rec, _ = f.do("GET", "/cms-json/cms/v2/posts", nil)
	if got := rec.Header().Values("Link"); len(got) != 1 || !strings.Contains(got[0], `rel="next"`) {
		t.Errorf("Link = %q", got)
	}
	// WordPress's capitals survive the proxy (net/http would send "X-Wp-Total"),
	// so the map is read with the exact, non-canonical spellings.
	//nolint:staticcheck // SA1008: the non-canonical keys are what this test asserts
	if got := rec.Header(); strings.Join(got["X-WP-Total"], "") != "11" || strings.Join(got["X-WP-TotalPages"], "") != "2" || len(got["X-Wp-Total"]) != 0 {
		t.Errorf("pagination headers spelled %v", got)
	}
	// The marketplace is not a REST route: no REST headers.
	rec, _ = f.do("GET", "/api/v1/x", nil)
	if rec.Header().Get("X-Robots-Tag") != "" {
		t.Error("REST headers on a public route")
	}
}

func TestInternalRouteDescriptions(t *testing.T) {
	f := newFixture(t)
	rec, body := f.doInternal("GET", contract.RouteDescriptionsPath, nil)
	routes, _ := body["routes"].(map[string]any)
	if rec.Code != 200 || routes["/batch/v1"] == nil || routes["/cms/v2/users"] == nil {
		t.Fatalf("%d %.300s", rec.Code, rec.Body)
	}
}

// The internal endpoints exist only on the internal listener: from the
// public one, even a validly signed lookup is rest_no_route (issue 15).
func TestInternalEndpointsNotOnPublicListener(t *testing.T) {
	f := newFixture(t)
	signed := identity.Sign(identity.NewKey(testKey), contract.ServiceGateway, identity.Identity{Role: identity.Subscriber}, time.Now().Add(time.Minute))
	for _, path := range []string{contract.UserLookupPath + "/1", contract.UserLookupPath + "?slug=admin", contract.RouteDescriptionsPath} {
		rec, body := f.do("GET", path, http.Header{contract.IdentityHeader: {signed}})
		if rec.Code != http.StatusNotFound || body["code"] != "rest_no_route" {
			t.Errorf("public %s: %d %s, want 404 rest_no_route", path, rec.Code, rec.Body)
		}
	}
	if rec, _ := f.doInternal("GET", contract.UserLookupPath+"/1", http.Header{contract.IdentityHeader: {signed}}); rec.Code != 200 {
		t.Errorf("internal lookup: %d, want 200", rec.Code)
	}
}

func TestInternalUserLookup(t *testing.T) {
	f := newFixture(t)
	signed := identity.Sign(identity.NewKey(testKey), contract.ServiceGateway, identity.Identity{Role: identity.Subscriber}, time.Now().Add(time.Minute))
	tests := []struct {
		path   string
		header string
		status int
	}{
		{contract.UserLookupPath + "/1", signed, 200},
		{contract.UserLookupPath + "/999", signed, 404},
		{contract.UserLookupPath + "/abc", signed, 404},
		{contract.UserLookupPath + "/1", "", 401},
		{contract.UserLookupPath + "/999", "", 401},
		{contract.UserLookupPath + "/1", identity.Sign(identity.NewKey([]byte("other")), contract.ServiceGateway, identity.Identity{Role: identity.Subscriber}, time.Now().Add(time.Minute)), 403},
		// signed for another service, or to live until 2100 (issue 15)
		{contract.UserLookupPath + "/1", identity.Sign(identity.NewKey(testKey), contract.ServiceContent, identity.Identity{Role: identity.Subscriber}, time.Now().Add(time.Minute)), 403},
		{contract.UserLookupPath + "/1", identity.Sign(identity.NewKey(testKey), contract.ServiceGateway, identity.Identity{Role: identity.Subscriber}, time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)), 403},
	}
	for _, tt := range tests {
		rec, body := f.doInternal("GET", tt.path, http.Header{contract.IdentityHeader: {tt.header}})
		if rec.Code != tt.status {
			t.Errorf("%s: %d, want %d", tt.path, rec.Code, tt.status)
		}
		if tt.status == 200 && tt.header != "" && (body["id"] != float64(f.admin.ID) || body["slug"] != "admin" || body["role"] != "administrator") {
			t.Errorf("signed: body %s", rec.Body)
		}
	}
}
