package content

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// TestVersionReadsFollowPlainSQL: once anonymous readers' posts are cached,
// lists and single posts read only versions (post_versions.go); every change
// made behind the service's back, to the post's row or to a row its JSON
// takes something from (a term's name or slug, a term link, a revision, a
// parent page's slug), shows on the next read, list and single alike.
func TestVersionReadsFollowPlainSQL(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	sql := func(q string, args ...any) {
		t.Helper()
		if _, err := e.pool.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	apple := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "Apple"}).id()
	banana := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "Banana"}).id()
	fresh := e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": "Fresh"}).id()
	id := seedPosts(e, map[string]any{"title": "Versioned", "content": "<p>Body one</p>",
		"categories": []int64{banana, apple}, "tags": []int64{fresh}})[0]
	item := "/cms/v2/posts/" + store.Itoa(id)
	// read gives the post as the single read and as the list shows it,
	// each read twice (the second by version from the cache) and equal
	read := func(list, single string) (fromList, fromItem map[string]any) {
		t.Helper()
		var raws []string
		for range 2 {
			r := e.do(anon, "GET", list, nil)
			wantStatus(t, r, 200)
			fromList = nil
			for _, o := range r.list() {
				if o["id"] == float64(id) || (single != item && fmt.Sprint(o["link"]) != "" && strings.HasSuffix(single, "/"+fmt.Sprint(o["id"]))) {
					fromList = o
				}
			}
			r2 := e.do(anon, "GET", single, nil)
			if r2.Status == 200 {
				fromItem = r2.obj()
			} else {
				fromItem = nil
			}
			raws = append(raws, fmt.Sprint(fromList, fromItem))
		}
		if raws[0] != raws[1] {
			t.Fatalf("the cached read differs:\n%s\n%s", raws[0], raws[1])
		}
		return fromList, fromItem
	}
	both := func(what string, check func(m map[string]any) bool) {
		t.Helper()
		l, i := read("/cms/v2/posts", item)
		if l == nil || i == nil || !check(l) || !check(i) {
			t.Fatalf("%s:\nlist %v\nitem %v", what, l, i)
		}
	}
	rendered := func(m map[string]any) string { return str(field(m, "content", "rendered")) }
	cats := func(m map[string]any) string { return fmt.Sprint(m["categories"]) }
	classes := func(m map[string]any) string { return fmt.Sprint(m["class_list"]) }
	revisions := func(m map[string]any) float64 {
		l, _ := field(m, "_links", "version-history").([]any)
		if len(l) == 0 {
			return -1
		}
		c, _ := l[0].(map[string]any)["count"].(float64)
		return c
	}

	both("first read", func(m map[string]any) bool {
		return strings.Contains(rendered(m), "Body one") && cats(m) == fmt.Sprint([]any{float64(apple), float64(banana)}) &&
			strings.Contains(classes(m), "tag-fresh") && revisions(m) == 0
	})
	// the row itself
	sql("UPDATE posts SET content = '<p>Body two</p>' WHERE id = $1", id)
	both("content updated", func(m map[string]any) bool { return strings.Contains(rendered(m), "Body two") })
	// a term's name orders the post's terms
	sql("UPDATE terms SET name = 'Zucchini' WHERE id = $1", apple)
	both("term renamed", func(m map[string]any) bool {
		return cats(m) == fmt.Sprint([]any{float64(banana), float64(apple)})
	})
	// a term's slug is in class_list
	sql("UPDATE terms SET slug = 'renamed-fresh' WHERE id = $1", fresh)
	both("term slug", func(m map[string]any) bool {
		return strings.Contains(classes(m), "tag-renamed-fresh") && !strings.Contains(classes(m), "tag-fresh ")
	})
	// a term link removed
	sql("DELETE FROM term_relationships WHERE post_id = $1 AND term_id = $2", id, fresh)
	both("term link removed", func(m map[string]any) bool { return fmt.Sprint(m["tags"]) == "[]" })
	// a revision counts in _links
	sql(`INSERT INTO posts (type, status, parent, date_gmt, modified_gmt, slug, title)
		VALUES ('revision', 'inherit', $1, now(), now(), $2, 'r')`, id, store.Itoa(id)+"-revision-v1")
	both("revision added", func(m map[string]any) bool { return revisions(m) == 1 })
	// an UPDATE that changes nothing still writes a new version: the next
	// list fetches that row again (2 statements), the one after does not
	sql("UPDATE posts SET title = title WHERE id = $1", id)
	for i, want := range []int64{2, 1} {
		before := e.queries.n.Load()
		wantStatus(t, e.do(anon, "GET", "/cms/v2/posts", nil), 200)
		if n := e.queries.n.Load() - before; n != want {
			t.Fatalf("list read %d after a no-op update: %d statements, want %d", i+1, n, want)
		}
	}
	// a parent page's slug is in its child's link
	parent := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "Parent", "slug": "parent", "status": "publish"}).id()
	child := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "Child", "slug": "child", "status": "publish", "parent": parent}).id()
	childPath := "/cms/v2/pages/" + store.Itoa(child)
	link := func() (string, string) {
		var inList string
		for range 2 {
			for _, o := range e.do(anon, "GET", "/cms/v2/pages", nil).list() {
				if o["id"] == float64(child) {
					inList = str(o["link"])
				}
			}
		}
		e.do(anon, "GET", childPath, nil)
		return inList, str(e.do(anon, "GET", childPath, nil).obj()["link"])
	}
	if l, i := link(); l != "http://example.test/parent/child/" || i != l {
		t.Fatalf("child link %q %q", l, i)
	}
	sql("UPDATE posts SET slug = 'moved' WHERE id = $1", parent)
	if l, i := link(); l != "http://example.test/moved/child/" || i != l {
		t.Fatalf("child link after the parent's slug changed: %q %q", l, i)
	}
	// unpublished, then deleted
	sql("UPDATE posts SET status = 'draft' WHERE id = $1", id)
	if l, i := read("/cms/v2/posts", item); l != nil || i != nil {
		t.Fatalf("a draft shows to anonymous readers: %v %v", l, i)
	}
	wantStatus(t, e.do(anon, "GET", item, nil), 401)
	sql("UPDATE posts SET status = 'publish' WHERE id = $1", id)
	both("published again", func(m map[string]any) bool { return strings.Contains(rendered(m), "Body two") })
	sql("DELETE FROM posts WHERE id = $1", id)
	wantError(t, e.do(anon, "GET", item, nil), 404, "rest_post_invalid_id", "Invalid post ID.")
	if l, _ := read("/cms/v2/posts", item); l != nil {
		t.Fatalf("a deleted post is listed: %v", l)
	}
}

