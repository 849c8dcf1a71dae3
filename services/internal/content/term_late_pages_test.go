package content

import (
	"context"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// seedTermLatePages adds seedLatePages' posts and links them, with plain
// SQL, to two categories and a tag: the first category has two posts in
// three (drafts and private posts among them), the second the rest, the
// tag every other post; it returns the three terms' ids.
func seedTermLatePages(t *testing.T, e *testEnv) (a, b, tag int64) {
	t.Helper()
	seedLatePages(t, e)
	a = e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "Late A"}).id()
	b = e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "Late B"}).id()
	tag = e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": "Late tag"}).id()
	if _, err := e.pool.Exec(context.Background(), `INSERT INTO term_relationships (post_id, term_id)
		SELECT id, CASE WHEN id % 3 = 0 THEN $2::bigint ELSE $1::bigint END FROM posts WHERE type = 'post'
		UNION ALL SELECT id, $3 FROM posts WHERE type = 'post' AND id % 2 = 0`, a, b, tag); err != nil {
		t.Fatal(err)
	}
	return a, b, tag
}

// TestTermLatePagesMatchOffsetReads: a late page of one category or tag
// jumps through the term's date buckets' counts (term_page_start) yet
// answers exactly what a plain OFFSET read of the term's posts does, newest
// and oldest first, below and above JumpMinOffset, after every write path
// the counts follow: creates with terms, date and status changes (the
// links' copies), moving posts between terms (through the API and an SQL
// update of the links), deletes of posts and of a term, and ties on a
// bucket edge.
func TestTermLatePagesMatchOffsetReads(t *testing.T) {
	e := newEnv(t)
	a, b, tag := seedTermLatePages(t, e)
	listings := func() []lateListing {
		return []lateListing{{who: anon, typ: "post", status: "publish", tax: "categories", term: a},
			{who: editor, typ: "post", status: "draft", tax: "categories", term: a},
			{who: anon, typ: "post", status: "publish", tax: "categories", term: b},
			{who: anon, typ: "post", status: "publish", tax: "tags", term: tag}}
	}
	checkLatePagesOf(t, e, "seeded", listings())

	ctx := context.Background()
	var middle []int64
	if err := e.pool.QueryRow(ctx, `SELECT ARRAY(SELECT p.id FROM posts p JOIN term_relationships r ON r.post_id = p.id
		WHERE r.term_id = $1 AND p.status = 'publish' ORDER BY p.date_gmt DESC, p.id DESC LIMIT 5 OFFSET 1100)`, a).Scan(&middle); err != nil {
		t.Fatal(err)
	}
	post := func(id int64) string { return "/cms/v2/posts/" + store.Itoa(id) }
	sql := func(q string, args ...any) func() { return sqlStep(t, e, q, args...) }
	steps := []struct {
		name string
		do   func()
	}{
		{"create with terms, dated in the middle", func() {
			seedPosts(e, map[string]any{"title": "Mid", "date_gmt": "2025-03-01T12:00:00", "categories": []int64{a}, "tags": []int64{tag}},
				map[string]any{"title": "Tie", "date_gmt": "2025-03-01T12:00:00", "categories": []int64{a, b}})
		}},
		{"delete", func() { wantStatus(t, e.do(editor, "DELETE", post(middle[0])+"?force=true", nil), 200) }},
		{"unpublish", func() { wantStatus(t, e.do(editor, "POST", post(middle[1]), map[string]any{"status": "draft"}), 200) }},
		{"move to the newest", func() {
			wantStatus(t, e.do(editor, "POST", post(middle[2]), map[string]any{"date_gmt": "2026-01-01T00:00:00"}), 200)
		}},
		{"move to the other category", func() {
			wantStatus(t, e.do(editor, "POST", post(middle[3]), map[string]any{"categories": []int64{b}}), 200)
		}},
		{"trash", func() { wantStatus(t, e.do(editor, "DELETE", post(middle[4]), nil), 200) }},
		{"shift many dates across bucket edges", sql(`UPDATE posts SET date_gmt = date_gmt - interval '50 minutes' WHERE id % 7 = 0`)},
		{"publish many drafts", sql(`UPDATE posts SET status = 'publish' WHERE status = 'draft' AND id % 3 = 1`)},
		{"relink many from one category to the other", sql(`UPDATE term_relationships SET term_id = $2
			WHERE term_id = $1 AND post_id % 5 = 0 AND NOT EXISTS (SELECT 1 FROM term_relationships o WHERE o.post_id = term_relationships.post_id AND o.term_id = $2)`, a, b)},
		{"delete many", sql(`DELETE FROM posts WHERE id % 11 = 0`)},
		{"ties on a bucket edge", sql(`WITH n AS (INSERT INTO posts (type, status, date_gmt, modified_gmt, slug, title)
			SELECT 'post', 'publish', 'epoch'::timestamp + (425010 * 4096) * interval '1 second', now(), 'edge-' || g, 'Edge'
			FROM generate_series(1, 40) g RETURNING id) INSERT INTO term_relationships (post_id, term_id) SELECT id, $1 FROM n`, a)},
		{"delete the tag", func() { wantStatus(t, e.do(admin, "DELETE", fmt.Sprintf("/cms/v2/tags/%d?force=true", tag), nil), 200) }},
	}
	for _, s := range steps {
		s.do()
		ls := listings()
		if s.name == "delete the tag" {
			ls = ls[:3]
		}
		checkLatePagesOf(t, e, s.name, ls)
	}
}

