package content

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/content/store"
)

// The counts behind X-WP-Total (post_counts, term_post_counts, migration
// 0201; each spread over slots since 0310, so a count is its slots' sum) and the copies of each post's type, status and date on its term
// links must equal what the rows say after every kind of write: creates in
// any status, status and date changes, term changes, trash, deletes of
// posts and terms.
func checkCounts(t *testing.T, e *testEnv, step string) {
	t.Helper()
	ctx := context.Background()
	for _, q := range []string{
		// counts that disagree with the rows
		`SELECT count(*) FROM (SELECT type, status, count(*) AS n FROM posts GROUP BY 1, 2) r
		 FULL JOIN (SELECT type, status, sum(n) AS n FROM post_counts GROUP BY 1, 2 HAVING sum(n) <> 0) c USING (type, status)
		 WHERE r.n IS DISTINCT FROM c.n`,
		`SELECT count(*) FROM (SELECT r.term_id, p.type, p.status, count(*) AS n FROM term_relationships r
		   JOIN posts p ON p.id = r.post_id GROUP BY 1, 2, 3) r
		 FULL JOIN (SELECT term_id, type, status, sum(n) AS n FROM term_post_counts GROUP BY 1, 2, 3 HAVING sum(n) <> 0) c ON c.term_id = r.term_id AND c.type = r.type AND c.status = r.status
		 WHERE r.n IS DISTINCT FROM c.n`,
		// posts per author (migration 0420) that disagree with the rows
		`SELECT count(*) FROM (SELECT author, type, status, count(*) AS n FROM posts GROUP BY 1, 2, 3) r
		 FULL JOIN (SELECT author, type, status, sum(n) AS n FROM post_author_counts GROUP BY 1, 2, 3 HAVING sum(n) <> 0) c
		   USING (author, type, status)
		 WHERE r.n IS DISTINCT FROM c.n`,
		// date buckets' counts (migration 0330) that disagree with the rows
		`SELECT count(*) FROM (SELECT type, status, l.level, post_date_bucket(date_gmt, l.level) AS bucket, count(*) AS n
		   FROM posts, (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level) GROUP BY 1, 2, 3, 4) r
		 FULL JOIN (SELECT type, status, level, bucket, sum(n) AS n FROM post_date_counts GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0) c
		   USING (type, status, level, bucket)
		 WHERE r.n IS DISTINCT FROM c.n`,
		// the term links' date buckets' counts (migration 0430) that
		// disagree with the links (their posts' own type, status and date)
		`SELECT count(*) FROM (SELECT r.term_id, p.type, p.status, l.level, post_date_bucket(p.date_gmt, l.level) AS bucket, count(*) AS n
		   FROM term_relationships r JOIN posts p ON p.id = r.post_id, (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level)
		   GROUP BY 1, 2, 3, 4, 5) r
		 FULL JOIN (SELECT term_id, type, status, level, bucket, sum(n) AS n FROM term_date_counts WHERE NOT subtree
		   GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0) c
		   USING (term_id, type, status, level, bucket)
		 WHERE r.n IS DISTINCT FROM c.n`,
		// category subtree rows (migration 0440) that differ from the
		// posts a recursive walk down each category finds (content's
		// include_children filter), with their posts' own type, status
		// and date
		`WITH RECURSIVE d(root, id) AS (SELECT id, id FROM terms WHERE taxonomy = 'category'
		   UNION SELECT d.root, t.id FROM d JOIN terms t ON t.parent = d.id),
		 w AS (SELECT DISTINCT d.root AS term_id, p.id AS post_id, p.type, p.status, p.date_gmt
		   FROM d JOIN term_relationships r ON r.term_id = d.id JOIN posts p ON p.id = r.post_id)
		 SELECT count(*) FROM w FULL JOIN term_subtree_links s USING (term_id, post_id)
		 WHERE (w.type, w.status, w.date_gmt) IS DISTINCT FROM (s.post_type, s.post_status, s.post_date)`,
		// the subtrees' date buckets' counts that disagree with their rows
		`SELECT count(*) FROM (SELECT s.term_id, s.post_type AS type, s.post_status AS status, l.level,
		     post_date_bucket(s.post_date, l.level) AS bucket, count(*) AS n
		   FROM term_subtree_links s, (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level) GROUP BY 1, 2, 3, 4, 5) r
		 FULL JOIN (SELECT term_id, type, status, level, bucket, sum(n) AS n FROM term_date_counts WHERE subtree
		   GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0) c
		   USING (term_id, type, status, level, bucket)
		 WHERE r.n IS DISTINCT FROM c.n`,
		// links whose copy of their post is out of date
		`SELECT count(*) FROM term_relationships r JOIN posts p ON p.id = r.post_id
		 WHERE (r.post_type, r.post_status, r.post_date) IS DISTINCT FROM (p.type, p.status, p.date_gmt)`,
	} {
		var bad int
		if err := e.pool.QueryRow(ctx, q).Scan(&bad); err != nil {
			t.Fatal(err)
		}
		if bad != 0 {
			t.Fatalf("%s: %d rows disagree with: %s", step, bad, q)
		}
	}
}

