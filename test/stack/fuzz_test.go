package stack

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

var fuzzMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

// FuzzGatewayRequest sends arbitrary requests through the whole path — the
// gateway (authentication, routing, batch, edge cache) and the service
// behind it (the route kit's parsing, validation, handlers, PostgreSQL) —
// and fails on any 5xx, on a hang, or on a JSON answer that is not JSON.
// `go test` (so `make test`) runs the seed corpus below and
// testdata/fuzz/FuzzGatewayRequest; `go test -fuzz FuzzGatewayRequest
// ./test/stack/` explores further. Only reads are sent as the administrator,
// so fuzzing never rewrites the stack's data with an administrator's rights.
func FuzzGatewayRequest(f *testing.F) {
	seeds := []struct {
		m           uint8
		admin       bool
		path, query string
		ctype       string
		body        string
	}{
		{0, false, "/cms-json/cms/v2/posts", "search=%00", "", ""},
		{0, false, "/cms-json/cms/v2/posts", "search=%ff", "", ""},
		{0, false, "/cms-json/cms/v2/posts", "slug=%00", "", ""},
		{0, false, "/cms-json/cms/v2/posts", "offset=-1", "", ""},
		{0, true, "/cms-json/cms/v2/users", "offset=-1", "", ""},
		{0, false, "/cms-json/cms/v2/posts", "page=9223372036854775807", "", ""},
		{0, false, "/cms-json/cms/v2/posts", "search=" + strings.Repeat("a+", 5000), "", ""},
		{0, false, "/cms-json/cms/v2/posts", "_fields=" + strings.Repeat("id,", 1100), "", ""},
		{0, false, "/cms-json/cms/v2/posts", "a" + strings.Repeat("[b]", 70) + "=1", "", ""},
		{1, false, "/cms-json/cms/v2/posts", "", "application/x-www-form-urlencoded", strings.Repeat("k=v&", 2000)},
		{1, false, "/cms-json/cms/v2/posts", "", "application/json", `{"title":"a\u0000b"}`},
		{1, false, "/cms-json/cms/v2/posts", "", "application/json", strings.Repeat("[", 600) + strings.Repeat("]", 600)},
		{1, false, "/cms-json/batch/v1", "", "application/json", `{"requests":[{"method":"POST","path":"/cms/v2/posts/1?+_method=DELETE"}]}`},
		{1, false, "/cms-json/batch/v1", "", "application/json", `{"requests":[{"path":"/cms/v2/posts?rest.route=/cms/v2/pages"}]}`},
		{1, false, "/api/purchases/validation", "purchase_code=%00", "", ""},
		{0, true, "/cms-json/", "rest_route=/cms/v2/posts%00", "", ""},
		{0, false, "/cms-json/cms/v2/posts/%ff", "", "", ""},
		{6, false, "/cms-json/cms/v2/posts", "_method=%00", "", ""},
		{2, false, "/cms-json/cms/v2/comments", "", "multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"content\"\r\n\r\n\x00\r\n--x--\r\n"},
	}
	for _, s := range seeds {
		f.Add(s.m, s.admin, s.path, s.query, s.ctype, []byte(s.body))
	}
	client := &http.Client{Timeout: 10 * time.Second}
	f.Fuzz(func(t *testing.T, m uint8, asAdmin bool, path, query, ctype string, body []byte) {
		method := fuzzMethods[int(m)%len(fuzzMethods)]
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " ?#\r\n\x00") || strings.ContainsAny(query, " #\r\n\x00") {
			t.Skip("not a request line an HTTP client sends")
		}
		req, err := http.NewRequest(method, st.Gateway, bytes.NewReader(body))
		if err != nil {
			t.Skip()
		}
		req.URL.Opaque, req.URL.RawQuery = path, query
		if ctype != "" {
			if strings.ContainsAny(ctype, "\r\n\x00") {
				t.Skip()
			}
			req.Header.Set("Content-Type", ctype)
		}
		if asAdmin && (method == "GET" || method == "HEAD" || method == "OPTIONS") {
			req.SetBasicAuth(st.AdminUser, st.AdminPass)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s?%.200s: %v", method, path, query, err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 500 {
			t.Fatalf("%s %s?%.200s %.200q: %d %.300s", method, path, query, body, res.StatusCode, raw)
		}
		if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") && len(raw) > 0 && !json.Valid(raw) {
			t.Fatalf("%s %s: invalid JSON %.300s", method, path, raw)
		}
	})
}
