package content

import (
	"fmt"
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// seedPosts creates posts as the editor and returns their ids in order.
func seedPosts(e *testEnv, bodies ...map[string]any) []int64 {
	e.t.Helper()
	var ids []int64
	for _, b := range bodies {
		if _, ok := b["status"]; !ok {
			b["status"] = "publish"
		}
		r := e.do(editor, "POST", "/cms/v2/posts", b)
		if r.Status != 201 {
			e.t.Fatalf("seed: %d %s", r.Status, r.Raw)
		}
		ids = append(ids, r.id())
	}
	return ids
}

func ids(r *resp) []int64 {
	var out []int64
	for _, o := range r.list() {
		out = append(out, int64(o["id"].(float64)))
	}
	return out
}

func eq(a, b []int64) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func TestListPagination(t *testing.T) {
	e := newEnv(t)
	var bodies []map[string]any
	for i := 1; i <= 5; i++ {
		bodies = append(bodies, map[string]any{"title": fmt.Sprintf("P%d", i), "date": fmt.Sprintf("2024-01-0%dT10:00:00", i)})
	}
	pid := seedPosts(e, bodies...)
	r := e.do(anon, "GET", "/cms/v2/posts?per_page=2&page=2&orderby=date", nil)
	wantStatus(t, r, 200)
	if !eq(ids(r), []int64{pid[2], pid[1]}) {
		t.Fatalf("page 2: %v", ids(r))
	}
	if r.Header.Get("X-WP-Total") != "5" || r.Header.Get("X-WP-TotalPages") != "3" {
		t.Fatalf("totals %v", r.Header)
	}
	link := r.Header.Get("Link")
	want := `<http://example.test/cms-json/cms/v2/posts?per_page=2&page=1&orderby=date>; rel="prev", <http://example.test/cms-json/cms/v2/posts?per_page=2&page=3&orderby=date>; rel="next"`
	if link != want {
		t.Fatalf("Link\n got %s\nwant %s", link, want)
	}
	wantError(t, e.do(anon, "GET", "/cms/v2/posts?page=4&per_page=2", nil), 400, "rest_post_invalid_page_number",
		"The page number requested is larger than the number of pages available.")
	// offset does not reduce X-WP-Total
	r = e.do(anon, "GET", "/cms/v2/posts?offset=4&order=asc", nil)
	if !eq(ids(r), []int64{pid[4]}) || r.Header.Get("X-WP-Total") != "5" {
		t.Fatalf("offset: %v %v", ids(r), r.Header)
	}
	// an empty collection answers [] even beyond page 1
	r = e.do(anon, "GET", "/cms/v2/posts?search=nothing-matches&page=3", nil)
	wantStatus(t, r, 200)
	if len(r.list()) != 0 || r.Header.Get("X-WP-Total") != "0" || r.Header.Get("X-WP-TotalPages") != "0" {
		t.Fatalf("empty: %s %v", r.Raw, r.Header)
	}
	// one round trip per collection read once its posts are cached (the
	// first read of a post adds one for its row: post_versions.go)
	e.do(anon, "GET", "/cms/v2/posts?per_page=2", nil)
	before := e.queries.n.Load()
	e.do(anon, "GET", "/cms/v2/posts?per_page=2", nil)
	if n := e.queries.n.Load() - before; n != 1 {
		t.Fatalf("collection read used %d statements", n)
	}
	before = e.queries.n.Load()
	e.do(anon, "GET", fmt.Sprintf("/cms/v2/posts/%d", pid[0]), nil)
	if n := e.queries.n.Load() - before; n != 1 {
		t.Fatalf("item read used %d statements", n)
	}
}

func TestListStatusPermission(t *testing.T) {
	e := newEnv(t)
	seedPosts(e, map[string]any{"title": "pub"}, map[string]any{"title": "draft", "status": "draft"},
		map[string]any{"title": "private", "status": "private"})
	r := e.do(anon, "GET", "/cms/v2/posts?status=draft", nil)
	wantError(t, r, 400, "rest_invalid_param", "Invalid parameter(s): status")
	if field(r.obj(), "data", "params", "status") != "Status is forbidden." ||
		field(r.obj(), "data", "details", "status", "code") != "rest_forbidden_status" ||
		field(r.obj(), "data", "details", "status", "data", "status") != float64(401) {
		t.Fatalf("details: %s", r.Raw)
	}
	r = e.do(subscriber, "GET", "/cms/v2/posts?status=private", nil)
	if field(r.obj(), "data", "details", "status", "data", "status") != float64(403) {
		t.Fatalf("subscriber: %s", r.Raw)
	}
	wantError(t, e.do(anon, "GET", "/cms/v2/posts?context=edit", nil), 401, "rest_forbidden_context",
		"Sorry, you are not allowed to edit posts in this post type.")
	wantError(t, e.do(subscriber, "GET", "/cms/v2/posts?context=edit", nil), 403, "rest_forbidden_context", "")

	r = e.do(editor, "GET", "/cms/v2/posts?status=draft,private&context=edit", nil)
	if len(r.list()) != 2 {
		t.Fatalf("editor drafts: %s", r.Raw)
	}
	r = e.do(editor, "GET", "/cms/v2/posts?status=any", nil)
	if len(r.list()) != 3 {
		t.Fatalf("any: %s", r.Raw)
	}
	// a contributor may ask for drafts, but sees only what it can read
	r = e.do(contributor, "GET", "/cms/v2/posts?status=draft", nil)
	if len(r.list()) != 0 || r.Header.Get("X-WP-Total") != "1" {
		t.Fatalf("contributor: %s %v", r.Raw, r.Header)
	}
}

func TestListFilters(t *testing.T) {
	e := newEnv(t)
	cat := func(name string, parent int64) int64 {
		r := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": name, "parent": parent})
		wantStatus(t, r, 201)
		return r.id()
	}
	parent := cat("Parent", 0)
	child := cat("Child", parent)
	other := cat("Other", 0)
	tag := e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": "T"}).id()
	p := seedPosts(e,
		map[string]any{"title": "Alpha apple", "categories": []int64{parent}, "date": "2024-02-01T00:00:00", "slug": "alpha"},
		map[string]any{"title": "Beta", "content": "apple pie", "categories": []int64{child}, "tags": []int64{tag}, "date": "2024-02-02T00:00:00"},
		map[string]any{"title": "Gamma", "categories": []int64{other, parent}, "tags": []int64{tag}, "date": "2024-02-03T00:00:00", "format": "aside"},
		map[string]any{"title": "Delta apple pie", "date": "2024-02-04T00:00:00", "sticky": true, "author": 3},
	)
	cases := []struct {
		query string
		want  []int64
	}{
		{"categories=" + store.Itoa(parent), []int64{p[2], p[0]}},
		{"categories[terms]=" + store.Itoa(parent) + "&categories[include_children]=1", []int64{p[2], p[1], p[0]}},
		{"categories[terms][]=" + store.Itoa(parent) + "&categories[terms][]=" + store.Itoa(other) + "&categories[operator]=AND", []int64{p[2]}},
		{"categories_exclude=" + store.Itoa(parent), []int64{p[3], p[1]}},
		{"categories=" + store.Itoa(child) + "&tags=" + store.Itoa(tag), []int64{p[1]}},
		{"categories=" + store.Itoa(child) + "&tags=" + store.Itoa(tag) + "&tax_relation=OR", []int64{p[2], p[1]}},
		{"search=apple", []int64{p[3], p[1], p[0]}},
		{"search=apple&search_columns=post_title", []int64{p[3], p[0]}},
		{"search=apple%20pie&orderby=relevance", []int64{p[3], p[1], p[0]}[:2]},
		{"search=Beta&search_semantics=exact", []int64{p[1]}},
		{"search=Bet&search_semantics=exact", nil},
		{"include=" + store.Itoa(p[0]) + "," + store.Itoa(p[2]) + "," + store.Itoa(p[1]) + "&orderby=include", []int64{p[0], p[2], p[1]}},
		{"exclude=" + store.Itoa(p[0]), []int64{p[3], p[2], p[1]}},
		{"slug=alpha", []int64{p[0]}},
		{"after=2024-02-02T00:00:00&before=2024-02-04T00:00:00", []int64{p[2]}},
		{"author=3", []int64{p[3]}},
		{"author_exclude=3&order=asc", []int64{p[0], p[1], p[2]}},
		{"sticky=true", []int64{p[3]}},
		{"sticky=false", []int64{p[2], p[1], p[0]}},
		{"format=aside", []int64{p[2]}},
		{"format=standard&order=asc", []int64{p[0], p[1], p[3]}},
		{"orderby=title&order=asc", []int64{p[0], p[1], p[3], p[2]}},
		{"orderby=id&order=asc", []int64{p[0], p[1], p[2], p[3]}},
		{"ignore_sticky=false&order=asc", []int64{p[3], p[0], p[1], p[2]}},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			for range 2 { // the second read finds the posts' JSON cached (by version)
				r := e.do(anon, "GET", "/cms/v2/posts?"+c.query, nil)
				wantStatus(t, r, 200)
				if !eq(ids(r), c.want) {
					t.Fatalf("got %v want %v", ids(r), c.want)
				}
			}
		})
	}
	wantError(t, e.do(anon, "GET", "/cms/v2/posts?orderby=relevance", nil), 400, "rest_no_search_term_defined",
		"You need to define a search term to order by relevance.")
	wantError(t, e.do(anon, "GET", "/cms/v2/posts?orderby=include", nil), 400, "rest_orderby_include_missing_include",
		"You need to define an include parameter to order by include.")
	r := e.do(anon, "GET", "/cms/v2/posts?categories[bogus]=1", nil)
	wantError(t, r, 400, "rest_invalid_param", "Invalid parameter(s): categories")
	if !strings.Contains(str(field(r.obj(), "data", "params", "categories")), "Term ID Taxonomy Query") {
		t.Fatalf("term query message: %s", r.Raw)
	}
	wantError(t, e.do(anon, "GET", "/cms/v2/posts?sticky=yes", nil), 400, "rest_invalid_param", "Invalid parameter(s): sticky")
}