// totalOf reads X-WP-Total of a listing as who.
func totalOf(t *testing.T, e *testEnv, who, path string) string {
	t.Helper()
	r := e.do(who, "GET", path, nil)
	wantStatus(t, r, 200)
	return r.Header.Get("X-WP-Total")
}

func TestMaintainedCounts(t *testing.T) {
	e := newEnv(t)
	checkCounts(t, e, "empty")
	var cats []int64
	for _, name := range []string{"Alpha", "Beta"} {
		r := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": name})
		wantStatus(t, r, 201)
		cats = append(cats, r.id())
	}
	var ids []int64
	for i, st := range []string{"publish", "publish", "draft", "private", "publish", "pending"} {
		r := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": fmt.Sprintf("P%d", i), "status": st,
			"categories": []int64{cats[i%2]}, "date": fmt.Sprintf("2024-02-0%dT10:00:00", i+1)})
		wantStatus(t, r, 201)
		ids = append(ids, r.id())
	}
	wantStatus(t, e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "A page", "status": "publish"}), 201)
	checkCounts(t, e, "creates")

	steps := []struct {
		name string
		do   func()
	}{
		{"publish a draft", func() {
			wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", ids[2]), map[string]any{"status": "publish"}), 200)
		}},
		{"move to another category", func() {
			wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", ids[0]), map[string]any{"categories": []int64{cats[1]}}), 200)
		}},
		{"change the date", func() {
			wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", ids[4]), map[string]any{"date": "2023-01-01T00:00:00"}), 200)
		}},
		{"trash", func() { wantStatus(t, e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/posts/%d", ids[1]), nil), 200) }},
		{"delete", func() {
			wantStatus(t, e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/posts/%d?force=true", ids[3]), nil), 200)
		}},
		{"delete a category", func() {
			wantStatus(t, e.do(admin, "DELETE", fmt.Sprintf("/cms/v2/categories/%d?force=true", cats[1]), nil), 200)
		}},
		{"a rolled-back batch", func() {
			r := e.do(editor, "POST", "/batch/v1", map[string]any{"validation": "require-all-validate", "requests": []any{
				map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"title": "in", "status": "publish"}},
				map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"title": "bad", "status": "no-such-status"}},
			}})
			_ = r // whatever the answer, nothing of it may be counted
		}},
	}
	for _, s := range steps {
		s.do()
		checkCounts(t, e, s.name)
		// the counted totals agree with a count of the rows (an
		// author_exclude no post has forces the counting path)
		for _, list := range []string{"/cms/v2/posts?", fmt.Sprintf("/cms/v2/posts?categories=%d&", cats[0]),
			"/cms/v2/posts?status=publish,draft,private&", "/cms/v2/posts?status=any&"} {
			who := anon
			if list != "/cms/v2/posts?" && list != fmt.Sprintf("/cms/v2/posts?categories=%d&", cats[0]) {
				who = editor
			}
			counted, counting := totalOf(t, e, who, list+"per_page=1"), totalOf(t, e, who, list+"per_page=1&author_exclude=999")
			if counted != counting {
				t.Fatalf("%s: %s total %s, counted %s", s.name, list, counted, counting)
			}
		}
	}
	if got := totalOf(t, e, anon, "/cms/v2/posts?per_page=1"); got != "3" {
		t.Fatalf("published posts at the end: %s, want 3", got)
	}
}

