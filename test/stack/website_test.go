package stack

import (
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// The website through the gateway: every kind of page, its discovery
// headers and links, the template hierarchy with a customised template,
// privacy of drafts and private posts, protected posts, feeds, sitemaps.

// page requests a website path without following redirects.
func page(t *testing.T, method, path string, auth ...string) *Response {
	t.Helper()
	return pageWith(t, &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		method, path, auth...)
}

func pageWith(t *testing.T, c *http.Client, method, path string, auth ...string) *Response {
	t.Helper()
	u := path
	if strings.HasPrefix(path, "/") {
		u = st.SiteURL + path
	}
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(auth) == 2 {
		req.SetBasicAuth(auth[0], auth[1])
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return &Response{Status: res.StatusCode, Header: res.Header, Raw: raw}
}

// create posts an item and returns its JSON object.
func create(t *testing.T, route string, body map[string]any) map[string]any {
	t.Helper()
	r := call(t, "POST", "/cms-json/cms/v2/"+route, body, admin()...)
	if r.Status != 201 {
		t.Fatalf("create %s: %d %.300s", route, r.Status, r.Raw)
	}
	return r.Obj()
}

// expectPage checks an HTML page: status, the discovery header and link,
// and that it contains every want.
func expectPage(t *testing.T, r *Response, status int, want ...string) {
	t.Helper()
	body := string(r.Raw)
	root := st.SiteURL + "/cms-json/"
	if r.Status != status || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("status %d (want %d), type %q: %.500s", r.Status, status, r.Header.Get("Content-Type"), body)
	}
	if !strings.Contains(strings.Join(r.Header.Values("Link"), ","), "<"+root+`>; rel="https://api.w.org/"`) {
		t.Errorf("no REST discovery Link header: %v", r.Header.Values("Link"))
	}
	if !strings.HasPrefix(body, "<!DOCTYPE html>") || !strings.Contains(body, `<link rel="https://api.w.org/" href="`+root+`">`) ||
		!strings.Contains(body, "</html>") {
		t.Errorf("not a page with the discovery link: %.300s", body)
	}
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("page lacks %q", w)
		}
	}
}

