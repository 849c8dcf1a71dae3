package gateway

import (
	"bufio"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/pkg/contract"
)

// The gateway forwards no credential a public URL's service has no use for
// (issue 26: the client's Authorization and Cookie reached media and the
// marketplace): uploads get neither, the marketplace keeps only its own
// Bearer API key.
func TestPublicURLsGetNoSiteCredentials(t *testing.T) {
	f := newFixture(t)
	tb, err := routing.Compile(contract.RouteFile{Version: 1,
		Services: []contract.Backend{{Name: "media", URL: contentURL(t, f)}, {Name: "marketplace", URL: contentURL(t, f)}},
		Routes: []contract.Route{{Prefix: "/cms-content/uploads/", Service: "media", Public: true},
			{Prefix: "/api/", Service: "marketplace", Public: true}}})
	if err != nil {
		t.Fatal(err)
	}
	f.gw.cfg.Routes = routing.NewStatic(tb)
	tests := []struct {
		name, target, auth string
		wantAuth           string
	}{
		{"upload with Basic", "/cms-content/uploads/2026/11/a.jpg", "Basic YWRtaW46c2VjcmV0", ""},
		{"upload with Bearer", "/cms-content/uploads/2026/11/a.jpg", "Bearer k", ""},
		{"marketplace with Basic", "/api/v1/items", "Basic YWRtaW46c2VjcmV0", ""},
		{"marketplace with its Bearer key", "/api/v1/items", "Bearer k", "Bearer k"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := len(*f.upstream)
			f.do("GET", tc.target, http.Header{"Authorization": {tc.auth}, "Cookie": {"siteplane_session=s3cret"}})
			if len(*f.upstream) != before+1 {
				t.Fatalf("upstream asked %d times", len(*f.upstream)-before)
			}
			got := (*f.upstream)[before]
			if got.Header.Get("Cookie") != "" || got.Header.Get("Authorization") != tc.wantAuth {
				t.Fatalf("forwarded Cookie %q Authorization %q, want none and %q", got.Header.Get("Cookie"), got.Header.Get("Authorization"), tc.wantAuth)
			}
		})
	}
}

// A client's malformed request body is the client's error: 400, not the
// 502 of a failed service (issue 26).
func TestMalformedChunkedBodyIs400(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(f.gw)
	t.Cleanup(srv.Close)
	tests := []struct{ name, body string }{
		{"bad chunk size", "zz\r\nabc\r\n0\r\n\r\n"},
		{"chunk longer than announced", "2\r\nabcdef\r\n0\r\n\r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.DialTimeout("tcp", srv.Listener.Addr().String(), 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
			fmt.Fprintf(conn, "POST /cms-json/cms/v2/posts HTTP/1.1\r\nHost: site.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n%s", tc.body)
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusBadRequest {
				t.Fatalf("status %d, want 400", res.StatusCode)
			}
		})
	}
}

// Anonymous POSTs to the cache-plugin routes leave nothing in the server's
// log (issue 26: one "superfluous WriteHeader" warning per request).
func TestCachePluginWritesNoLogLinePerRequest(t *testing.T) {
	f, _ := cacheFixture(t)
	var logged lockedBuffer
	srv := httptest.NewUnstartedServer(f.gw)
	srv.Config.ErrorLog = log.New(&logged, "", 0)
	srv.Start()
	t.Cleanup(srv.Close)
	for _, route := range []string{"v3/cdn_status", "v1/notify_img", "v3/ping", "v3/cms_rest_echo"} {
		res, err := http.Post(srv.URL+"/cms-json/cache-plugin/"+route, "application/json", strings.NewReader(`{"urls":["x"]}`))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	if strings.Contains(logged.String(), "superfluous") || strings.Contains(f.logs.String(), "superfluous") {
		t.Fatalf("logged: %s%s", logged.String(), f.logs.String())
	}
}