// A page of one term's posts comes from the term links' index in the
// listing's order, in both directions, and matches the generic query.
func TestTermPageOrder(t *testing.T) {
	e := newEnv(t)
	r := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "Gamma"})
	wantStatus(t, r, 201)
	cat := r.id()
	for i := 1; i <= 7; i++ {
		body := map[string]any{"title": fmt.Sprintf("T%d", i), "status": "publish", "date": fmt.Sprintf("2024-03-0%dT10:00:00", i)}
		if i%3 != 0 {
			body["categories"] = []int64{cat}
		}
		wantStatus(t, e.do(editor, "POST", "/cms/v2/posts", body), 201)
	}
	for _, order := range []string{"desc", "asc"} {
		for page := 1; page <= 3; page++ {
			base := fmt.Sprintf("/cms/v2/posts?categories=%d&per_page=2&page=%d&order=%s", cat, page, order)
			fast, slow := e.do(anon, "GET", base, nil), e.do(anon, "GET", base+"&author_exclude=999", nil)
			if !eq(ids(fast), ids(slow)) || fast.Header.Get("X-WP-Total") != "5" || fast.Header.Get("X-WP-TotalPages") != "3" {
				t.Fatalf("%s: %v (total %s) vs %v", base, ids(fast), fast.Header.Get("X-WP-Total"), ids(slow))
			}
		}
	}
	wantError(t, e.do(anon, "GET", fmt.Sprintf("/cms/v2/posts?categories=%d&per_page=2&page=4", cat), nil), 400,
		"rest_post_invalid_page_number", "")
}

// Two transactions creating published posts (and so adding to the same
// counts) on connections of different slots do not wait for each other:
// the second commits while the first is still open (0310). A post counted
// from one connection and deleted from another leaves the sums right.
func TestCountsDoNotSerialiseWriters(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	// two connections whose backends write to different slots
	first, err := e.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Release()
	slotOf := func(c *pgxpool.Conn) int {
		var s int
		if err := c.QueryRow(ctx, `SELECT pg_backend_pid() % 32`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	var second *pgxpool.Conn
	var held []*pgxpool.Conn // same slot as first: held, so the next Acquire opens another backend
	defer func() {
		for _, c := range held {
			c.Release()
		}
	}()
	for i := 0; i < 40 && second == nil; i++ {
		c, err := e.pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if slotOf(c) != slotOf(first) {
			second = c
			continue
		}
		held = append(held, c)
	}
	if second == nil {
		t.Fatal("no connection on another slot")
	}
	defer second.Release()
	insert := `INSERT INTO posts (type, status, date_gmt, modified_gmt, slug, title)
		VALUES ('post', 'publish', now(), now(), $1, $1) RETURNING id`
	txA, err := first.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer txA.Rollback(ctx) //nolint:errcheck // committed below
	var a int64
	if err := txA.QueryRow(ctx, insert, "slot-a").Scan(&a); err != nil {
		t.Fatal(err)
	}
	if _, err := txA.Exec(ctx, `INSERT INTO term_relationships (post_id, term_id) VALUES ($1, 1)`, a); err != nil {
		t.Fatal(err)
	}
	// B must not wait for A's row locks: a lock wait fails it at once
	txB, err := second.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer txB.Rollback(ctx) //nolint:errcheck // committed below
	if _, err := txB.Exec(ctx, `SET LOCAL lock_timeout = '200ms'`); err != nil {
		t.Fatal(err)
	}
	var b int64
	if err := txB.QueryRow(ctx, insert, "slot-b").Scan(&b); err != nil {
		t.Fatalf("second writer: %v", err)
	}
	if _, err := txB.Exec(ctx, `INSERT INTO term_relationships (post_id, term_id) VALUES ($1, 1)`, b); err != nil {
		t.Fatalf("second writer's term link: %v", err)
	}
	if err := txB.Commit(ctx); err != nil {
		t.Fatalf("second writer's commit: %v", err)
	}
	if err := txA.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, e, "two writers")
	// A's post deleted through B's connection: B's slot goes negative
	if _, err := second.Exec(ctx, `DELETE FROM posts WHERE id = $1`, a); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, e, "deleted from another slot")
	if got := totalOf(t, e, anon, "/cms/v2/posts?per_page=1"); got != "1" {
		t.Fatalf("published posts: %s, want 1", got)
	}
}