// TestCachedReadsFetchVersionsOnly: a list or single post whose posts are
// all cached costs one statement that reads no post's content; readers the
// cache does not serve (logged in, _fields, edit context) read whole rows.
func TestCachedReadsFetchVersionsOnly(t *testing.T) {
	e := newEnv(t)
	ids := seedPosts(e, map[string]any{"title": "One", "content": "<p>one</p>"}, map[string]any{"title": "Two", "content": "<p>two</p>"},
		map[string]any{"title": "Three", "content": "<p>three</p>", "sticky": true})
	item := "/cms/v2/posts/" + store.Itoa(ids[0])
	for _, path := range []string{"/cms/v2/posts", item, "/cms/v2/posts?ignore_sticky=false&per_page=1"} {
		wantStatus(t, e.do(anon, "GET", path, nil), 200) // caches the posts
	}
	cases := []struct {
		who, path   string
		wholeRows   bool
		want        string // a part of the answer
		description string
	}{
		{anon, "/cms/v2/posts", false, `"rendered":"<p>three<\/p>\n"`, "anonymous list"},
		{anon, item, false, `"rendered":"<p>one<\/p>\n"`, "anonymous single"},
		{anon, "/cms/v2/posts?ignore_sticky=false&per_page=1", false, `"title":{"rendered":"Three"}`, "sticky list"},
		{editor, "/cms/v2/posts", true, `"rendered":"<p>three<\/p>\n"`, "logged-in list"},
		{anon, "/cms/v2/posts?_fields=id,title", true, `"title":{"rendered":"Three"}`, "_fields"},
	}
	for _, c := range cases {
		t.Run(c.description, func(t *testing.T) {
			before := e.queries.n.Load()
			r := e.do(c.who, "GET", c.path, nil)
			wantStatus(t, r, 200)
			if n := e.queries.n.Load() - before; n != 1 {
				t.Fatalf("%d statements: %v", n, e.queries.lastSQL(int(n)))
			}
			stmt := e.queries.lastSQL(1)[0]
			if whole := strings.Contains(stmt, "p.content"); whole != c.wholeRows {
				t.Fatalf("reads whole rows: %v, want %v: %s", whole, c.wholeRows, stmt)
			}
			if !strings.Contains(string(r.Raw), c.want) {
				t.Fatalf("answer lacks %s: %s", c.want, r.Raw)
			}
		})
	}
}

