package stack

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

// The opt-in wp/v2 alias (the stack runs with it on): /wp-json/ and wp/v2
// are served by the cms/v2 handlers, with links in the names the client
// used, through the edge cache too.
func TestWPAliasAnswers(t *testing.T) {
	needs(t, contract.ServiceContent)
	create(t, "posts", map[string]any{"title": "Aliased first", "status": "publish"})
	post := create(t, "posts", map[string]any{"title": "Aliased", "status": "publish"})
	id := fmt.Sprint(post["id"])
	root, alias := st.SiteURL+"/cms-json/", st.SiteURL+"/wp-json/"
	cases := []struct {
		name, path string
		root, ns   string // the REST root and namespace the answer's links use
	}{
		{"cms/v2", "/cms-json/cms/v2/posts/" + id, root, "cms/v2"},
		{"alias", "/wp-json/wp/v2/posts/" + id, alias, "wp/v2"},
		{"alias again (an edge cache hit)", "/wp-json/wp/v2/posts/" + id, alias, "wp/v2"},
		{"cms/v2 again (the same entry)", "/cms-json/cms/v2/posts/" + id, root, "cms/v2"},
		// links are pretty whatever form the request took, as in WordPress
		{"plain alias", "/?rest_route=/wp/v2/posts/" + id, alias, "wp/v2"},
	}
	for _, c := range cases {
		r := call(t, "GET", c.path, nil)
		var self string
		if links, _ := r.Obj()["_links"].(map[string]any); links != nil {
			if l, _ := links["self"].([]any); len(l) > 0 {
				self = fmt.Sprint(l[0].(map[string]any)["href"])
			}
		}
		if r.Status != 200 || r.Obj()["id"] != post["id"] || !strings.HasPrefix(self, c.root+c.ns+"/posts/") {
			t.Errorf("%s: %d self %s, want under %s%s (%.200s)", c.name, r.Status, self, c.root, c.ns, r.Raw)
		}
		if strings.Contains(string(r.Raw), map[string]string{"cms/v2": `wp\/v2`, "wp/v2": `cms\/v2`}[c.ns]) {
			t.Errorf("%s: the other namespace leaks into the answer: %.300s", c.name, r.Raw)
		}
	}
	if h := call(t, "GET", "/wp-json/wp/v2/posts/"+id, nil).Header.Get("X-Cache"); h != "hit" {
		t.Errorf("the alias read was not served from the edge cache: X-Cache %q", h)
	}
	// The index and collections speak the client's names, and what the
	// alias rewrites never reaches the other clients: the index's headers
	// are shared values, a cache hit's are the stored entry's.
	for _, path := range []string{"/cms-json/", "/wp-json/", "/cms-json/", "/cms-json/cms/v2/posts?per_page=1", "/wp-json/wp/v2/posts?per_page=1", "/cms-json/cms/v2/posts?per_page=1"} {
		link := strings.Join(call(t, "GET", path, nil).Header.Values("Link"), ", ")
		root := strings.SplitAfter(path, "-json/")[0]
		if want := "<" + st.SiteURL + root + `>; rel="https://api.w.org/"`; !strings.Contains(link, want) {
			t.Errorf("%s: Link %q, want %s", path, link, want)
		}
		if strings.Contains(link, map[string]string{"/cms-json/": "/wp-json/", "/wp-json/": "/cms-json/"}[root]) {
			t.Errorf("%s: the other root in Link %q", path, link)
		}
	}
	idx := call(t, "GET", "/wp-json/", nil)
	routes, _ := idx.Obj()["routes"].(map[string]any)
	if routes["/wp/v2/posts"] == nil || routes["/cms/v2/posts"] != nil || !strings.Contains(fmt.Sprint(idx.Obj()["namespaces"]), "wp/v2") {
		t.Errorf("alias index: namespaces %v", idx.Obj()["namespaces"])
	}
	list := call(t, "GET", "/wp-json/wp/v2/posts?per_page=1", nil)
	if link := list.Header.Get("Link"); !strings.Contains(link, alias+"wp/v2/posts?per_page=1&page=2") {
		t.Errorf("alias collection Link: %s", link)
	}
	// Writes and batches too.
	w := call(t, "POST", "/wp-json/wp/v2/posts", map[string]any{"title": "Written through the alias"}, admin()...)
	if w.Status != 201 || !strings.HasPrefix(w.Header.Get("Location"), alias+"wp/v2/posts/") {
		t.Errorf("alias create: %d Location %q", w.Status, w.Header.Get("Location"))
	}
	b := call(t, "POST", "/wp-json/batch/v1", map[string]any{"requests": []any{
		map[string]any{"path": "/wp/v2/posts", "body": map[string]any{"title": "Batched through the alias"}}}}, admin()...)
	rs, _ := b.Obj()["responses"].([]any)
	if b.Status != 207 || len(rs) != 1 || rs[0].(map[string]any)["status"] != float64(201) {
		t.Errorf("alias batch: %d %.300s", b.Status, b.Raw)
	}
}

// The real npm wpapi, unmodified, through the alias (wp.posts()), and
// through cms/v2 with the route registered (testdata/wpapi-alias.js; the
// recipe is in docs/api.md).
func TestWPAPIThroughAliasAndCMS(t *testing.T) {
	needs(t, contract.ServiceContent)
	modules := npmModules(t)
	create(t, "posts", map[string]any{"title": "For wpapi", "status": "publish"})
	out := runNode(t, modules, "testdata/wpapi-alias.js", st.SiteURL)
	type item struct {
		ID               float64
		Self, Collection string
	}
	var got struct {
		Alias, CMS *item
		AliasOne   float64
		AliasTotal float64
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(string(out))), &got); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if got.Alias == nil || got.CMS == nil || got.Alias.ID != got.CMS.ID || got.AliasOne != got.Alias.ID || got.AliasTotal == 0 ||
		got.Alias.Collection != st.SiteURL+"/wp-json/wp/v2/posts" || got.CMS.Collection != st.SiteURL+"/cms-json/cms/v2/posts" {
		t.Errorf("wpapi: %s", out)
	}
}
