package content

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestSearchWithoutWords: GET /cms/v2/search without a search lists every
// published post of the subtypes newest first, merged from each type's
// index and counted from post_counts; its pages and totals equal a plain
// read's (ties on one date broken by id, drafts and private posts left
// out), and its statement counts no rows.
func TestSearchWithoutWords(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	var made []int64
	for i := range 24 {
		base, status := "posts", "publish"
		if i%3 == 1 {
			base = "pages"
		}
		switch i % 7 {
		case 2:
			status = "draft"
		case 5:
			status = "private"
		}
		r := e.do(editor, "POST", "/cms/v2/"+base, map[string]any{"title": fmt.Sprintf("Item %d", i), "status": status})
		wantStatus(t, r, 201)
		made = append(made, r.id())
	}
	// three dates shared by several posts and pages
	for i, id := range made {
		day := 1 + i%5
		if _, err := e.pool.Exec(ctx, "UPDATE posts SET date_gmt = $1::timestamptz WHERE id = $2", fmt.Sprintf("2024-03-%02dT10:00:00Z", day), id); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ subtype, types string }{
		{"post", "post"}, {"page", "page"}, {"post,page", "post,page"}, {"any", "post,page"},
	} {
		want := queryIDs(t, e, "SELECT id FROM posts WHERE type = ANY($1) AND status = 'publish' ORDER BY date_gmt DESC, id DESC",
			strings.Split(tc.types, ","))
		for _, perPage := range []int{1, 4, 10} {
			for page := 1; (page-1)*perPage < len(want); page++ {
				path := fmt.Sprintf("/cms/v2/search?subtype=%s&per_page=%d&page=%d", tc.subtype, perPage, page)
				r := e.do(anon, "GET", path, nil)
				wantStatus(t, r, 200)
				got := ids(r)
				exp := want[(page-1)*perPage : min(page*perPage, len(want))]
				if !slices.Equal(got, exp) || r.Header.Get("X-WP-Total") != strconv.Itoa(len(want)) {
					t.Fatalf("%s: %v (total %s), want %v (total %d)", path, got, r.Header.Get("X-WP-Total"), exp, len(want))
				}
			}
		}
	}
	e.do(anon, "GET", "/cms/v2/search?subtype=post", nil)
	for _, sql := range e.queries.lastSQL(4) {
		if strings.Contains(sql, "FROM posts") && strings.Contains(sql, "OVER") {
			t.Fatalf("the search without words counts its matches:\n%s", sql)
		}
	}
}

// queryIDs is the ids the statement sql reads.
func queryIDs(t *testing.T, e *testEnv, sql string, args ...any) []int64 {
	t.Helper()
	rows, err := e.pool.Query(context.Background(), sql, args...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	return out
}
