package content

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"siteplane.dev/services/internal/content/store"
)

// The dense run's finest buckets are 424997 .. 425020 (2025-03-01 is
// 1740787200 s after 1970, 4096 s a bucket).

// seedLatePages adds, with plain SQL (the triggers count them as any write),
// posts whose dates exercise the date buckets of migration 0330: a dense
// run one minute apart (~68 per finest bucket, crossing coarser
// boundaries), a sparse run three days apart over eight years (crossing the
// ~194-day buckets), groups of posts sharing one date exactly on and just
// before finest-bucket edges (ties broken by id), and drafts, private posts
// and pages interleaved with them.
func seedLatePages(t *testing.T, e *testEnv) {
	t.Helper()
	_, err := e.pool.Exec(context.Background(), `
INSERT INTO posts (type, status, date_gmt, modified_gmt, slug, title)
SELECT type, status, d, d, 'late-' || row_number() OVER (), 'Late' FROM (
  SELECT 'post' AS type, CASE WHEN g % 9 = 0 THEN 'draft' WHEN g % 13 = 0 THEN 'private' ELSE 'publish' END AS status,
         timestamp '2025-03-01 00:00:00' + g * interval '1 minute' AS d FROM generate_series(1, 1600) g
  UNION ALL
  SELECT 'post', CASE WHEN g % 5 = 0 THEN 'draft' ELSE 'publish' END,
         timestamp '2016-01-01 00:00:00' + g * interval '3 days' FROM generate_series(1, 900) g
  UNION ALL
  SELECT 'post', 'publish', 'epoch'::timestamp + (k * 4096) * interval '1 second' - e * interval '1 microsecond'
  FROM generate_series(424998, 425020) k, generate_series(0, 1) e, generate_series(1, 3) r
  UNION ALL
  SELECT 'page', 'publish', timestamp '2025-03-01 00:00:00' + g * interval '7 minutes' FROM generate_series(1, 300) g
) x ORDER BY random()`)
	if err != nil {
		t.Fatal(err)
	}
}

// lateListing is a listing whose late pages are checked: one type and
// status, read as who, and optionally one term's posts only (term, read
// with the REST filter tax: categories or tags), or with children a
// category's and its descendants' (include_children).
type lateListing struct {
	who, typ, status string
	tax              string
	term             int64
	children         bool
}

// plainSQL reads l's posts in order with a plain OFFSET walk over the
// posts' own columns (not the term links' copies), and the FROM and WHERE
// that count them.
func (l lateListing) plainSQL(order string, limit, offset int) (page, from string) {
	from = "posts p WHERE p.type = '" + l.typ + "' AND p.status = '" + l.status + "'"
	switch {
	case l.children:
		// the descendants as a recursive walk of the parents finds them
		from += " AND p.id IN (SELECT post_id FROM term_relationships WHERE term_id IN (WITH RECURSIVE d AS (SELECT " +
			store.Itoa(l.term) + "::bigint AS id UNION SELECT t.id FROM terms t JOIN d ON t.parent = d.id) SELECT id FROM d))"
	case l.term != 0:
		from += " AND p.id IN (SELECT post_id FROM term_relationships WHERE term_id = " + store.Itoa(l.term) + ")"
	}
	return "SELECT p.id FROM " + from + " ORDER BY p.date_gmt " + order + ", p.id " + order +
		" LIMIT " + strconv.Itoa(limit) + " OFFSET " + strconv.Itoa(offset), from
}

