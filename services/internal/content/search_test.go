package content

import (
	"fmt"
	"testing"
)

func TestSearch(t *testing.T) {
	e := newEnv(t)
	post := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Gardening tips", "status": "publish"}).id()
	page := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "About gardening", "status": "publish"}).id()
	e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Draft gardening", "status": "draft"})
	e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Cooking", "status": "publish"})
	tag := e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": "gardening"}).id()

	r := e.do(anon, "GET", "/cms/v2/search?search=gardening", nil)
	wantStatus(t, r, 200)
	if r.Header.Get("X-WP-Total") != "2" || len(r.list()) != 2 {
		t.Fatalf("posts: %v %s", r.Header, r.Raw)
	}
	first := r.list()[0] // the title match wins, then the newer one
	if first["type"] != "post" || (first["subtype"] != "page" && first["subtype"] != "post") || first["url"] == "" {
		t.Fatalf("hit: %v", first)
	}
	self := field(first, "_links", "self").([]any)[0].(map[string]any)
	if self["embeddable"] != true || self["href"] == nil {
		t.Fatalf("self link: %v", self)
	}
	r = e.do(anon, "GET", "/cms/v2/search?search=gardening&subtype=page", nil)
	if l := r.list(); len(l) != 1 || l[0]["id"] != float64(page) || l[0]["url"] != "http://example.test/about-gardening/" {
		t.Fatalf("subtype page: %s", r.Raw)
	}
	r = e.do(anon, "GET", fmt.Sprintf("/cms/v2/search?search=gardening&exclude=%d", page), nil)
	if l := r.list(); len(l) != 1 || l[0]["id"] != float64(post) {
		t.Fatalf("exclude: %s", r.Raw)
	}
	r = e.do(anon, "GET", "/cms/v2/search?search=garden&type=term", nil)
	if l := r.list(); len(l) != 1 || l[0]["id"] != float64(tag) || l[0]["subtype"] != "post_tag" || l[0]["url"] != "http://example.test/tag/gardening/" {
		t.Fatalf("terms: %s", r.Raw)
	}
	if about := field(r.list()[0], "_links", "about").([]any)[0].(map[string]any); about["href"] != "http://example.test/cms-json/cms/v2/taxonomies/post_tag" {
		t.Fatalf("term about: %v", about)
	}
	wantError(t, e.do(anon, "GET", "/cms/v2/search?type=comment", nil), 400, "rest_invalid_param", "")
	wantError(t, e.do(anon, "GET", "/cms/v2/search?subtype=wp_block", nil), 400, "rest_invalid_param", "")
	wantError(t, e.do(anon, "GET", "/cms/v2/search?context=edit", nil), 400, "rest_invalid_param", "")
	if r := e.do(anon, "GET", "/cms/v2/search?search=nothing-matches&page=2", nil); r.Status != 200 || len(r.list()) != 0 {
		t.Fatalf("empty page 2: %s", r.Raw)
	}
}