// TestTermLatePageDoesNotWalkFromStart: the index walk of a late category
// page starts at its date bucket, not at the term's newest post (EXPLAIN
// ANALYZE of the generic plan: rows read from term_relationships), and late
// pages of one listing, a category's or all posts', are one statement text
// whatever their page number, as are a category's early pages: the offset
// is a parameter, so they share one prepared statement and its plan.
func TestTermLatePageDoesNotWalkFromStart(t *testing.T) {
	e := newEnv(t)
	a, _, _ := seedTermLatePages(t, e)
	ctx := context.Background()
	if _, err := e.pool.Exec(ctx, `VACUUM ANALYZE term_relationships`); err != nil {
		t.Fatal(err)
	}
	category := []store.TaxClause{{Tax: store.Category, Terms: []int64{a}, Operator: "IN"}}
	for _, order := range []string{"desc", "asc"} {
		q := &store.ListQuery{Type: store.TypePost, Page: 120, PerPage: 10, Statuses: []string{"publish"}, Order: order, Tax: category}
		sql, args := store.ListSQL(q)
		if !strings.Contains(sql, "term_page_start") {
			t.Fatalf("page 120 does not jump: %s", sql)
		}
		if n := relationRowsRead(t, e, "term_relationships", sql, args...); n > 200 {
			t.Fatalf("%s: page 120 read %d term links, want at most ~68 (one bucket) plus the page", order, n)
		}
		plain := "SELECT post_id FROM term_relationships WHERE term_id = " + store.Itoa(a) +
			" AND post_type = 'post' AND post_status = 'publish' ORDER BY post_date " + order + ", post_id " + order + " LIMIT 10 OFFSET 1190"
		if n := relationRowsRead(t, e, "term_relationships", plain); n < 1200 {
			t.Fatalf("the plain read read %d rows: the measure shows nothing", n)
		}
	}
	for _, c := range []struct {
		tax   []store.TaxClause
		pages []int
	}{
		{nil, []int{store.JumpMinOffset/10 + 1, 117, 130}},
		{category, []int{store.JumpMinOffset/10 + 1, 117, 130}},
		{category, []int{2, 50, store.JumpMinOffset / 10}}, // early pages walk, in one statement too
	} {
		texts := map[string]bool{}
		for _, page := range c.pages {
			sql, _ := store.ListSQL(&store.ListQuery{Type: store.TypePost, Page: page, PerPage: 10, Statuses: []string{"publish"}, Tax: c.tax})
			texts[sql] = true
		}
		if len(texts) != 1 {
			t.Fatalf("pages %v (%d term filters) are %d statements, want one", c.pages, len(c.tax), len(texts))
		}
	}
	// the early pages' shared plan is the index walk, which stops after the
	// page (a plan for any offset might have sorted the term's links); read
	// without the posts' terms (laterals), which read links too
	early := &store.ListQuery{Type: store.TypePost, Page: 50, PerPage: 10, Statuses: []string{"publish"}, Tax: category}
	if sql, args := store.ListSQLOf(early, "p.id", ""); relationRowsRead(t, e, "term_relationships", sql, args...) > 500 {
		t.Fatalf("page 50's generic plan read more than the 500 links up to the page: %s", sql)
	}
	// a first page does not jump (its walk is short)
	q := &store.ListQuery{Type: store.TypePost, Page: 1, PerPage: 10, Statuses: []string{"publish"}, Tax: category}
	if sql, _ := store.ListSQL(q); strings.Contains(sql, "term_page_start") {
		t.Fatalf("page 1 jumps: %s", sql)
	}
}

