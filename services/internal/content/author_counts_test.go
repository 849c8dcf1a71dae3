package content

import (
	"context"
	"fmt"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// The author filter's X-WP-Total (posts?author=N, the website's author
// archive) comes from post_author_counts (migration 0420): it equals a count
// of the rows after a bulk insert and after writes that move posts between
// authors and statuses, and the statement reads the page's rows of posts,
// not every post of the author.
func TestAuthorTotals(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ed, ad := callers[editor].UserID, callers[admin].UserID
	// one statement, as a bulk load writes: the triggers count it too
	if _, err := e.pool.Exec(ctx, `INSERT INTO posts (type, status, author, date_gmt, modified_gmt, slug, title)
		SELECT 'post', 'publish', $1, now() - g * interval '1 minute', now(), 'a-' || g, 'A' || g
		FROM generate_series(1, 3000) g`, ed); err != nil {
		t.Fatal(err)
	}
	// statistics, so that the page's rows are joined by id, not by a scan
	if _, err := e.pool.Exec(ctx, "ANALYZE posts"); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for i, st := range []string{"publish", "draft", "private"} {
		r := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": fmt.Sprintf("W%d", i), "status": st})
		wantStatus(t, r, 201)
		ids = append(ids, r.id())
	}
	post := func(i int) string { return fmt.Sprintf("/cms/v2/posts/%d", ids[i]) }
	steps := []struct {
		name string
		do   func()
	}{
		{"creates", func() {}},
		{"another author", func() { wantStatus(t, e.do(admin, "POST", post(0), map[string]any{"author": ad}), 200) }},
		{"publish a draft", func() { wantStatus(t, e.do(editor, "POST", post(1), map[string]any{"status": "publish"}), 200) }},
		{"trash", func() { wantStatus(t, e.do(editor, "DELETE", post(2), nil), 200) }},
		{"delete", func() { wantStatus(t, e.do(admin, "DELETE", post(0)+"?force=true", nil), 200) }},
	}
	for _, s := range steps {
		s.do()
		checkCounts(t, e, s.name)
		// an author_exclude no post has forces the counting path
		for _, c := range []struct{ who, list string }{
			{anon, fmt.Sprintf("/cms/v2/posts?author=%d&", ed)},
			{anon, fmt.Sprintf("/cms/v2/posts?author=%d&", ad)},
			{editor, fmt.Sprintf("/cms/v2/posts?author=%d&status=any&", ed)},
			{editor, fmt.Sprintf("/cms/v2/posts?author=%d&status=draft,private,trash&", ed)},
		} {
			counted, counting := totalOf(t, e, c.who, c.list+"per_page=1"), totalOf(t, e, c.who, c.list+"per_page=1&author_exclude=999")
			if counted != counting {
				t.Fatalf("%s: %s total %s, counted %s", s.name, c.list, counted, counting)
			}
		}
	}
	if got := totalOf(t, e, anon, fmt.Sprintf("/cms/v2/posts?author=%d&per_page=1", ed)); got != "3001" {
		t.Fatalf("the editor's published posts at the end: %s, want 3001", got)
	}
	// the total is not a count of the author's posts: the statement reads
	// the page's rows of posts, not the 3,001
	q := &store.ListQuery{Type: store.TypePost, Page: 1, PerPage: 10, Statuses: []string{"publish"}, Order: "desc", Author: []int64{ed}}
	sql, args := store.ListSQL(q)
	if n := postsRowsRead(t, e, sql, args...); n > 100 {
		t.Errorf("author %d: %d rows of posts read", ed, n)
	}
}
