package content

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The comments collection's total comes from comment_counts (migration
// 0360) when it filters by status and type only: the counts equal the rows
// and the totals a count of them after creates, moderation, trash, deletes
// and a post's deletion (its comments go by cascade).
func TestCommentCounts(t *testing.T) {
	e := newEnv(t)
	var posts, comments []int64
	for i := range 3 {
		r := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": fmt.Sprintf("P%d", i), "status": "publish"})
		wantStatus(t, r, 201)
		posts = append(posts, r.id())
		for k := range 4 {
			c := e.do(editor, "POST", "/cms/v2/comments", map[string]any{"post": r.id(), "content": fmt.Sprintf("c%d", k)})
			wantStatus(t, c, 201)
			comments = append(comments, c.id())
		}
	}
	check := func(step string) {
		t.Helper()
		var bad int
		if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM (SELECT type, status, count(*) AS n FROM comments GROUP BY 1, 2) r
		 FULL JOIN (SELECT type, status, sum(n) AS n FROM comment_counts GROUP BY 1, 2 HAVING sum(n) <> 0) c USING (type, status)
		 WHERE r.n IS DISTINCT FROM c.n`).Scan(&bad); err != nil || bad != 0 {
			t.Fatalf("%s: %d counts disagree with the rows (%v)", step, bad, err)
		}
		for _, status := range []string{"approve", "hold", "all", "trash"} {
			list := "/cms/v2/comments?per_page=1&status=" + status
			if counted, counting := totalOf(t, e, editor, list), totalOf(t, e, editor, list+"&author_exclude=999"); counted != counting {
				t.Fatalf("%s: %s total %s, counted %s", step, list, counting, counted)
			}
		}
		if a, b := totalOf(t, e, anon, "/cms/v2/comments?per_page=1"), totalOf(t, e, editor, "/cms/v2/comments?per_page=1&author_exclude=999"); a != b {
			t.Fatalf("%s: anonymous total %s, counted %s", step, a, b)
		}
	}
	check("creates")
	for _, s := range []struct {
		name string
		do   func()
	}{
		{"hold", func() {
			wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/comments/%d", comments[1]), map[string]any{"status": "hold"}), 200)
		}},
		{"trash", func() {
			wantStatus(t, e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/comments/%d", comments[2]), nil), 200)
		}},
		{"delete", func() {
			wantStatus(t, e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/comments/%d?force=true", comments[3]), nil), 200)
		}},
		{"delete a post", func() {
			wantStatus(t, e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/posts/%d?force=true", posts[1]), nil), 200)
		}},
	} {
		s.do()
		check(s.name)
	}
	bulkCommentCounts(t, e, posts[0])
	check("bulk statements")
	// the default listing reads its page, not every approved comment
	before := e.queries.n.Load()
	wantStatus(t, e.do(anon, "GET", "/cms/v2/comments?per_page=2", nil), 200)
	n := e.queries.n.Load() - before
	if list := e.queries.lastSQL(int(n)); !strings.Contains(strings.Join(list, "\n"), "FROM comment_counts") {
		t.Errorf("the default listing counts its matches: %s", list)
	}
}

// bulkCommentCounts writes, moves and deletes 200 comments a statement at a
// time and checks that comment_counts took one write per (type, status) each
// statement touched, not one per comment: with a row-level trigger every
// upsert of the same counts row steps over the versions the statement's
// earlier upserts left, so a statement's cost grows with its comments'
// square (migration 0425).
func bulkCommentCounts(t *testing.T, e *testEnv, post int64) {
	t.Helper()
	ctx := context.Background()
	for _, stmt := range []string{
		`INSERT INTO comments (post, date_gmt, content, status) SELECT $1, now(), 'bulk ' || i, 'approved' FROM generate_series(1, 200) i`,
		`UPDATE comments SET status = 'hold' WHERE post = $1 AND content LIKE 'bulk %'`,
		`DELETE FROM comments WHERE post = $1 AND content LIKE 'bulk %' AND id % 2 = 0`,
	} {
		tx, err := e.pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// the backend's pending figures may still hold earlier transactions'
		// writes, so the statement's are the difference inside its transaction
		const writesSQL = `SELECT n_tup_ins + n_tup_upd FROM pg_stat_xact_user_tables WHERE relid = 'comment_counts'::regclass`
		var before, after int64
		err = tx.QueryRow(ctx, writesSQL).Scan(&before)
		if err == nil {
			_, err = tx.Exec(ctx, stmt, post)
		}
		if err == nil {
			err = tx.QueryRow(ctx, writesSQL).Scan(&after)
		}
		if err == nil {
			err = tx.Commit(ctx)
		}
		if err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
		if after-before > 2 {
			t.Errorf("%s: %d writes to comment_counts for one statement", stmt, after-before)
		}
	}
}

// Whether a listed comment has replies is read from the comments_parent
// index, not by scanning every comment for each one listed: with
// sequential scans disabled the listing's plan has none over comments.
func TestCommentRepliesFromIndex(t *testing.T) {
	e := newEnv(t)
	r := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "P", "status": "publish"})
	wantStatus(t, r, 201)
	wantStatus(t, e.do(editor, "POST", "/cms/v2/comments", map[string]any{"post": r.id(), "content": "c"}), 201)
	wantStatus(t, e.do(anon, "GET", "/cms/v2/comments", nil), 200)
	sql, args := e.queries.lastLike("FROM comments c WHERE")
	if sql == "" {
		t.Fatal("no comments statement")
	}
	if plan := explainWith(t, e, "enable_seqscan = off", "FORMAT JSON", sql, args...); strings.Contains(plan, `"Node Type": "Seq Scan"`) {
		t.Errorf("a comment listing scans comments: %s", plan)
	}
}