// Term reads take a term's count (its published posts) from the maintained
// counts, not by joining its links with the posts: the plan of every term
// read names neither posts nor a scan of a term's links, so it costs the
// same whatever the number of posts (docs/performance.md#terms).
func TestTermReadsUseCounts(t *testing.T) {
	e := newEnv(t)
	r := e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": "Counted"})
	wantStatus(t, r, 201)
	tag := r.id()
	var post int64
	for i, st := range []string{"publish", "draft", "publish"} {
		r := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": fmt.Sprintf("C%d", i), "status": st, "tags": []int64{tag}})
		wantStatus(t, r, 201)
		post = r.id()
	}
	for _, c := range []struct {
		path  string
		count float64 // the tag's count in the answer
	}{
		{"/cms/v2/tags", 2},
		{fmt.Sprintf("/cms/v2/tags/%d", tag), 2},
		{fmt.Sprintf("/cms/v2/tags?post=%d", post), 2},
		{"/cms/v2/tags?hide_empty=true&orderby=count&order=desc", 2},
		{"/cms/v2/categories?hide_empty=true", -1},
	} {
		r := e.do(anon, "GET", c.path, nil)
		wantStatus(t, r, 200)
		if c.count >= 0 {
			got := r.obj()
			if l := r.list(); len(l) > 0 && got == nil {
				got = l[0]
			}
			if got["count"] != c.count {
				t.Errorf("%s: count %v, want %v", c.path, got["count"], c.count)
			}
		}
		sql, args := e.queries.lastStatement()
		var plan string
		if err := e.pool.QueryRow(context.Background(), "EXPLAIN (FORMAT JSON) "+sql, args...).Scan(&plan); err != nil {
			t.Fatalf("%s: explain: %v", c.path, err)
		}
		if strings.Contains(plan, `"Relation Name": "posts"`) {
			t.Errorf("%s reads the posts: %s\n%s", c.path, sql, plan)
		}
	}
}