// wantLatePage compares a listing's ids, X-WP-Total and X-WP-TotalPages with
// a plain OFFSET read of the same posts.
func wantLatePage(t *testing.T, e *testEnv, step string, l lateListing, order string, perPage, page int, offset *int) {
	t.Helper()
	ctx := context.Background()
	var total int
	_, from := l.plainSQL(order, 0, 0)
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM `+from).Scan(&total); err != nil {
		t.Fatal(err)
	}
	off := (page - 1) * perPage
	v := url.Values{"per_page": {strconv.Itoa(perPage)}, "order": {order}, "status": {l.status}}
	switch {
	case l.children:
		v.Set(l.tax+"[terms]", store.Itoa(l.term))
		v.Set(l.tax+"[include_children]", "1")
	case l.term != 0:
		v.Set(l.tax, store.Itoa(l.term))
	}
	if offset != nil {
		off = *offset
		v.Set("offset", strconv.Itoa(off))
	} else {
		v.Set("page", strconv.Itoa(page))
	}
	base := "/cms/v2/posts"
	if l.typ == "page" {
		base = "/cms/v2/pages"
	}
	path := base + "?" + v.Encode()
	r := e.do(l.who, "GET", path, nil)
	pages := (total + perPage - 1) / perPage
	if offset == nil && page > max(pages, 1) {
		wantError(t, r, 400, "rest_post_invalid_page_number",
			"The page number requested is larger than the number of pages available.")
		return
	}
	wantStatus(t, r, 200)
	plain, _ := l.plainSQL(order, perPage, off)
	var want []int64
	if err := e.pool.QueryRow(ctx, "SELECT ARRAY("+plain+")").Scan(&want); err != nil {
		t.Fatal(err)
	}
	if got := ids(r); !eq(got, want) {
		t.Fatalf("%s: %s as %s: ids %v, want %v", step, path, l.who, got, want)
	}
	if got := r.Header.Get("X-WP-Total"); got != strconv.Itoa(total) {
		t.Fatalf("%s: %s: X-WP-Total %s, want %d", step, path, got, total)
	}
	if got := r.Header.Get("X-WP-TotalPages"); got != strconv.Itoa(pages) {
		t.Fatalf("%s: %s: X-WP-TotalPages %s, want %d", step, path, got, pages)
	}
}

// checkLatePages reads late, last and out-of-range pages of several sizes,
// both orders, anonymous (version reads) and logged in (whole rows), and
// the drafts and pages, against plain OFFSET reads.
func checkLatePages(t *testing.T, e *testEnv, step string) {
	t.Helper()
	checkLatePagesOf(t, e, step, []lateListing{{who: anon, typ: "post", status: "publish"}, {who: editor, typ: "post", status: "publish"},
		{who: editor, typ: "post", status: "draft"}, {who: anon, typ: "page", status: "publish"}})
}

// checkLatePagesOf is checkLatePages for the listings given: pages just
// below and above JumpMinOffset, in the middle, the last ones and the one
// past the end, and offsets; the counts are checked first.
func checkLatePagesOf(t *testing.T, e *testEnv, step string, listings []lateListing) {
	t.Helper()
	checkCounts(t, e, step)
	ctx := context.Background()
	for _, l := range listings {
		var total int
		if _, from := l.plainSQL("desc", 0, 0); e.pool.QueryRow(ctx, `SELECT count(*) FROM `+from).Scan(&total) != nil {
			t.Fatal("count of " + from)
		}
		for _, order := range []string{"desc", "asc"} {
			for _, perPage := range []int{1, 7, 10, 100} {
				last := max((total+perPage-1)/perPage, 1)
				for _, page := range []int{store.JumpMinOffset / perPage, store.JumpMinOffset/perPage + 1, (last + store.JumpMinOffset/perPage) / 2,
					last - 1, last, last + 1} {
					if page >= 1 {
						wantLatePage(t, e, step, l, order, perPage, page, nil)
					}
				}
			}
			if l.who == anon && l.typ == "post" {
				// every page of 7 from the first that jumps through the dense
				// run's bucket edges (offsets 1001 .. 1400)
				for page := store.JumpMinOffset/7 + 1; page <= 1400/7; page++ {
					wantLatePage(t, e, step, l, order, 7, page, nil)
				}
			}
			for _, off := range []int{store.JumpMinOffset - 1, store.JumpMinOffset, total / 2, total - 1, total} {
				wantLatePage(t, e, step, l, order, 10, 0, &off)
			}
		}
	}
}

// TestLatePagesMatchOffsetReads: a late page jumps through the date
// buckets' counts (post_page_start) yet answers exactly what a plain
// OFFSET read does, after every kind of write: creates, deletes, status and
// date changes through the API, and multi-row SQL updates and deletes
// moving posts across bucket edges.
func TestLatePagesMatchOffsetReads(t *testing.T) {
	e := newEnv(t)
	seedLatePages(t, e)
	checkLatePages(t, e, "seeded")

	ctx := context.Background()
	var middle []int64
	rows, err := e.pool.Query(ctx, `SELECT id FROM posts WHERE type = 'post' AND status = 'publish'
		ORDER BY date_gmt DESC, id DESC LIMIT 5 OFFSET 1500`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		middle = append(middle, id)
	}
	rows.Close()
	post := func(id int64) string { return "/cms/v2/posts/" + store.Itoa(id) }
	sql := func(q string) func() {
		return func() {
			if _, err := e.pool.Exec(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
	}
	steps := []struct {
		name string
		do   func()
	}{
		{"create dated in the middle", func() {
			seedPosts(e, map[string]any{"title": "Mid", "date_gmt": "2025-03-01T12:00:00"},
				map[string]any{"title": "Tie", "date_gmt": "2025-03-01T12:00:00"})
		}},
		{"delete", func() {
			wantStatus(t, e.do(editor, "DELETE", post(middle[0])+"?force=true", nil), 200)
		}},
		{"unpublish", func() {
			wantStatus(t, e.do(editor, "POST", post(middle[1]), map[string]any{"status": "draft"}), 200)
		}},
		{"move to the newest", func() {
			wantStatus(t, e.do(editor, "POST", post(middle[2]), map[string]any{"date_gmt": "2026-01-01T00:00:00"}), 200)
		}},
		{"trash", func() {
			wantStatus(t, e.do(editor, "DELETE", post(middle[3]), nil), 200)
		}},
		{"shift many dates across bucket edges", sql(`UPDATE posts SET date_gmt = date_gmt - interval '50 minutes' WHERE id % 7 = 0`)},
		{"publish many drafts", sql(`UPDATE posts SET status = 'publish' WHERE status = 'draft' AND id % 3 = 0`)},
		{"delete many", sql(`DELETE FROM posts WHERE id % 11 = 0`)},
		{"ties on a bucket edge", sql(`INSERT INTO posts (type, status, date_gmt, modified_gmt, slug, title)
			SELECT 'post', 'publish', 'epoch'::timestamp + (425010 * 4096) * interval '1 second', now(), 'edge-' || g, 'Edge'
			FROM generate_series(1, 40) g`)},
	}
	for _, s := range steps {
		s.do()
		checkLatePages(t, e, s.name)
	}
}

// TestLatePageDoesNotWalkFromStart: the index walk of a late page starts
// at its date bucket, not at the newest post (EXPLAIN ANALYZE of the list's
// statement: rows read from posts), while the plain OFFSET read of the same
// page reads all the posts before it.
func TestLatePageDoesNotWalkFromStart(t *testing.T) {
	e := newEnv(t)
	seedLatePages(t, e)
	ctx := context.Background()
	if _, err := e.pool.Exec(ctx, `VACUUM ANALYZE posts`); err != nil {
		t.Fatal(err)
	}
	postsRows := func(sql string, args ...any) int { return postsRowsRead(t, e, sql, args...) }
	for _, order := range []string{"desc", "asc"} {
		q := &store.ListQuery{Type: store.TypePost, Page: 200, PerPage: 10, Statuses: []string{"publish"}, Order: order}
		sql, args := store.ListSQL(q)
		if !strings.Contains(sql, "post_page_start") {
			t.Fatalf("page 200 does not jump: %s", sql)
		}
		if n := postsRows(sql, args...); n > 200 {
			t.Fatalf("%s: page 200 read %d rows of posts, want at most ~68 (one bucket) plus the page", order, n)
		}
		plain := "SELECT id FROM posts WHERE type = 'post' AND status = 'publish' ORDER BY date_gmt " + order + ", id " + order + " LIMIT 10 OFFSET 1990"
		if n := postsRows(plain); n < 2000 {
			t.Fatalf("the plain read read %d rows: the measure shows nothing", n)
		}
	}
	// a first page does not jump (its walk is short)
	if sql, _ := store.ListSQL(&store.ListQuery{Type: store.TypePost, Page: 1, PerPage: 10, Statuses: []string{"publish"}, Order: "desc"}); strings.Contains(sql, "post_page_start") {
		t.Fatalf("page 1 jumps: %s", sql)
	}
}

// A concurrent write: one statement, with a random source and a tag unique
// to the writer and the write.
type concurrentWrite func(ctx context.Context, rnd *rand.Rand, tag string) error

// postWrites are the writes of posts TestLatePagesUnderConcurrentWrites
// runs: inserts (three posts a statement), deletes, date changes (two
// posts) and status changes of type post; link, when not "", is SQL run
// with the inserted posts' ids as n (the links to add).
func postWrites(e *testEnv, link string) []concurrentWrite {
	insert := `INSERT INTO posts (type, status, date_gmt, modified_gmt, slug, title)
		SELECT 'post', 'publish', timestamp '2025-03-01 00:00:00' + $1 * interval '1 minute', now(), 'c-' || $2 || '-' || g, 'C'
		FROM generate_series(1, 3) g`
	if link != "" {
		insert = "WITH n AS (" + insert + " RETURNING id) " + link
	}
	exec := func(ctx context.Context, sql string, args ...any) error {
		_, err := e.pool.Exec(ctx, sql, args...)
		return err
	}
	return []concurrentWrite{
		func(ctx context.Context, rnd *rand.Rand, tag string) error {
			return exec(ctx, insert, rnd.Intn(2000), tag)
		},
		func(ctx context.Context, _ *rand.Rand, _ string) error {
			return exec(ctx, `DELETE FROM posts WHERE id = (SELECT id FROM posts WHERE type = 'post' ORDER BY random() LIMIT 1)`)
		},
		func(ctx context.Context, rnd *rand.Rand, _ string) error {
			return exec(ctx, `UPDATE posts SET date_gmt = timestamp '2025-03-01 00:00:00' + $1 * interval '1 minute'
				WHERE id IN (SELECT id FROM posts WHERE type = 'post' ORDER BY random() LIMIT 2)`, rnd.Intn(2000))
		},
		func(ctx context.Context, _ *rand.Rand, _ string) error {
			return exec(ctx, `UPDATE posts SET status = CASE status WHEN 'publish' THEN 'draft' ELSE 'publish' END
				WHERE id = (SELECT id FROM posts WHERE type = 'post' ORDER BY random() LIMIT 1)`)
		},
	}
}

// compareUnderWrites runs three writers doing writes (one picked at random
// each time) while, for 3 seconds, one statement reads a late page at
// offset both ways, jump and plain (pageSQL gives the two), newest and
// oldest first; it fails at the first difference and returns how many
// reads it compared.
func compareUnderWrites(t *testing.T, e *testEnv, writes []concurrentWrite, pageSQL func(order string, offset int) (jump, plain string, args []any)) int {
	t.Helper()
	ctx := context.Background()
	var stop atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rnd := rand.New(rand.NewSource(int64(w)))
			for i := 0; !stop.Load(); i++ {
				if err := writes[rnd.Intn(len(writes))](ctx, rnd, fmt.Sprint(w, "-", i)); err != nil {
					errs <- err
					return
				}
			}
		}(w)
	}
	deadline := time.Now().Add(3 * time.Second)
	reads := 0
	for time.Now().Before(deadline) {
		for _, order := range []string{"desc", "asc"} {
			offset := store.JumpMinOffset + reads%700
			jump, plain, args := pageSQL(order, offset)
			var same bool
			var got, want string
			if err := e.pool.QueryRow(ctx, "SELECT a = b, a::text, b::text FROM (SELECT ARRAY("+jump+") AS a, ARRAY("+plain+") AS b) x",
				args...).Scan(&same, &got, &want); err != nil {
				stop.Store(true)
				t.Fatal(err)
			}
			if !same {
				stop.Store(true)
				t.Fatalf("%s offset %d: jump %s, plain %s", order, offset, got, want)
			}
			reads++
		}
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	checkCounts(t, e, "after concurrent writes")
	return reads
}

// TestLatePagesUnderConcurrentWrites: while writers insert, delete, re-date
// and unpublish posts, one statement reads a late page both ways (the jump
// and the plain OFFSET walk) and compares them: the function's counts are
// read in the statement's snapshot, so the two always agree.
func TestLatePagesUnderConcurrentWrites(t *testing.T) {
	e := newEnv(t)
	seedLatePages(t, e)
	reads := compareUnderWrites(t, e, postWrites(e, ""), func(order string, offset int) (string, string, []any) {
		q := &store.ListQuery{Type: store.TypePost, Page: 1, PerPage: 10, Statuses: []string{"publish"}, Order: order}
		b := &store.SQLBuilder{}
		jump := b.JumpPageSQL(q, "10", offset)
		dir := strings.ToUpper(order)
		return jump, "SELECT id FROM posts WHERE type = 'post' AND status = 'publish' ORDER BY date_gmt " + dir + ", id " + dir +
			" LIMIT 10 OFFSET " + strconv.Itoa(offset), b.Args
	})
	t.Logf("%d reads compared", reads)
}

// TestPageStartAtInfinity: posts dated ±infinity (only SQL can write them)
// are counted in buckets beyond every finite date, and a page starting
// among them or next to them is still the plain OFFSET read's.
func TestPageStartAtInfinity(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.pool.Exec(ctx, `INSERT INTO posts (type, status, date_gmt, modified_gmt, slug, title)
		SELECT 'inf', 'publish', d, now(), 'i-' || row_number() OVER (), 'I' FROM (
		  SELECT 'infinity'::timestamp AS d FROM generate_series(1, 5)
		  UNION ALL SELECT '-infinity'::timestamp FROM generate_series(1, 5)
		  UNION ALL SELECT timestamp '2020-01-01' + g * interval '1 hour' FROM generate_series(1, 30) g) x`); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, e, "infinity")
	for _, order := range []string{"desc", "asc"} {
		for off := 0; off <= 41; off++ {
			cmp := map[string]string{"desc": "<=", "asc": ">="}[order]
			jump := `WITH j AS MATERIALIZED (SELECT * FROM post_page_start('inf', 'publish', ` + strconv.Itoa(off) + `, ` +
				strconv.FormatBool(order == "desc") + `)) SELECT id FROM posts p WHERE type = 'inf' AND status = 'publish' AND date_gmt ` +
				cmp + ` (SELECT bound FROM j) ORDER BY date_gmt ` + order + `, id ` + order + ` LIMIT 3 OFFSET (SELECT rem FROM j)`
			plain := `SELECT id FROM posts WHERE type = 'inf' AND status = 'publish' ORDER BY date_gmt ` + order + `, id ` + order +
				` LIMIT 3 OFFSET ` + strconv.Itoa(off)
			var a, b []int64
			if err := e.pool.QueryRow(ctx, "SELECT ARRAY("+jump+"), ARRAY("+plain+")").Scan(&a, &b); err != nil {
				t.Fatal(err)
			}
			if !eq(a, b) {
				t.Fatalf("%s offset %d: jump %v, plain %v", order, off, a, b)
			}
		}
	}
}

// postsRowsRead is relationRowsRead of posts.
func postsRowsRead(t *testing.T, e *testEnv, sql string, args ...any) int {
	t.Helper()
	return relationRowsRead(t, e, "posts", sql, args...)
}

// relationRowsRead is how many rows of the table rel the generic plan of
// sql reads (EXPLAIN ANALYZE, rows × loops of every node over rel), the
// plan a connection keeps for the statement.
func relationRowsRead(t *testing.T, e *testEnv, rel, sql string, args ...any) int {
	t.Helper()
	var plan []map[string]any
	if err := json.Unmarshal([]byte(explainWith(t, e, "plan_cache_mode = force_generic_plan", "ANALYZE, FORMAT JSON", sql, args...)), &plan); err != nil {
		t.Fatal(err)
	}
	n := 0
	var walk func(node map[string]any)
	walk = func(node map[string]any) {
		if node["Relation Name"] == rel {
			n += int(node["Actual Rows"].(float64) * node["Actual Loops"].(float64))
		}
		kids, _ := node["Plans"].([]any)
		for _, k := range kids {
			walk(k.(map[string]any))
		}
	}
	walk(plan[0]["Plan"].(map[string]any))
	return n
}

// explainWith is EXPLAIN (options) of sql in a transaction with the
// setting given (SET LOCAL), rolled back.
func explainWith(t *testing.T, e *testEnv, setting, options, sql string, args ...any) string {
	t.Helper()
	ctx := context.Background()
	tx, err := e.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // read only
	if _, err := tx.Exec(ctx, "SET LOCAL "+setting); err != nil {
		t.Fatal(err)
	}
	var plan string
	if err := tx.QueryRow(ctx, "EXPLAIN ("+options+") "+sql, args...).Scan(&plan); err != nil {
		t.Fatal(err)
	}
	return plan
}
