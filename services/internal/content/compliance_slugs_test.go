package content

import (
	"fmt"
	"slices"
	"testing"
)

// Compliance audit regressions (compliance_test.go): slugs.

func TestNumericPostSlugsAvoidDateArchives(t *testing.T) {
	e := newEnv(t)
	// permalinks are /%postname%/: a number in the first position reads as
	// a year, so wp_unique_post_slug suffixes numeric post slugs (pages: as
	// page numbers); an unchanged slug is kept
	cases := []struct {
		base string
		body map[string]any
		want string
	}{
		{"posts", map[string]any{"title": "2024", "status": "publish"}, "2024-2"},
		{"posts", map[string]any{"title": "x", "slug": "42", "status": "publish"}, "42-2"},
		{"posts", map[string]any{"title": "x", "slug": "43", "status": "draft"}, "43-2"},
		{"posts", map[string]any{"title": "0", "status": "publish"}, "0"},
		{"posts", map[string]any{"title": "2024 plans", "status": "publish"}, "2024-plans"},
		{"pages", map[string]any{"title": "2024", "status": "publish"}, "2024-2"},
		{"navigation", map[string]any{"title": "2024", "status": "publish"}, "2024"},
	}
	for _, c := range cases {
		t.Run(c.base+fmt.Sprint(c.body), func(t *testing.T) {
			r := e.do(admin, "POST", "/cms/v2/"+c.base, c.body)
			wantStatus(t, r, 201)
			if r.obj()["slug"] != c.want {
				t.Fatalf("slug %v, want %s", r.obj()["slug"], c.want)
			}
		})
	}
	// a post that has the numeric slug keeps it on update
	r := e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "y", "slug": "77", "status": "publish"})
	id := r.id()
	if _, err := e.pool.Exec(t.Context(), `UPDATE posts SET slug = '77' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	r = e.do(admin, "POST", fmt.Sprintf("/cms/v2/posts/%d", id), map[string]any{"slug": "77"})
	if r.obj()["slug"] != "77" {
		t.Fatalf("unchanged numeric slug: %v", r.obj()["slug"])
	}
}

func TestGeneratedSlug(t *testing.T) {
	e := newEnv(t)
	create := func(base string, body map[string]any) int64 {
		r := e.do(admin, "POST", "/cms/v2/"+base, body)
		wantStatus(t, r, 201)
		return r.id()
	}
	first := create("posts", map[string]any{"title": "Hello World", "status": "publish"})
	second := create("posts", map[string]any{"title": "Hello World", "status": "publish"})
	custom := create("posts", map[string]any{"title": "Other Title", "slug": "custom", "status": "publish"})
	draft := create("posts", map[string]any{"title": "Hello World"})
	numeric := create("posts", map[string]any{"title": "1999"})
	parentA := create("pages", map[string]any{"title": "A", "status": "publish"})
	child := create("pages", map[string]any{"title": "About", "parent": parentA, "status": "publish"})
	topAbout := create("pages", map[string]any{"title": "About"})
	// get_sample_permalink: the title's slug as if published, unique among
	// the other posts of the type (and parent), never the current slug
	cases := []struct {
		path string
		want string
	}{
		{fmt.Sprintf("/cms/v2/posts/%d", first), "hello-world"},
		{fmt.Sprintf("/cms/v2/posts/%d", second), "hello-world-2"},
		{fmt.Sprintf("/cms/v2/posts/%d", custom), "other-title"},
		{fmt.Sprintf("/cms/v2/posts/%d", draft), "hello-world-3"},
		{fmt.Sprintf("/cms/v2/posts/%d", numeric), "1999-2"},
		{fmt.Sprintf("/cms/v2/pages/%d", child), "about"},
		{fmt.Sprintf("/cms/v2/pages/%d", topAbout), "about"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			r := e.do(admin, "GET", c.path+"?context=edit", nil)
			wantStatus(t, r, 200)
			if r.obj()["generated_slug"] != c.want {
				t.Fatalf("generated_slug %v, want %s", r.obj()["generated_slug"], c.want)
			}
		})
	}
	// the list computes them in one extra statement, and not at all when
	// _fields leaves generated_slug out
	r := e.do(admin, "GET", "/cms/v2/posts?context=edit&status=publish,draft&orderby=id&order=asc", nil)
	var got []string
	for _, o := range r.list() {
		got = append(got, str(o["generated_slug"]))
	}
	if want := []string{"hello-world", "hello-world-2", "other-title", "hello-world-3", "1999-2"}; !slices.Equal(got, want) {
		t.Fatalf("list generated slugs %v, want %v", got, want)
	}
	for _, c := range []struct {
		query string
		want  int64
	}{
		{"?context=edit", 2},
		{"?context=edit&_fields=id,slug", 1},
		{"?context=view", 1},
	} {
		before := e.queries.n.Load()
		wantStatus(t, e.do(admin, "GET", "/cms/v2/posts"+c.query, nil), 200)
		if n := e.queries.n.Load() - before; n != c.want {
			t.Fatalf("%s: %d statements, want %d", c.query, n, c.want)
		}
	}
}

func TestUntrashedSlugStaysUnique(t *testing.T) {
	e := newEnv(t)
	first := seedPosts(e, map[string]any{"title": "Same"})[0]
	wantStatus(t, e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/posts/%d", first), nil), 200)
	// the slug is free while the first post is in the trash
	second := seedPosts(e, map[string]any{"title": "Same"})[0]
	if r := e.do(editor, "GET", fmt.Sprintf("/cms/v2/posts/%d", second), nil); r.obj()["slug"] != "same" {
		t.Fatalf("second: %s", r.Raw)
	}
	// restoring goes through wp_unique_post_slug again
	r := e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", first), map[string]any{"status": "publish"})
	wantStatus(t, r, 200)
	if r.obj()["slug"] != "same-2" {
		t.Fatalf("restored slug: %v", r.obj()["slug"])
	}
}

func TestPageParentLoopsAreRefused(t *testing.T) {
	e := newEnv(t)
	a := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "a", "status": "publish"}).id()
	b := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "b", "parent": a, "status": "publish"}).id()
	c := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "c", "parent": b, "status": "publish"}).id()
	other := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "other", "status": "publish"}).id()
	// wp_check_post_hierarchy_for_loops: the post itself or a descendant as
	// parent becomes 0; any other page is taken
	cases := []struct {
		name       string
		id, parent int64
		want       int64
		wantLink   string
	}{
		{"itself", a, a, 0, "http://example.test/a/"},
		{"its grandchild", a, c, 0, "http://example.test/a/"},
		{"its child", b, c, 0, "http://example.test/b/"},
		{"another page", c, other, other, "http://example.test/other/c/"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(editor, "POST", fmt.Sprintf("/cms/v2/pages/%d", tc.id), map[string]any{"parent": tc.parent})
			wantStatus(t, r, 200)
			if r.obj()["parent"] != float64(tc.want) || r.obj()["link"] != tc.wantLink {
				t.Fatalf("parent %v link %v, want %d %s", r.obj()["parent"], r.obj()["link"], tc.want, tc.wantLink)
			}
		})
	}
}

func TestSlugRecheckedOnParentChange(t *testing.T) {
	e := newEnv(t)
	a := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "a", "status": "publish"}).id()
	e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "About", "parent": a, "status": "publish"})
	top := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "About", "status": "publish"})
	if top.obj()["slug"] != "about" {
		t.Fatalf("top-level about: %s", top.Raw)
	}
	// moving it under a, which already has an "about" child, makes it unique
	r := e.do(editor, "POST", fmt.Sprintf("/cms/v2/pages/%d", top.id()), map[string]any{"parent": a})
	wantStatus(t, r, 200)
	if r.obj()["slug"] != "about-2" || r.obj()["link"] != "http://example.test/a/about-2/" {
		t.Fatalf("moved page: %s", r.Raw)
	}
	// an explicit slug is made unique even for a draft (the REST controller
	// asks as if publishing), within the parent
	d := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "About", "slug": "about", "parent": a})
	if d.obj()["slug"] != "about-3" {
		t.Fatalf("explicit draft slug: %s", d.Raw)
	}
	// without a new slug a draft keeps its own as it is, even when moved
	r = e.do(editor, "POST", fmt.Sprintf("/cms/v2/pages/%d", d.id()), map[string]any{"parent": 0})
	if r.obj()["slug"] != "about-3" {
		t.Fatalf("moved draft: %s", r.Raw)
	}
}