// TestTermPageStartAtInfinity: links to posts dated ±infinity (only SQL can
// write them) are counted beyond every finite date, and a term page
// starting among them or next to them is the plain OFFSET read's.
func TestTermPageStartAtInfinity(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	cat := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "Infinite"}).id()
	if _, err := e.pool.Exec(ctx, `WITH n AS (INSERT INTO posts (type, status, date_gmt, modified_gmt, slug, title)
		SELECT 'post', 'publish', d, now(), 'i-' || row_number() OVER (), 'I' FROM (
		  SELECT 'infinity'::timestamp AS d FROM generate_series(1, 5)
		  UNION ALL SELECT '-infinity'::timestamp FROM generate_series(1, 5)
		  UNION ALL SELECT timestamp '2020-01-01' + g * interval '1 hour' FROM generate_series(1, 30) g) x RETURNING id)
		INSERT INTO term_relationships (post_id, term_id) SELECT id, $1 FROM n`, cat); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, e, "infinity")
	for _, order := range []string{"desc", "asc"} {
		cmp := map[string]string{"desc": "<=", "asc": ">="}[order]
		for off := 0; off <= 41; off++ {
			jump := `WITH j AS MATERIALIZED (SELECT * FROM term_page_start($1, 'post', 'publish', ` + strconv.Itoa(off) + `, ` +
				strconv.FormatBool(order == "desc") + `)) SELECT post_id FROM term_relationships WHERE term_id = $1 AND post_type = 'post'
				AND post_status = 'publish' AND post_date ` + cmp + ` (SELECT bound FROM j) ORDER BY post_date ` + order + `, post_id ` + order +
				` LIMIT 3 OFFSET (SELECT rem FROM j)`
			plain := `SELECT post_id FROM term_relationships WHERE term_id = $1 AND post_type = 'post' AND post_status = 'publish'
				ORDER BY post_date ` + order + `, post_id ` + order + ` LIMIT 3 OFFSET ` + strconv.Itoa(off)
			var x, y []int64
			if err := e.pool.QueryRow(ctx, "SELECT ARRAY("+jump+"), ARRAY("+plain+")", cat).Scan(&x, &y); err != nil {
				t.Fatal(err)
			}
			if !eq(x, y) {
				t.Fatalf("%s offset %d: jump %v, plain %v", order, off, x, y)
			}
		}
	}
}

// TestTermLatePagesUnderConcurrentWrites: while writers insert posts linked
// to a category, delete, re-date and unpublish posts and move links
// between two categories, one statement reads a late page of the category
// both ways (the list's statement, which jumps, and a plain OFFSET walk of
// the posts) and compares them.
func TestTermLatePagesUnderConcurrentWrites(t *testing.T) {
	e := newEnv(t)
	a, b, _ := seedTermLatePages(t, e)
	writes := append(postWrites(e, "INSERT INTO term_relationships (post_id, term_id) SELECT id, "+store.Itoa(a)+" FROM n"),
		func(ctx context.Context, _ *rand.Rand, _ string) error {
			// each post of the seed and the writes is in exactly one of a
			// and b, so that a move never meets the link it would make
			_, err := e.pool.Exec(ctx, `UPDATE term_relationships SET term_id = CASE term_id WHEN $1 THEN $2::bigint ELSE $1 END
				WHERE (post_id, term_id) = (SELECT post_id, term_id FROM term_relationships WHERE term_id IN ($1, $2) ORDER BY random() LIMIT 1)`, a, b)
			return err
		})
	reads := compareUnderWrites(t, e, writes, func(order string, offset int) (string, string, []any) {
		q := &store.ListQuery{Type: store.TypePost, Offset: &offset, PerPage: 10, Statuses: []string{"publish"}, Order: order,
			Tax: []store.TaxClause{{Tax: store.Category, Terms: []int64{a}, Operator: "IN"}}}
		sql, args := store.ListSQLOf(q, "p.id", "")
		// the plain walk of the links' index (what a term page read before
		// the jump): a walk of the posts checking each one's links costs
		// ~5 ms, too slow to compare often; the links' copies of their
		// posts are checked against the posts by checkCounts
		plain := "SELECT post_id FROM term_relationships WHERE term_id = " + store.Itoa(a) + " AND post_type = 'post' AND post_status = 'publish'" +
			" ORDER BY post_date " + order + ", post_id " + order + " LIMIT 10 OFFSET " + strconv.Itoa(offset)
		return "SELECT x.id FROM (" + sql + ") x(id, total, rn) ORDER BY x.rn", plain, args
	})
	t.Logf("%d reads compared", reads)
}
