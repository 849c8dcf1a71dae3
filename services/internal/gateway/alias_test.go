package gateway

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

// Which requests the alias takes, and what they become.
func TestAliasRequest(t *testing.T) {
	cases := []struct {
		method, target string
		body           string
		ok             bool
		path, query    string
		wantBody       string
	}{
		{"GET", "/wp-json/", "", true, "/cms-json/", "", ""},
		{"GET", "/wp-json", "", true, "/cms-json", "", ""},
		{"GET", "/wp-json/wp/v2/posts?per_page=2", "", true, "/cms-json/cms/v2/posts", "per_page=2", ""},
		{"GET", "/wp-json/wp/v2", "", true, "/cms-json/cms/v2", "", ""},
		{"GET", "/wp-json/wp/v22/x", "", true, "/cms-json/wp/v22/x", "", ""},
		// the block editor's helper namespace: an unmodified editor calls it
		{"GET", "/wp-json/wp-block-editor/v1/url-details?url=x", "", true, "/cms-json/cms-block-editor/v1/url-details", "url=x", ""},
		{"GET", "/?rest_route=/wp-block-editor/v1/navigation-fallback", "", true, "/", "rest_route=/cms-block-editor/v1/navigation-fallback", ""},
		{"GET", "/wp-json/oembed/1.0/embed?url=x", "", true, "/cms-json/oembed/1.0/embed", "url=x", ""},
		{"GET", "/?rest_route=/wp/v2/posts&page=2", "", true, "/", "rest_route=/cms/v2/posts&page=2", ""},
		{"GET", "/?rest_route=/oembed/1.0", "", false, "/", "rest_route=/oembed/1.0", ""},
		{"GET", "/cms-json/cms/v2/posts", "", false, "/cms-json/cms/v2/posts", "", ""},
		{"GET", "/wp-jsonx/", "", false, "/wp-jsonx/", "", ""},
		{"POST", "/wp-json/batch/v1", `{"requests":[{"path":"/wp/v2/posts"},{"path":"\/wp\/v2\/tags"},{"path":"/wp-block-editor/v1/x"}]}`, true, "/cms-json/batch/v1", "",
			`{"requests":[{"path":"/cms/v2/posts"},{"path":"\/cms\/v2\/tags"},{"path":"/cms-block-editor/v1/x"}]}`},
	}
	for _, c := range cases {
		t.Run(c.target, func(t *testing.T) {
			r := httptest.NewRequest(c.method, c.target, strings.NewReader(c.body))
			out, ok := aliasRequest(r)
			if ok != c.ok || out.URL.Path != c.path || out.URL.RawQuery != c.query {
				t.Fatalf("got %v %q %q, want %v %q %q", ok, out.URL.Path, out.URL.RawQuery, c.ok, c.path, c.query)
			}
			if c.wantBody != "" {
				b, _ := io.ReadAll(out.Body)
				if string(b) != c.wantBody || out.ContentLength != int64(len(c.wantBody)) {
					t.Errorf("body %s (%d)", b, out.ContentLength)
				}
			}
		})
	}
}

// What an answer becomes for an alias client: links, namespaces and route
// keys in both JSON spellings of the slash, and headers.
func TestAliasRewriter(t *testing.T) {
	rw := newAliasRewriter("https://site.test/")
	cases := []struct{ in, want string }{
		{`{"href":"https:\/\/site.test\/cms-json\/cms\/v2\/posts\/1"}`, `{"href":"https:\/\/site.test\/wp-json\/wp\/v2\/posts\/1"}`},
		{`{"home":"https:\/\/site.test","url":"https:\/\/site.test\/cms-json\/"}`, `{"home":"https:\/\/site.test","url":"https:\/\/site.test\/wp-json\/"}`},
		{`{"namespaces":["oembed\/1.0","cms\/v2"],"namespace":"cms/v2"}`, `{"namespaces":["oembed\/1.0","wp\/v2"],"namespace":"wp/v2"}`},
		{`{"routes":{"\/cms\/v2\/posts":{},"/cms/v2":{}}}`, `{"routes":{"\/wp\/v2\/posts":{},"/wp/v2":{}}}`},
		{`{"rest_namespace":"cms\/v2"}`, `{"rest_namespace":"wp\/v2"}`},
		{`{"namespaces":["cms\/v2","cms-block-editor\/v1"],"routes":{"\/cms-block-editor\/v1\/url-details":{}}}`,
			`{"namespaces":["wp\/v2","wp-block-editor\/v1"],"routes":{"\/wp-block-editor\/v1\/url-details":{}}}`},
		{`{"href":"https:\/\/site.test\/cms-json\/cms-block-editor\/v1\/navigation-fallback"}`, `{"href":"https:\/\/site.test\/wp-json\/wp-block-editor\/v1\/navigation-fallback"}`},
		// text that only mentions the namespace stays
		{`{"title":"about cms\/v2 and \/cms-json\/"}`, `{"title":"about cms\/v2 and \/cms-json\/"}`},
		{`{"href":"https:\/\/elsewhere.test\/cms-json\/cms\/v2"}`, `{"href":"https:\/\/elsewhere.test\/cms-json\/cms\/v2"}`},
	}
	for _, c := range cases {
		if got := rw.body.Replace(c.in); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.in, got, c.want)
		}
	}
	link := `<https://site.test/cms-json/cms/v2/posts?page=2>; rel="next", <https://site.test/cms-json/>; rel="https://api.w.org/"`
	if got := rw.header.Replace(link); got != `<https://site.test/wp-json/wp/v2/posts?page=2>; rel="next", <https://site.test/wp-json/>; rel="https://api.w.org/"` {
		t.Errorf("Link %s", got)
	}
}

// Off (the default), /wp-json/ is not a REST root: the website answers it.
func TestAliasOffByDefault(t *testing.T) {
	if contract.DefaultSite("https://site.test").WPAlias {
		t.Fatal("the alias is on by default")
	}
	f := newKitFixture(t)
	rec, _ := f.do(t, "GET", "/wp-json/wp/v2/posts", nil)
	if rec.Header().Get("X-WP-Total") != "" || strings.Contains(rec.Body.String(), `"id"`) {
		t.Fatalf("served with the alias off: %d %s", rec.Code, rec.Body)
	}
	on := newKitFixture(t, func(s *contract.Site) { s.WPAlias = true })
	rec, _ = on.do(t, "GET", "/wp-json/wp/v2/posts", nil)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `wp-json`) && rec.Body.String() != "[]" {
		t.Fatalf("alias on: %d %s", rec.Code, rec.Body)
	}
}
