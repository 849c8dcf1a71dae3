package gateway

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkProxy measures a request through the gateway to a service over
// real loopback connections: anonymous, and with application-password
// authentication (one indexed lookup of the keyed hash).
func BenchmarkProxy(b *testing.B) {
	f := newFixture(b)
	gw := httptest.NewServer(f.gw)
	defer gw.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	run := func(b *testing.B, auth bool) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				req, _ := http.NewRequest("GET", gw.URL+"/cms-json/cms/v2/posts/1", nil)
				if auth {
					req.SetBasicAuth("admin", f.adminPW)
				}
				res, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					b.Fatalf("status %d", res.StatusCode)
				}
			}
		})
	}
	b.Run("anonymous", func(b *testing.B) { run(b, false) })
	b.Run("application-password", func(b *testing.B) { run(b, true) })
}