// A listing filtered by a date range (after, before, both) takes its
// X-WP-Total from the date buckets' counts (migration 0350): it equals a
// count of the rows for bounds on, just before and just after bucket
// edges, on posts' own dates, outside every post, and crossed (after ≥
// before), for published posts, drafts and pages, before and after writes.
func TestDateRangeTotals(t *testing.T) {
	e := newEnv(t)
	seedLatePages(t, e)
	var bounds []string
	for _, k := range []int64{424998, 425003, 425020} {
		edge := time.Unix(k*4096, 0).UTC()
		for _, d := range []time.Duration{-time.Second, -time.Microsecond, 0, time.Microsecond, time.Minute} {
			bounds = append(bounds, edge.Add(d).Format(time.RFC3339Nano))
		}
	}
	bounds = append(bounds, "2016-01-04T00:00:00Z", "2019-06-30T12:00:00Z", "1900-01-01T00:00:00Z", "2200-01-01T00:00:00Z",
		"2025-03-01T10:00:00", "")
	check := func(step string) {
		for i, after := range bounds {
			for j, before := range bounds {
				if (i+j)%3 != 0 && after != "" && before != "" {
					continue // a third of the pairs, every single bound
				}
				for _, c := range []struct{ who, list string }{{anon, "/cms/v2/posts?"}, {editor, "/cms/v2/posts?status=draft&"}, {anon, "/cms/v2/pages?"}} {
					q := c.list + "per_page=1"
					if after != "" {
						q += "&after=" + url.QueryEscape(after)
					}
					if before != "" {
						q += "&before=" + url.QueryEscape(before)
					}
					if counted, counting := totalOf(t, e, c.who, q), totalOf(t, e, c.who, q+"&author_exclude=999"); counted != counting {
						t.Fatalf("%s: %s: total %s, counted %s", step, q, counting, counted)
					}
				}
			}
		}
	}
	check("seeded")
	ctx := context.Background()
	// the total is not a count of the matches: the statement reads the
	// page's rows of posts, not the ~2,000 in the range
	after := time.Date(2016, 1, 4, 0, 0, 0, 0, time.UTC)
	for _, q := range []*store.ListQuery{
		{Type: store.TypePost, Page: 1, PerPage: 10, Statuses: []string{"publish"}, Order: "desc", After: &after},
		{Type: store.TypePost, Page: 1, PerPage: 10, Statuses: []string{"draft"}, Order: "desc", Before: &after},
	} {
		sql, args := store.ListSQL(q)
		if n := postsRowsRead(t, e, sql, args...); n > 100 {
			t.Errorf("after %v before %v: %d rows of posts read", q.After, q.Before, n)
		}
	}
	for _, w := range []string{
		`UPDATE posts SET date_gmt = date_gmt + interval '37 minutes' WHERE id % 7 = 0`,
		`UPDATE posts SET status = 'draft' WHERE id % 11 = 0 AND status = 'publish'`,
		`DELETE FROM posts WHERE id % 17 = 0`,
	} {
		if _, err := e.pool.Exec(ctx, w); err != nil {
			t.Fatal(err)
		}
		check(w)
	}
}

// A page of several statuses in date order (status=any, a list of
// statuses) merges each status's first posts from the index: its ids and
// totals are the plain read's (author_exclude forces it), in both orders
// and at any page, and it reads at most offset+limit posts per status.
func TestStatusesPages(t *testing.T) {
	e := newEnv(t)
	seedLatePages(t, e)
	for _, status := range []string{"any", "publish,draft", "draft,private,pending"} {
		for _, order := range []string{"desc", "asc"} {
			for _, page := range []int{1, 2, 7, 40, 400} {
				q := fmt.Sprintf("/cms/v2/posts?status=%s&order=%s&per_page=5&page=%d&context=edit", status, order, page)
				fast, slow := e.do(editor, "GET", q, nil), e.do(editor, "GET", q+"&author_exclude=999", nil)
				if fast.Status != slow.Status || !eq(ids(fast), ids(slow)) || fast.Header.Get("X-WP-Total") != slow.Header.Get("X-WP-Total") {
					t.Fatalf("%s: %d %v (total %s), plain read %d %v (total %s)", q, fast.Status, ids(fast), fast.Header.Get("X-WP-Total"),
						slow.Status, ids(slow), slow.Header.Get("X-WP-Total"))
				}
			}
		}
	}
	q := &store.ListQuery{Type: store.TypePost, Page: 3, PerPage: 10, Statuses: []string{"any"}, Order: "desc"}
	sql, args := store.ListSQL(q)
	if n := postsRowsRead(t, e, sql, args...); n > 3*30+10 {
		t.Errorf("status=any page 3 read %d rows of posts", n)
	}
}