// TestVersionMovedBetweenReads: a post updated or deleted between a list's
// version read and the read of its rows is noticed (the list is then read
// whole, from one snapshot).
func TestVersionMovedBetweenReads(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ids := seedPosts(e, map[string]any{"title": "A"}, map[string]any{"title": "B"})
	q := &store.ListQuery{Type: store.TypePost, Page: 1, PerPage: 10, Statuses: []string{"publish"}, Order: "desc"}
	versions := func() ([]*store.PostVersion, map[int64]int) {
		sql, args := store.ListSQLOf(q, store.VersionColumns, store.VersionLaterals(q.Type))
		rows, err := e.pool.Query(ctx, sql, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []*store.PostVersion
		at := map[int64]int{}
		for rows.Next() {
			var total, rn *int64
			v, err := store.ScanVersion(rows, &total, &rn)
			if err != nil {
				t.Fatal(err)
			}
			at[v.ID] = len(out)
			out = append(out, v)
		}
		return out, at
	}
	fetch := func(vs []*store.PostVersion, at map[int64]int) error {
		var want []int64
		for _, v := range vs {
			want = append(want, v.ID)
		}
		return store.FetchVersions(ctx, e.pool, store.TypePost, want, vs, at, make([]*store.Post, len(vs)))
	}
	vs, at := versions()
	if len(vs) != 2 || !slices.ContainsFunc(vs, func(v *store.PostVersion) bool { return v.ID == ids[0] && v.Xmin != 0 }) {
		t.Fatalf("versions %v", vs)
	}
	if err := fetch(vs, at); err != nil {
		t.Fatalf("unchanged: %v", err)
	}
	if _, err := e.pool.Exec(ctx, "UPDATE posts SET title = 'A2' WHERE id = $1", ids[0]); err != nil {
		t.Fatal(err)
	}
	if err := fetch(vs, at); !errors.Is(err, store.ErrVersionMoved) {
		t.Fatalf("updated in between: %v", err)
	}
	vs, at = versions()
	if _, err := e.pool.Exec(ctx, "DELETE FROM posts WHERE id = $1", ids[1]); err != nil {
		t.Fatal(err)
	}
	if err := fetch(vs, at); !errors.Is(err, store.ErrVersionMoved) {
		t.Fatalf("deleted in between: %v", err)
	}
	// a term renamed in between (the terms' generation moved)
	vs, at = versions()
	if err := fetch(vs, at); err != nil {
		t.Fatalf("unchanged: %v", err)
	}
	if _, err := e.pool.Exec(ctx, "UPDATE terms SET name = 'Renamed' WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	if err := fetch(vs, at); !errors.Is(err, store.ErrVersionMoved) {
		t.Fatalf("term renamed in between: %v", err)
	}
}