func TestWebsitePages(t *testing.T) {
	needs(t, contract.ServiceContent)
	tag := fmt.Sprint(time.Now().UnixNano())
	cat := create(t, "categories", map[string]any{"name": "Web " + tag, "description": "About the web"})
	tg := create(t, "tags", map[string]any{"name": "tagged-" + tag})
	post := create(t, "posts", map[string]any{"title": "Hello website " + tag, "status": "publish", "categories": []any{cat["id"]},
		"tags": []any{tg["id"]}, "excerpt": "An excerpt " + tag,
		"content": "<!-- wp:heading -->\n<h2 class=\"wp-block-heading\">Heading " + tag + "</h2>\n<!-- /wp:heading -->\n<!-- wp:paragraph -->\n<p>Body words" + tag + "</p>\n<!-- /wp:paragraph -->"})
	link := post["link"].(string)
	parent := create(t, "pages", map[string]any{"title": "Parent " + tag, "status": "publish", "content": "Parent body"})
	child := create(t, "pages", map[string]any{"title": "Child " + tag, "status": "publish", "parent": parent["id"], "content": "Child body " + tag})
	draft := create(t, "posts", map[string]any{"title": "Draft " + tag, "status": "draft", "content": "Draft body"})
	private := create(t, "posts", map[string]any{"title": "Hidden " + tag, "status": "private", "content": "Private body"})
	locked := create(t, "posts", map[string]any{"title": "Locked " + tag, "status": "publish", "password": "sesame", "content": "Secret body " + tag})

	t.Run("front page GET and HEAD", func(t *testing.T) {
		r := page(t, "GET", "/")
		expectPage(t, r, 200, "<title>Stack Test – Siteplane under test</title>", `class="wp-block-site-title"`, "Hello website "+tag,
			`<link rel="canonical" href="`+st.SiteURL+`/">`, `<meta property="og:site_name" content="Stack Test">`, `<main id="wp--skip-link--target"`)
		h := page(t, "HEAD", "/")
		if h.Status != 200 || len(h.Raw) != 0 || !strings.Contains(h.Header.Get("Link"), `rel="https://api.w.org/"`) {
			t.Errorf("HEAD /: %d %v %q", h.Status, h.Header, h.Raw)
		}
	})
	t.Run("single post at its link", func(t *testing.T) {
		if !strings.HasPrefix(link, st.SiteURL+"/") || !strings.HasSuffix(link, "/") {
			t.Fatalf("link %q", link)
		}
		r := page(t, "GET", link)
		expectPage(t, r, 200, "Hello website "+tag+"</h1>", "Heading "+tag, "Body words"+tag, `href="`+cat["link"].(string)+`" rel="tag"`,
			`<link rel="canonical" href="`+link+`">`, `type="application/json+oembed"`, `type="text/xml+oembed"`,
			`<meta name="description" content="An excerpt `+tag+`">`, `<meta property="og:type" content="article">`)
		if strings.Contains(string(r.Raw), "<!-- wp:") {
			t.Error("block delimiters left in the page")
		}
		if !strings.Contains(strings.Join(r.Header.Values("Link"), ","), fmt.Sprintf(`/cms-json/cms/v2/posts/%v>; rel="alternate"`, post["id"])) {
			t.Errorf("no alternate JSON link header: %v", r.Header.Values("Link"))
		}
		if r := page(t, "GET", strings.TrimSuffix(link, "/")); r.Status != 301 || r.Header.Get("Location") != link {
			t.Errorf("without the trailing slash: %d %q", r.Status, r.Header.Get("Location"))
		}
	})
	t.Run("nested page", func(t *testing.T) {
		cl := child["link"].(string)
		if !strings.HasPrefix(cl, parent["link"].(string)) {
			t.Fatalf("child link %q is not under %q", cl, parent["link"])
		}
		expectPage(t, page(t, "GET", cl), 200, "Child "+tag, "Child body "+tag)
		expectPage(t, page(t, "GET", parent["link"].(string)), 200, "Parent "+tag)
	})
	t.Run("?p= and ?page_id= redirect to the permalink", func(t *testing.T) {
		for _, tt := range []struct{ q, want string }{
			{fmt.Sprintf("/?p=%v", post["id"]), link},
			{fmt.Sprintf("/?page_id=%v", child["id"]), child["link"].(string)},
		} {
			if r := page(t, "GET", tt.q); r.Status != 301 || r.Header.Get("Location") != tt.want {
				t.Errorf("%s: %d %q, want 301 %q", tt.q, r.Status, r.Header.Get("Location"), tt.want)
			}
		}
		expectPage(t, page(t, "GET", fmt.Sprintf("/?page_id=%v", post["id"])), 404)
		me := call(t, "GET", "/cms-json/cms/v2/users/me", nil, admin()...).Obj()
		for _, tt := range []struct{ q, want string }{
			{fmt.Sprintf("/?cat=%v", cat["id"]), cat["link"].(string)},
			{"/?tag=" + url.QueryEscape(tg["slug"].(string)), tg["link"].(string)},
			{fmt.Sprintf("/?author=%v", me["id"]), fmt.Sprintf("%s/author/%v/", st.SiteURL, me["slug"])},
		} {
			if r := page(t, "GET", tt.q); r.Status != 301 || r.Header.Get("Location") != tt.want {
				t.Errorf("%s: %d %q, want 301 %q", tt.q, r.Status, r.Header.Get("Location"), tt.want)
			}
		}
	})
	t.Run("archives and search", func(t *testing.T) {
		me := call(t, "GET", "/cms-json/cms/v2/users/me", nil, admin()...).Obj()
		y, m := time.Now().UTC().Format("2006"), time.Now().UTC().Format("01")
		for _, tt := range []struct{ path, title string }{
			{cat["link"].(string), "Category: Web " + tag},
			{tg["link"].(string), "Tag: tagged-" + tag},
			{fmt.Sprintf("/author/%v/", me["slug"]), "Author: "},
			{"/" + y + "/" + m + "/", "Month: "},
			{"/" + y + "/", "Year: " + y},
			{"/?s=" + url.QueryEscape("website "+tag), "Search results for"},
		} {
			r := page(t, "GET", tt.path)
			expectPage(t, r, 200, tt.title, "Hello website "+tag)
		}
		expectPage(t, page(t, "GET", "/?s=nothing-matches-"+tag), 200, "Nothing")
		expectPage(t, page(t, "GET", "/category/no-such-"+tag+"/"), 404)
		expectPage(t, page(t, "GET", "/2026/13/"), 404)
	})
	t.Run("pagination", func(t *testing.T) {
		pc := create(t, "categories", map[string]any{"name": "Many " + tag})
		for i := 0; i < 12; i++ {
			create(t, "posts", map[string]any{"title": fmt.Sprintf("Many %d %s", i, tag), "status": "publish", "categories": []any{pc["id"]}})
		}
		base := pc["link"].(string)
		expectPage(t, page(t, "GET", base), 200, `aria-label="Pagination"`, `href="`+base+`page/2/" class="wp-block-query-pagination-next">Next Page</a>`, "Many 11 "+tag)
		expectPage(t, page(t, "GET", base+"page/2/"), 200, "Many 0 "+tag, `href="`+base+`" class="wp-block-query-pagination-previous">Previous Page</a>`,
			`<link rel="canonical" href="`+base+`page/2/">`)
		expectPage(t, page(t, "GET", base+"page/3/"), 404)
	})
	t.Run("404 page", func(t *testing.T) {
		expectPage(t, page(t, "GET", "/no-such-page-"+tag+"/"), 404, "Page not found", `name="s"`, `<meta name="robots" content="noindex, follow">`)
	})
	t.Run("drafts and private posts only for allowed callers", func(t *testing.T) {
		dq := fmt.Sprintf("/?p=%v", draft["id"])
		expectPage(t, page(t, "GET", dq), 404)
		expectPage(t, page(t, "GET", dq, admin()...), 200, "Draft "+tag)
		pl := private["link"].(string)
		expectPage(t, page(t, "GET", pl), 404)
		expectPage(t, page(t, "GET", pl, admin()...), 200, "Private: Hidden "+tag)
		if r := page(t, "GET", "/"); strings.Contains(string(r.Raw), "Hidden "+tag) || strings.Contains(string(r.Raw), "Draft "+tag) {
			t.Error("the front page lists a private or draft post to anonymous visitors")
		}
		// bad credentials are an anonymous visit, not an error
		expectPage(t, page(t, "GET", pl, st.AdminUser, "wrong"), 404)
	})
	t.Run("password protected post", func(t *testing.T) {
		ll := locked["link"].(string)
		r := page(t, "GET", ll)
		expectPage(t, r, 200, "Protected: Locked "+tag, `name="post_password"`, `action="`+st.SiteURL+`/?action=postpass"`)
		if strings.Contains(string(r.Raw), "Secret body") {
			t.Fatal("protected content shown without the password")
		}
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar}
		res, err := c.PostForm(st.SiteURL+"/?action=postpass", url.Values{"post_password": {"sesame"}, "redirect_to": {ll}})
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(body), "Secret body "+tag) {
			t.Fatalf("after the password: %d %.300s", res.StatusCode, body)
		}
	})
	t.Run("a customised template overrides the theme's", func(t *testing.T) {
		marker := "CUSTOM-SINGLE-" + tag
		r := call(t, "POST", "/cms-json/cms/v2/templates/siteplane//single", map[string]any{
			"content": "<!-- wp:template-part {\"slug\":\"header\",\"tagName\":\"header\"} /-->\n<!-- wp:group {\"tagName\":\"main\"} --><main class=\"wp-block-group\"><!-- wp:paragraph --><p>" + marker + "</p><!-- /wp:paragraph --><!-- wp:post-title {\"level\":1} /--></main><!-- /wp:group -->"}, admin()...)
		if r.Status != 200 {
			t.Fatalf("customise: %d %.300s", r.Status, r.Raw)
		}
		t.Cleanup(func() { call(t, "DELETE", "/cms-json/cms/v2/templates/siteplane//single?force=true", nil, admin()...) })
		got := page(t, "GET", link)
		expectPage(t, got, 200, marker, "Hello website "+tag+"</h1>")
		if got.Header.Get("X-Siteplane-Template") != "single" || strings.Contains(string(got.Raw), "Body words") {
			t.Errorf("custom template not used: %q", got.Header.Get("X-Siteplane-Template"))
		}
		// a part customised over REST shows in every page
		call(t, "DELETE", "/cms-json/cms/v2/templates/siteplane//single?force=true", nil, admin()...)
		if after := page(t, "GET", link); strings.Contains(string(after.Raw), marker) || !strings.Contains(string(after.Raw), "Body words"+tag) {
			t.Error("the theme's template is not back after deleting the customisation")
		}
	})
	t.Run("embed page", func(t *testing.T) {
		r := page(t, "GET", link+"embed/")
		if r.Status != 200 || !strings.Contains(string(r.Raw), "Hello website "+tag) || !strings.Contains(string(r.Raw), "An excerpt "+tag) {
			t.Fatalf("embed: %d %.300s", r.Status, r.Raw)
		}
		o := call(t, "GET", "/cms-json/oembed/1.0/embed?url="+url.QueryEscape(link), nil).Obj()
		if h, _ := o["html"].(string); !strings.Contains(h, strings.TrimSuffix(link, "/")+"/embed/") {
			t.Errorf("oEmbed iframe does not point at the embed page: %v", o["html"])
		}
	})
	t.Run("feeds", func(t *testing.T) {
		var rss struct {
			XMLName xml.Name `xml:"rss"`
			Version string   `xml:"version,attr"`
			Channel struct {
				Title string `xml:"title"`
				Link  string `xml:"link"`
				Items []struct {
					Title       string `xml:"title"`
					Link        string `xml:"link"`
					PubDate     string `xml:"pubDate"`
					Description string `xml:"description"`
					GUID        string `xml:"guid"`
				} `xml:"item"`
			} `xml:"channel"`
		}
		for _, path := range []string{"/feed/", cat["link"].(string) + "feed/", tg["link"].(string) + "feed/"} {
			r := page(t, "GET", path)
			if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/rss+xml") {
				t.Fatalf("%s: %d %s", path, r.Status, r.Header.Get("Content-Type"))
			}
			if err := xml.Unmarshal(r.Raw, &rss); err != nil || rss.Version != "2.0" {
				t.Fatalf("%s: %v %.300s", path, err, r.Raw)
			}
			checkRSS(t, r.Raw)
			checkSchema(t, r.Raw, "rss", path)
			// the site feed has the ten newest posts (the pagination
			// posts above); the term feeds have the post
			found := path == "/feed/" && len(rss.Channel.Items) == 10
			for _, it := range rss.Channel.Items {
				if it.Link == link && it.Title == "Hello website "+tag {
					found = true
					if _, err := time.Parse(time.RFC1123Z, it.PubDate); err != nil {
						t.Errorf("pubDate %q: %v", it.PubDate, err)
					}
				}
				if strings.Contains(it.Description, "Secret body") {
					t.Errorf("protected content in the feed")
				}
			}
			if !found {
				t.Errorf("%s lacks the post: %.500s", path, r.Raw)
			}
		}
		var atom struct {
			XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
			ID      string   `xml:"id"`
			Entries []struct {
				Title string `xml:"title"`
				Link  struct {
					Href string `xml:"href,attr"`
				} `xml:"link"`
			} `xml:"entry"`
		}
		r := page(t, "GET", cat["link"].(string)+"feed/atom/")
		if err := xml.Unmarshal(r.Raw, &atom); err != nil || r.Status != 200 || atom.ID == "" || len(atom.Entries) != 1 {
			t.Fatalf("atom: %d %v %.300s", r.Status, err, r.Raw)
		}
		checkAtom(t, r.Raw)
		checkSchema(t, r.Raw, "atom", cat["link"].(string)+"feed/atom/")
		siteAtom := page(t, "GET", "/feed/atom/").Raw
		checkAtom(t, siteAtom)
		checkSchema(t, siteAtom, "atom", "/feed/atom/")
		tagAtom := page(t, "GET", tg["link"].(string)+"feed/atom/").Raw
		checkAtom(t, tagAtom)
		checkSchema(t, tagAtom, "atom", tg["link"].(string)+"feed/atom/")
		if atom.Entries[0].Link.Href != link || atom.Entries[0].Title != "Hello website "+tag {
			t.Errorf("atom lacks the post")
		}
	})
	t.Run("robots and sitemaps", func(t *testing.T) {
		r := page(t, "GET", "/robots.txt")
		if r.Status != 200 || !strings.Contains(string(r.Raw), "Sitemap: "+st.SiteURL+"/cms-sitemap.xml") {
			t.Fatalf("robots: %d %s", r.Status, r.Raw)
		}
		var index struct {
			XMLName  xml.Name `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 sitemapindex"`
			Sitemaps []struct {
				Loc string `xml:"loc"`
			} `xml:"sitemap"`
		}
		r = page(t, "GET", "/cms-sitemap.xml")
		if locs := checkSitemap(t, r.Raw, "sitemapindex"); len(locs) != 4 {
			t.Errorf("sitemap index locs %v", locs)
		}
		checkSchema(t, r.Raw, "sitemapindex", "/cms-sitemap.xml")
		if err := xml.Unmarshal(r.Raw, &index); err != nil || r.Status != 200 || len(index.Sitemaps) != 4 {
			t.Fatalf("sitemap index: %d %v %s", r.Status, err, r.Raw)
		}
		all := ""
		for _, sm := range index.Sitemaps {
			var set struct {
				XMLName xml.Name `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
				URLs    []struct {
					Loc     string `xml:"loc"`
					LastMod string `xml:"lastmod"`
				} `xml:"url"`
			}
			r := page(t, "GET", sm.Loc)
			if err := xml.Unmarshal(r.Raw, &set); err != nil || r.Status != 200 {
				t.Fatalf("%s: %d %v %.300s", sm.Loc, r.Status, err, r.Raw)
			}
			checkSchema(t, r.Raw, "urlset", sm.Loc)
			for _, loc := range checkSitemap(t, r.Raw, "urlset") {
				all += loc + "\n"
			}
			if len(set.URLs) == 0 {
				t.Errorf("%s is listed but empty", sm.Loc)
			}
		}
		// a sitemap page past the end has no entries, and so is not a
		// sitemap (a urlset needs one url): 404, as WordPress answers
		for _, past := range []string{"/cms-sitemap-posts-post-99.xml", "/cms-sitemap-taxonomies-category-2.xml", "/cms-sitemap-users-1.xml"} {
			if r := page(t, "GET", past); r.Status != 404 {
				t.Errorf("%s: %d, want 404", past, r.Status)
			}
		}
		for _, want := range []string{link, child["link"].(string), cat["link"].(string), tg["link"].(string)} {
			if !strings.Contains(all, want+"\n") {
				t.Errorf("sitemaps lack %s", want)
			}
		}
		if strings.Contains(all, locked["link"].(string)) || strings.Contains(all, "Hidden") {
			t.Error("sitemaps list a protected or private post")
		}
	})
	t.Run("reserved paths stay with their services", func(t *testing.T) {
		// The admin (the gateway's) sends an anonymous visitor to sign in;
		// the website's renderer never answers it.
		if r := page(t, "GET", "/cms-admin/"); r.Status != http.StatusFound || !strings.Contains(r.Header.Get("Location"), "/cms-login.php?redirect_to=") ||
			r.Header.Get("X-Siteplane-Template") != "" {
			t.Errorf("/cms-admin/: %d %q (template %q)", r.Status, r.Header.Get("Location"), r.Header.Get("X-Siteplane-Template"))
		}
	})
}

// Pages go through the gateway's edge cache: an anonymous visitor's second
// view is a hit, an authenticated one bypasses it, and a committed write (a
// new post in the archive) is on the very next view.
func TestWebsitePagesEdgeCache(t *testing.T) {
	needs(t, contract.ServiceContent)
	name := fmt.Sprintf("cached-%d", time.Now().UnixNano())
	cat := create(t, "categories", map[string]any{"name": name})
	path := "/category/" + cat["slug"].(string) + "/"
	if r := page(t, "GET", path); r.Status != 200 || r.Header.Get("X-Cache") != "miss" {
		t.Fatalf("first view: %d, X-Cache %q", r.Status, r.Header.Get("X-Cache"))
	}
	// The category's write is announced to the gateway asynchronously
	// too: when its notification lands after the first view was stored,
	// it starts a generation and the next view is a miss again. A page
	// renders in about a millisecond, so that happens: wait for a view
	// that is a hit, for at most two seconds.
	for deadline := time.Now().Add(2 * time.Second); ; {
		r := page(t, "GET", path)
		if r.Header.Get("X-Cache") == "hit" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("second view: X-Cache %q, want hit", r.Header.Get("X-Cache"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := page(t, "GET", path, admin()...); r.Header.Get("X-Cache") != "" {
		t.Fatalf("authenticated view: X-Cache %q, want none", r.Header.Get("X-Cache"))
	}
	title := name + " post"
	create(t, "posts", map[string]any{"title": title, "status": "publish", "categories": []any{cat["id"]}})
	r := page(t, "GET", path)
	if r.Header.Get("X-Cache") != "miss" || !strings.Contains(string(r.Raw), title) {
		t.Fatalf("view after a write: X-Cache %q, new post shown %v", r.Header.Get("X-Cache"), strings.Contains(string(r.Raw), title))
	}
}