func TestStickyPrepend(t *testing.T) {
	e := newEnv(t)
	var bodies []map[string]any
	for i := 0; i < 5; i++ {
		bodies = append(bodies, map[string]any{"title": fmt.Sprintf("S%d", i), "date": fmt.Sprintf("2024-03-0%dT10:00:00", i+1), "sticky": i == 0 || i == 3})
	}
	p := seedPosts(e, bodies...)
	cases := []struct {
		query string
		want  []int64
	}{
		// page 1: the page's sticky post first, then the sticky post the page lacks, then the rest
		{"per_page=2&ignore_sticky=false", []int64{p[3], p[0], p[4]}},
		{"per_page=2&page=2&ignore_sticky=false", []int64{p[2], p[1]}},
		{"per_page=2", []int64{p[4], p[3]}},
		{"per_page=2&ignore_sticky=false&exclude=" + store.Itoa(p[0]), []int64{p[3], p[4]}},
		{"per_page=2&ignore_sticky=false&search=S", []int64{p[4], p[3]}},
	}
	for _, c := range cases {
		total := ""
		for i := range 2 { // the second read finds the posts' JSON cached (by version)
			r := e.do(anon, "GET", "/cms/v2/posts?"+c.query, nil)
			if !eq(ids(r), c.want) || r.Header.Get("X-WP-Total") == "" || (i == 1 && r.Header.Get("X-WP-Total") != total) {
				t.Errorf("%s (read %d): got %v %s want %v %s", c.query, i+1, ids(r), r.Header.Get("X-WP-Total"), c.want, total)
			}
			total = r.Header.Get("X-WP-Total")
		}
	}
}
