package gateway

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// detailsPage is a page as link previews meet them: entities in the title,
// a relative icon, the description in a name= meta, a relative og:image.
const detailsPage = `<!doctype html><html><head><meta charset="utf-8">
<title> Tea &amp; <b>biscuits</b> </title>
<link rel="stylesheet" href="/style.css">
<link rel="shortcut icon" href="/favicon.ico" />
<meta property="og:title" content="ignored">
<meta name="description" content="Everything about &quot;tea&quot;.">
<meta property="og:image" content="img/cover.png">
</head><body><title>not this one</title></body></html>`

func TestPageDetails(t *testing.T) {
	cases := []struct {
		name, page string
		want       urlDetails
	}{
		{name: "a page with everything", page: detailsPage, want: urlDetails{Title: "Tea & biscuits", Icon: "http://pages.test/favicon.ico",
			Description: `Everything about "tea".`, Image: "http://pages.test/img/cover.png"}},
		{name: "no head: the whole page is read", page: `<title>Bare</title><meta content='Short' name='og:description'>`,
			want: urlDetails{Title: "Bare", Description: "Short"}},
		{name: "data icon and absolute image kept", page: `<head><link href="data:image/png;base64,AAAA" rel="icon"><meta property="og:image:url" content="https://cdn.test/a.jpg"></head>`,
			want: urlDetails{Icon: "data:image/png;base64,AAAA", Image: "https://cdn.test/a.jpg"}},
		{name: "nothing to find", page: "<html><head></head><body>hello</body></html>", want: urlDetails{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := pageDetails(c.page, "http://pages.test/some/article"); got != c.want {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestURLDetailsRoute(t *testing.T) {
	f := newFixture(t)
	var hits atomic.Int64
	pages := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/article":
			io.WriteString(w, detailsPage)
		case "/empty":
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(pages.Close)
	f.gw.urlDetails = newSafeFetcher(true, 5*time.Second, urlDetailsMaxBytes)
	admin, reader := basic("admin", f.adminPW), basic("reader", f.userPassword(t, "reader", "subscriber"))
	path := func(target string) string {
		return "/cms-json/cms-block-editor/v1/url-details?" + url.Values{"url": {target}}.Encode()
	}
	article := pages.URL + "/article"
	host := strings.TrimPrefix(pages.URL, "http://")
	cases := []struct {
		name   string
		path   string
		auth   http.Header
		status int
		want   string
	}{
		{name: "missing url", path: "/cms-json/cms-block-editor/v1/url-details", auth: admin, status: 400,
			want: `{"code":"rest_missing_callback_param","message":"Missing parameter(s): url","data":{"status":400,"params":["url"]}}`},
		// WordPress answers "details":[] (an empty PHP array); the route
		// kit writes {} for every validate callback's plain refusal.
		{name: "not a URL", path: path("notaurl"), auth: admin, status: 400,
			want: `{"code":"rest_invalid_param","message":"Invalid parameter(s): url","data":{"status":400,"params":{"url":"Invalid parameter."},"details":{}}}`},
		{name: "a private address", path: path("http://10.0.0.1/"), auth: admin, status: 400},
		{name: "another scheme", path: path("ftp://example.com/"), auth: admin, status: 400},
		{name: "validation comes before permission", path: path("notaurl"), status: 400},
		{name: "anonymous", path: path(article), status: 401,
			want: `{"code":"rest_cannot_view_url_details","message":"Sorry, you are not allowed to process remote URLs.","data":{"status":401}}`},
		{name: "a subscriber", path: path(article), auth: reader, status: 403},
		{name: "the page's details", path: path(article + "/"), auth: admin, status: 200,
			want: `{"title":"Tea & biscuits","icon":"http:\/\/` + host + `\/favicon.ico","description":"Everything about \"tea\".","image":"http:\/\/` + host + `\/img\/cover.png"}`},
		{name: "a page that is not there", path: path(pages.URL + "/gone"), auth: admin, status: 404,
			want: `{"code":"no_response","message":"URL not found. Response returned a non-200 status code for this URL.","data":{"status":404}}`},
		{name: "an empty page", path: path(pages.URL + "/empty"), auth: admin, status: 404,
			want: `{"code":"no_content","message":"Unable to retrieve body from response at this URL.","data":{"status":404}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, _ := f.do("GET", c.path, c.auth)
			if rec.Code != c.status || (c.want != "" && strings.TrimSpace(rec.Body.String()) != c.want) {
				t.Fatalf("%d %s\nwant %d %s", rec.Code, rec.Body, c.status, c.want)
			}
		})
	}
	// The answer is cached for an hour (the trailing slash is not part of
	// the key); a failure is not cached.
	before := hits.Load()
	if rec, _ := f.do("GET", path(article), admin); rec.Code != 200 || hits.Load() != before {
		t.Fatalf("cached answer refetched: %d, hits %d → %d", rec.Code, before, hits.Load())
	}
	f.do("GET", path(pages.URL+"/gone"), admin)
	if hits.Load() != before+1 {
		t.Fatalf("failure cached: hits %d → %d", before, hits.Load())
	}
	f.gw.cfg.Now = func() time.Time { return time.Now().Add(61 * time.Minute) }
	defer func() { f.gw.cfg.Now = time.Now }()
	if rec, _ := f.do("GET", path(article), admin); rec.Code != 200 || hits.Load() != before+2 {
		t.Fatalf("expired answer reused: hits %d", hits.Load())
	}
}

// userPassword creates a user of role and returns an application password
// of theirs.
func (f *fixture) userPassword(t *testing.T, login, role string) string {
	t.Helper()
	ctx := context.Background()
	u, err := f.store.CreateUser(ctx, accounts.NewUser{Login: login, Email: login + "@example.com", Role: role})
	if err != nil {
		t.Fatal(err)
	}
	pw, _, err := f.store.CreatePassword(ctx, u.ID, "t", "")
	if err != nil {
		t.Fatal(err)
	}
	return pw
}

// A page of the site itself is read in-process as an anonymous visitor
// sees it, whatever the site's address (WordPress lets its own host through
// wp_http_validate_url): here site.test, which does not even resolve.
func TestURLDetailsOfTheSiteItself(t *testing.T) {
	f := newFixture(t)
	var seen []string
	content := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.URL.Path+" "+r.Header.Get(contract.IdentityHeader))
		switch r.URL.Path {
		case contract.SitePath + "/about": // the site's canonical redirect
			http.Redirect(w, r, "http://site.test/about/", http.StatusMovedPermanently)
			return
		case contract.SitePath + "/away":
			http.Redirect(w, r, "http://169.254.169.254/", http.StatusFound)
			return
		case contract.SitePath + "/about/":
		default:
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, `<html><head><title>About us</title><meta name="description" content="Who we are"></head><body></body></html>`)
	}))
	t.Cleanup(content.Close)
	tb, err := routing.Compile(contract.DefaultRoutes(map[string]string{contract.ServiceContent: content.URL}))
	if err != nil {
		t.Fatal(err)
	}
	f.gw.cfg.Routes = routing.NewStatic(tb)
	admin := basic("admin", f.adminPW)
	path := func(target string) string {
		return "/cms-json/cms-block-editor/v1/url-details?" + url.Values{"url": {target}}.Encode()
	}
	rec, _ := f.do("GET", path("http://site.test/about/"), admin)
	if rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"title":"About us","icon":"","description":"Who we are","image":""}` {
		t.Fatalf("own page: %d %s (content saw %q)", rec.Code, rec.Body, seen)
	}
	if len(seen) != 2 || seen[1] != contract.SitePath+"/about/ " { // the redirect followed, as an anonymous visitor
		t.Fatalf("content saw %q", seen)
	}
	for _, target := range []string{"http://site.test/missing/", "http://site.test/away"} {
		if rec, body := f.do("GET", path(target), admin); rec.Code != 404 || body["code"] != "no_response" {
			t.Fatalf("%s: %d %s", target, rec.Code, rec.Body)
		}
	}
	// another host of the same name's domain is not the site
	if rec, body := f.do("GET", path("http://other.site.test/about/"), admin); rec.Code != 400 || body["code"] != "rest_invalid_param" {
		t.Fatalf("other host: %d %s", rec.Code, rec.Body)
	}
}

// Without the test allowance a loopback page is refused before any fetch.
func TestURLDetailsRefusesLoopback(t *testing.T) {
	f := newFixture(t)
	var hits atomic.Int64
	pages := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hits.Add(1); io.WriteString(w, detailsPage) }))
	t.Cleanup(pages.Close)
	rec, body := f.do("GET", "/cms-json/cms-block-editor/v1/url-details?url="+url.QueryEscape(pages.URL+"/article"), basic("admin", f.adminPW))
	if rec.Code != 400 || body["code"] != "rest_invalid_param" || hits.Load() != 0 {
		t.Fatalf("%d %s, hits %d", rec.Code, rec.Body, hits.Load())
	}
}

// The block editor's namespace has routes of the gateway (url-details) and
// of content (navigation-fallback): the namespaces keep the seed's order,
// and the namespace's routes follow its index route.
func TestIndexBlockEditorNamespace(t *testing.T) {
	f := newKitFixture(t)
	tb := f.gw.cfg.Routes.Current()
	indexes := map[string]*serviceIndex{contract.ServiceContent: {index: &rest.Index{Routes: []rest.RouteDescription{
		{Route: "/cms/v2/posts", Namespace: "cms/v2"},
		{Route: "/cms-block-editor/v1/navigation-fallback", Namespace: "cms-block-editor/v1"},
	}}}}
	descs, namespaces := f.gw.merge(tb, indexes)
	if got := strings.Join(namespaces, " "); got != "oembed/1.0 cache-plugin/v1 cache-plugin/v3 host-tools/v1 cms/v2 cms-site-health/v1 cms-block-editor/v1 cms-abilities/v1" {
		t.Fatalf("namespaces %s", got)
	}
	var routes []string
	for _, d := range descs {
		if strings.HasPrefix(d.Route, "/cms-block-editor/") || strings.HasPrefix(d.Route, "/cms-abilities/") {
			routes = append(routes, d.Route)
		}
	}
	if got := strings.Join(routes, " "); got != "/cms-block-editor/v1 /cms-block-editor/v1/url-details /cms-block-editor/v1/navigation-fallback /cms-abilities/v1" {
		t.Fatalf("routes %s", got)
	}
}
