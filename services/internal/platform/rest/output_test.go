package rest

import (
	"testing"
)

// The global parameters that shape the answer as a whole: _envelope,
// _jsonp, _pretty, and the method override.

func TestGlobalParameters(t *testing.T) {
	s := newTestServer(t)
	t.Run("envelope", func(t *testing.T) {
		res := do(t, s, "GET", "/cms/v2/posts?_envelope&_fields=id&per_page=40", nil, "")
		// Headers in WordPress's order: the controller's, then Allow; an
		// empty query value loses its "=" in the links (add_query_arg).
		want := `{"body":[{"id":1},{"id":2}],"status":200,"headers":{"X-WP-Total":"42","X-WP-TotalPages":"2","Link":"<https:\/\/example.com\/cms-json\/cms\/v2\/posts?_envelope&_fields=id&per_page=40&page=2>; rel=\"next\"","Allow":"GET"}}`
		if res.status != 200 || res.body != want {
			t.Fatalf("%d\n got %s\nwant %s", res.status, res.body, want)
		}
		if res.header.Get("X-WP-Total") != "42" {
			t.Fatal("enveloped headers must still be sent")
		}
	})
	t.Run("envelope error", func(t *testing.T) {
		res := do(t, s, "GET", "/cms/v2/posts/2?_envelope=1", nil, "")
		want := `{"body":{"code":"rest_post_invalid_id","message":"Invalid post ID.","data":{"status":404}},"status":404,"headers":{"Allow":"GET"}}`
		if res.status != 200 || res.body != want {
			t.Fatalf("%d %s", res.status, res.body)
		}
		res = do(t, s, "GET", "/cms/v2/none?_envelope=1", nil, "")
		if res.body != `{"body":{"code":"rest_no_route","message":"No route was found matching the URL and request method.","data":{"status":404}},"status":404,"headers":[]}` {
			t.Fatalf("%s", res.body)
		}
	})
	t.Run("jsonp", func(t *testing.T) {
		res := do(t, s, "GET", "/cms/v2/posts?_jsonp=my.cb_1&_fields=id", nil, "")
		if res.body != `/**/my.cb_1([{"id":1},{"id":2}])` || res.header.Get("Content-Type") != "application/javascript; charset=UTF-8" {
			t.Fatalf("%s %v", res.body, res.header)
		}
		res = do(t, s, "GET", "/cms/v2/posts?_jsonp=alert(1)", nil, "")
		if res.status != 400 || res.body != `{"code":"rest_callback_invalid","message":"Invalid JSONP callback function."}` {
			t.Fatalf("%d %s", res.status, res.body)
		}
		off, _ := New(Options{DisableJSONP: true}, postsRoutes()...)
		res = do(t, off, "GET", "/cms/v2/posts?_jsonp=cb", nil, "")
		if res.status != 400 || res.body != `{"code":"rest_callback_disabled","message":"JSONP support is disabled on this site."}` || res.header.Get("Content-Type") != "application/json; charset=UTF-8" {
			t.Fatalf("%d %s", res.status, res.body)
		}
	})
	t.Run("pretty", func(t *testing.T) {
		res := do(t, s, "GET", "/cms/v2/posts/1?_pretty&_fields=id,title,categories", nil, "")
		want := "{\n    \"id\": 1,\n    \"title\": {\n        \"rendered\": \"One\"\n    },\n    \"categories\": [\n        3\n    ]\n}"
		if res.body != want {
			t.Fatalf("got\n%s", res.body)
		}
	})
	t.Run("method override", func(t *testing.T) {
		res := do(t, s, "POST", "/cms/v2/posts/1?_method=delete&force=1&_fields=deleted", admin, "")
		if res.body != `{"deleted":true}` {
			t.Fatalf("_method: %d %s", res.status, res.body)
		}
		res = do(t, s, "POST", "/cms/v2/posts/1?_fields=deleted", admin, "", "X-HTTP-Method-Override", "DELETE")
		if res.body != `{"deleted":true}` {
			t.Fatalf("header override: %d %s", res.status, res.body)
		}
		// An override ending in 4xx forces no-cache even for anonymous callers.
		res = do(t, s, "POST", "/cms/v2/posts/1", nil, "", "X-HTTP-Method-Override", "DELETE")
		if res.status != 401 || res.header.Get("Cache-Control") != "no-cache, must-revalidate, max-age=0" || res.header.Get("Expires") == "" {
			t.Fatalf("override 4xx: %d %v", res.status, res.header)
		}
	})
}

func TestJSONPTruthiness(t *testing.T) {
	s := newTestServer(t)
	tests := []struct{ query, want string }{
		{"_jsonp=0&_fields=id", `[{"id":1},{"id":2}]`},
		{"_jsonp=&_fields=id", `[{"id":1},{"id":2}]`},
		{"_jsonp[]=cb", `{"code":"rest_callback_invalid","message":"Invalid JSONP callback function."}`},
		{"_jsonp=c.b&_fields=id", `/**/c.b([{"id":1},{"id":2}])`},
	}
	for _, tc := range tests {
		if res := do(t, s, "GET", "/cms/v2/posts?"+tc.query, nil, ""); res.body != tc.want {
			t.Errorf("%s: %s", tc.query, res.body)
		}
	}
}
