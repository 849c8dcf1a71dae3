package content

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// subtreeTerms are the categories of seedSubtreePages: parent ⊃ child ⊃
// grandchild, parent ⊃ sibling, and other beside them.
type subtreeTerms struct{ parent, child, grandchild, sibling, other int64 }

// seedSubtreePages adds seedLatePages' posts and links them, with plain
// SQL, to a small category tree: a sixth of the posts each to the parent,
// the child, the grandchild, the sibling and the parent both (a post in a
// parent and its child), the other category, and the child and the
// grandchild both.
func seedSubtreePages(t *testing.T, e *testEnv) subtreeTerms {
	t.Helper()
	cat := func(name string, parent int64) int64 {
		return e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": name, "parent": parent}).id()
	}
	var c subtreeTerms
	c.parent = cat("Sub parent", 0)
	c.child = cat("Sub child", c.parent)
	c.grandchild = cat("Sub grandchild", c.child)
	c.sibling = cat("Sub sibling", c.parent)
	c.other = cat("Sub other", 0)
	seedLatePages(t, e)
	if _, err := e.pool.Exec(context.Background(), `INSERT INTO term_relationships (post_id, term_id)
		SELECT id, (ARRAY[$1, $2, $3, $4, $5, $2]::bigint[])[1 + id % 6] FROM posts WHERE type = 'post'
		UNION ALL SELECT id, (ARRAY[$1, $3]::bigint[])[1 + id % 6 / 5] FROM posts WHERE type = 'post' AND id % 6 IN (3, 5)`,
		c.parent, c.child, c.grandchild, c.sibling, c.other); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSubtreeLatePagesMatchOffsetReads: a category's listing with its
// descendants (include_children, the website's archive of a parent
// category) is read from term_subtree_links and its date buckets' counts,
// yet answers exactly what the plain read of the posts linked to any
// category a recursive walk finds under it does (ids and X-WP-Total),
// newest and oldest first, below and above JumpMinOffset, after every
// write path the closure follows: links added and removed (a post kept in
// the parent by another link), date and status changes, post deletes,
// categories re-parented (into another tree, to the top, into a cycle) and
// deleted (its children move to its parent).
func TestSubtreeLatePagesMatchOffsetReads(t *testing.T) {
	e := newEnv(t)
	c := seedSubtreePages(t, e)
	listings := func(terms ...int64) []lateListing {
		var ls []lateListing
		for _, term := range terms {
			ls = append(ls, lateListing{who: anon, typ: "post", status: "publish", tax: "categories", term: term, children: true})
		}
		return append(ls, lateListing{who: editor, typ: "post", status: "draft", tax: "categories", term: terms[0], children: true})
	}
	all := []int64{c.parent, c.child, c.other}
	checkLatePagesOf(t, e, "seeded", listings(all...))

	ctx := context.Background()
	var inChild, inBoth []int64
	if err := e.pool.QueryRow(ctx, `SELECT ARRAY(SELECT post_id FROM term_relationships WHERE term_id = $1 ORDER BY post_id LIMIT 5),
		ARRAY(SELECT post_id FROM term_relationships WHERE term_id = $2 AND post_id IN (SELECT post_id FROM term_relationships WHERE term_id = $3)
		ORDER BY post_id LIMIT 5)`, c.child, c.parent, c.sibling).Scan(&inChild, &inBoth); err != nil {
		t.Fatal(err)
	}
	post := func(id int64) string { return "/cms/v2/posts/" + store.Itoa(id) }
	category := func(id int64) string { return "/cms/v2/categories/" + store.Itoa(id) }
	api := func(who, method, path string, body map[string]any) func() {
		return func() { wantStatus(t, e.do(who, method, path, body), 200) }
	}
	sql := func(q string, args ...any) func() { return sqlStep(t, e, q, args...) }
	steps := []struct {
		name string
		do   func()
		ls   []int64
	}{
		{"create in the grandchild, and in the parent and child both", func() {
			seedPosts(e, map[string]any{"title": "Mid", "date_gmt": "2025-03-01T12:00:00", "categories": []int64{c.grandchild}},
				map[string]any{"title": "Tie", "date_gmt": "2025-03-01T12:00:00", "categories": []int64{c.parent, c.child}})
		}, all},
		{"move a child's post to the other tree", api(editor, "POST", post(inChild[0]), map[string]any{"categories": []int64{c.other}}), all},
		{"remove the sibling of a post in the parent too",
			api(editor, "POST", post(inBoth[0]), map[string]any{"categories": []int64{c.parent}}), all},
		{"remove the parent of a post in the sibling too",
			api(editor, "POST", post(inBoth[1]), map[string]any{"categories": []int64{c.sibling}}), all},
		{"unpublish", api(editor, "POST", post(inChild[1]), map[string]any{"status": "draft"}), all},
		{"redate", api(editor, "POST", post(inChild[2]), map[string]any{"date_gmt": "2026-01-01T00:00:00"}), all},
		{"delete", api(editor, "DELETE", post(inChild[3])+"?force=true", nil), all},
		{"shift many dates", sql(`UPDATE posts SET date_gmt = date_gmt - interval '50 minutes' WHERE id % 7 = 0`), all},
		{"publish many drafts", sql(`UPDATE posts SET status = 'publish' WHERE status = 'draft' AND id % 3 = 1`), all},
		{"relink many from the grandchild to the other", sql(`UPDATE term_relationships SET term_id = $2
			WHERE term_id = $1 AND post_id % 4 = 0 AND NOT EXISTS (SELECT 1 FROM term_relationships o WHERE o.post_id = term_relationships.post_id AND o.term_id = $2)`,
			c.grandchild, c.other), all},
		{"unlink the grandchild of posts in the child too (kept in the child and parent)",
			sql(`DELETE FROM term_relationships WHERE term_id = $1 AND post_id % 2 = 1`, c.grandchild), all},
		{"unlink the sibling of posts in the parent too",
			sql(`DELETE FROM term_relationships WHERE term_id = $1 AND post_id % 4 = 3`, c.sibling), all},
		{"delete many", sql(`DELETE FROM posts WHERE id % 11 = 0`), all},
		{"re-parent the grandchild to the other", api(editor, "POST", category(c.grandchild), map[string]any{"parent": c.other}), all},
		{"re-parent the child to the top", api(editor, "POST", category(c.child), map[string]any{"parent": 0}), all},
		{"re-parent the child under the grandchild", api(editor, "POST", category(c.child), map[string]any{"parent": c.grandchild}), all},
		{"make a cycle", api(editor, "POST", category(c.other), map[string]any{"parent": c.child}), all},
		{"break it", api(editor, "POST", category(c.other), map[string]any{"parent": c.parent}), all},
		{"delete the child", api(admin, "DELETE", category(c.child)+"?force=true", nil), []int64{c.parent, c.other}},
	}
	for _, s := range steps {
		s.do()
		checkLatePagesOf(t, e, s.name, listings(s.ls...))
	}
}

// TestSubtreeLatePageDoesNotWalk: a late page of a category with its
// descendants reads one date bucket of its closure rows, and its total
// and pages read neither the posts nor the links of the category's
// subtree (the general path walks them: O(matches)); late pages are one
// statement text whatever their number.
func TestSubtreeLatePageDoesNotWalk(t *testing.T) {
	e := newEnv(t)
	c := seedSubtreePages(t, e)
	ctx := context.Background()
	if _, err := e.pool.Exec(ctx, `VACUUM ANALYZE term_relationships, term_subtree_links`); err != nil {
		t.Fatal(err)
	}
	tree := []store.TaxClause{{Tax: store.Category, Terms: []int64{c.parent}, IncludeChildren: true, Operator: "IN"}}
	texts := map[string]bool{}
	for _, order := range []string{"desc", "asc"} {
		for _, page := range []int{2, 50, store.JumpMinOffset/10 + 1, 120, 150} {
			q := &store.ListQuery{Type: store.TypePost, Page: page, PerPage: 10, Statuses: []string{"publish"}, Order: order, Tax: tree}
			sql, args := store.ListSQLOf(q, "p.id", "")
			texts[sql] = true
			if n := relationRowsRead(t, e, "term_relationships", sql, args...); n > 0 {
				t.Errorf("%s page %d read %d term links, want none: %s", order, page, n, sql)
			}
			if n := relationRowsRead(t, e, "posts", sql, args...); n > 10 {
				t.Errorf("%s page %d read %d posts, want the page's", order, page, n)
			}
			want := 500
			if page > store.JumpMinOffset/10 {
				want = 200 // one bucket (~68) plus the page
			}
			if n := relationRowsRead(t, e, "term_subtree_links", sql, args...); n > want {
				t.Errorf("%s page %d read %d closure rows, want at most %d", order, page, n, want)
			}
		}
	}
	if len(texts) != 4 {
		t.Errorf("early and late pages of both orders are %d statements, want 4", len(texts))
	}
}

// TestSubtreeArchiveReadsNoMatches: the website's archive of a parent
// category, first, early and late pages, lists its posts with a statement
// that reads no more than a page's few hundred rows (EXPLAIN ANALYZE of
// the statement the render ran) where the subtree has ~1,900 published
// posts: no walk of its matches for the page or the total.
func TestSubtreeArchiveReadsNoMatches(t *testing.T) {
	e := newEnv(t)
	seedSubtreePages(t, e)
	for _, page := range []int{1, 2, 101, 150} {
		path := "/category/sub-parent/"
		if page > 1 {
			path += "page/" + strconv.Itoa(page) + "/"
		}
		before := e.queries.n.Load()
		r := e.page(anon, path)
		if r.Status != 200 {
			t.Fatalf("%s: %d", path, r.Status)
		}
		n := int(e.queries.n.Load() - before)
		stmts, args := e.queries.lastN(n)
		if len(stmts) < n {
			t.Fatalf("%s ran %d statements, more than the counter keeps", path, n)
		}
		listings := 0
		for i, sql := range stmts {
			// the archive's listing: read from the closure, or (before it)
			// from the links of the categories a recursive walk finds
			if !strings.Contains(sql, "term_subtree_links") && !strings.Contains(sql, "WITH RECURSIVE d AS") {
				continue
			}
			listings++
			for _, rel := range []string{"posts", "term_relationships", "term_subtree_links"} {
				if m := relationRowsRead(t, e, rel, sql, args[i]...); m > 300 {
					t.Errorf("%s: the listing read %d rows of %s: %s", path, m, rel, sql)
				}
			}
		}
		if listings != 1 {
			t.Errorf("%s: %d listings of the category, want 1: %q", path, listings, stmts)
		}
	}
}

// lastN returns the text and arguments of the last n statements (as many
// as it keeps), oldest first.
func (q *queryCounter) lastN(n int) ([]string, [][]any) {
	q.mu.Lock()
	defer q.mu.Unlock()
	from := max(0, len(q.last)-n)
	return append([]string(nil), q.last[from:]...), append([][]any(nil), q.args[from:]...)
}

// sqlStep is a write step of plain SQL (behind the API's back, as a
// migration or an operator may write).
func sqlStep(t *testing.T, e *testEnv, q string, args ...any) func() {
	return func() {
		if _, err := e.pool.Exec(context.Background(), q, args...); err != nil {
			t.Fatal(err)
		}
	}
}
