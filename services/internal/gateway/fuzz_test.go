package gateway

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

var fuzzMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

// FuzzGatewayRequest drives the gateway's request handling — routing by
// path and rest_route, the route kit's query reading, method overrides,
// credentials, the edge cache, the gateway's own routes and proxying — and
// checks that no input yields a status outside 2xx-5xx, a 500, or a
// Location a browser would read differently. `make test-fuzz` runs it in
// -fuzz mode for FUZZTIME (hack/fuzz.sh); `go test` runs its seeds.
func FuzzGatewayRequest(f *testing.F) {
	f.Add(uint8(0), "/cms-json/cms/v2/posts", "per_page=1&per.page=3", "", "", []byte(nil))
	f.Add(uint8(0), "/", "rest.route=/cms/v2/users&search=@example.com", "", "", []byte(nil))
	f.Add(uint8(1), "/cms-json/batch/v1", "", "application/json", "", []byte(`{"requests":[{"path":"/cms/v2/posts?+_method=DELETE"}]}`))
	f.Add(uint8(0), "/cms-json/cms/v2/posts/1", "+_method=POST", "", "Basic YWRtaW46eA==", []byte(nil))
	f.Add(uint8(1), "/cms-login.php", "redirect_to=/%09/evil.example/", "application/x-www-form-urlencoded", "", []byte("log=a&pwd=b"))
	f.Add(uint8(1), "/cms-json/cache-plugin/v3/cms_rest_echo", "", "application/json", "", []byte(`[0,0,0]`))
	f.Add(uint8(0), "/cms-content/uploads/2026/11/a.jpg", "x=1", "", "Bearer k", []byte(nil))
	fx, _ := cacheFixture(f)
	f.Fuzz(func(t *testing.T, m uint8, path, rawQuery, contentType, auth string, body []byte) {
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, "?#") {
			return // not what a server hands a handler
		}
		req := &http.Request{Method: fuzzMethods[int(m)%len(fuzzMethods)], URL: &url.URL{Path: path, RawQuery: rawQuery},
			Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(body)), RemoteAddr: "192.0.2.9:1000", Host: "site.test"}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		req = req.WithContext(t.Context())
		rec := httptest.NewRecorder()
		fx.gw.ServeHTTP(rec, req)
		if rec.Code < 200 || rec.Code > 599 || rec.Code == http.StatusInternalServerError {
			t.Fatalf("%s %s?%s: status %d %s", req.Method, path, rawQuery, rec.Code, rec.Body)
		}
		if loc := rec.Header().Get("Location"); strings.ContainsAny(loc, "\t\r\n\\") {
			t.Fatalf("Location %q", loc)
		}
	})
}
