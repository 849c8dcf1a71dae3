package stack

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
)

// The oEmbed proxy of the running gateway against a loopback provider found
// by discovery (the gateway runs with its test-only loopback allowance).
func TestOEmbedProxyDiscovery(t *testing.T) {
	var hits atomic.Int32
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/json-page":
			fmt.Fprintf(w, `<html><head><link rel="alternate" type="application/json+oembed" href="%s/oembed?format=json&url=%s"></head></html>`,
				srv.URL, url.QueryEscape(srv.URL+"/json-page"))
		case "/xml-page":
			fmt.Fprintf(w, `<html><head><link rel="alternate" type="text/xml+oembed" href="%s/oembed?format=xml"></head></html>`, srv.URL)
		case "/oembed":
			hits.Add(1)
			if r.URL.Query().Get("format") == "xml" {
				w.Header().Set("Content-Type", "text/xml")
				fmt.Fprintf(w, `<?xml version="1.0"?><oembed><version>1.0</version><type>rich</type><title>XML %s</title><html>&lt;p&gt;hi&lt;/p&gt;&lt;script&gt;x()&lt;/script&gt;</html></oembed>`, r.URL.Query().Get("maxwidth"))
				return
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"version":"1.0","type":"link","title":"JSON %s"}`, r.URL.Query().Get("maxwidth"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	proxy := func(target string, extra ...string) *Response {
		q := url.Values{"url": {target}}
		for i := 0; i+1 < len(extra); i += 2 {
			q.Set(extra[i], extra[i+1])
		}
		return call(t, "GET", "/cms-json/oembed/1.0/proxy?"+q.Encode(), nil, admin()...)
	}
	r := proxy(srv.URL+"/json-page", "maxwidth", "320")
	if r.Status != 200 || r.Obj()["title"] != "JSON 320" || r.Obj()["type"] != "link" {
		t.Fatalf("JSON discovery: %d %s", r.Status, r.Raw)
	}
	before := hits.Load()
	if again := proxy(srv.URL+"/json-page", "maxwidth", "320"); again.Status != 200 || string(again.Raw) != string(r.Raw) || hits.Load() != before {
		t.Fatalf("cache hit expected: %d, provider hits %d → %d", again.Status, before, hits.Load())
	}
	x := proxy(srv.URL + "/xml-page")
	if x.Status != 200 || x.Obj()["title"] != "XML 600" || x.Obj()["html"] != "<p>hi</p>" {
		t.Fatalf("XML discovery: %d %s", x.Status, x.Raw)
	}
	for _, refused := range []string{"http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://192.168.1.1/",
		"http://172.16.0.1/", "http://100.64.0.1/", "http://[fd00:ec2::254]/", "http://[fe80::1]/", "http://0.0.0.0/", "http://224.0.0.1/"} {
		r := proxy(refused)
		expectError(t, r, 404, "oembed_invalid_url")
	}
	// Callers without edit_posts are refused before any fetch.
	n := hits.Load()
	anon := call(t, "GET", "/cms-json/oembed/1.0/proxy?url="+url.QueryEscape(srv.URL+"/json-page")+"&maxwidth=111", nil)
	expectError(t, anon, 401, "rest_forbidden")
	if hits.Load() != n {
		t.Fatal("an anonymous request reached the provider")
	}
}
