package content

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
)

// TestSearchKeepsOnePlan: a search's statement gets one generic plan per
// connection (the pattern is hidden from the planner, searchClause), and
// that plan answers each word exactly, whatever column holds it.
func TestSearchKeepsOnePlan(t *testing.T) {
	e := newEnv(t)
	p := seedPosts(e,
		map[string]any{"title": "Apple tart", "date": "2024-02-01T00:00:00"},
		map[string]any{"title": "Plain", "content": "<p>apple and pear</p>", "date": "2024-02-02T00:00:00"},
		map[string]any{"title": "Other", "excerpt": "a pear, 100% ripe", "date": "2024-02-03T00:00:00"},
		map[string]any{"title": "Hidden", "content": "pear", "status": "draft", "date": "2024-02-04T00:00:00"},
	)
	want := map[string][]int64{
		"apple":   {p[1], p[0]},
		"pear":    {p[2], p[1]},
		"100%":    {p[2]},
		"PEAR":    {p[2], p[1]},
		"nothing": nil,
		"ta":      {p[0]}, // shorter than a trigram: no help from the index, still exact
	}
	ctx := context.Background()
	conn, err := e.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	sql, _ := store.ListSQL(&store.ListQuery{Type: store.TypePost, Page: 1, PerPage: 10, Statuses: []string{"publish"}, Search: "x", ExcludeProtected: true})
	if _, err := conn.Conn().Prepare(ctx, "search_plan", sql); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 3; round++ {
		for word, w := range want {
			_, args := store.ListSQL(&store.ListQuery{Type: store.TypePost, Page: 1, PerPage: 10, Statuses: []string{"publish"}, Search: word, ExcludeProtected: true})
			got := preparedIDs(t, conn.Conn(), "search_plan", args, func(rows pgx.Rows) (int64, error) {
				var t, rn *int64
				post, err := store.ScanPost(rows, &t, &rn)
				if err != nil {
					return 0, err
				}
				return post.ID, nil
			})
			if !eq(got, w) {
				t.Fatalf("round %d, search %q: got %v want %v", round, word, got, w)
			}
			// and through the API, on whichever connection
			if r := e.do(anon, "GET", "/cms/v2/posts?search="+url.QueryEscape(word), nil); !eq(ids(r), w) {
				t.Fatalf("GET search=%s: got %v want %v", word, ids(r), w)
			}
		}
	}
	// the planner never sees the words: a plan that names them was made
	// for them (and estimated against the columns' statistics)
	_, args := store.ListSQL(&store.ListQuery{Type: store.TypePost, Page: 1, PerPage: 10, Statuses: []string{"publish"}, Search: "quince", ExcludeProtected: true})
	rows, err := conn.Query(ctx, "EXPLAIN "+sql, args...)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(plan, "\n"); strings.Contains(text, "quince") {
		t.Fatalf("the plan was made for the search's words:\n%s", text)
	}
	var generic, custom int64
	if err := conn.QueryRow(ctx, "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'search_plan'").Scan(&generic, &custom); err != nil {
		t.Fatal(err)
	}
	// PostgreSQL tries five custom plans, then keeps the generic one when it
	// costs no more than they did
	if generic == 0 || custom > 5 {
		t.Fatalf("generic plans %d, custom plans %d: searches are planned anew", generic, custom)
	}
	// the same for the version read anonymous searches make once their
	// posts are cached (post_versions.go)
	q := &store.ListQuery{Type: store.TypePost, Page: 1, PerPage: 10, Statuses: []string{"publish"}, Search: "x", ExcludeProtected: true}
	vsql, _ := store.ListSQLOf(q, store.VersionColumns, store.VersionLaterals(store.TypePost))
	if _, err := conn.Conn().Prepare(ctx, "search_versions", vsql); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 3; round++ {
		for word, w := range want {
			q.Search = word
			_, args := store.ListSQLOf(q, store.VersionColumns, store.VersionLaterals(store.TypePost))
			got := preparedIDs(t, conn.Conn(), "search_versions", args, func(rows pgx.Rows) (int64, error) {
				var t, rn *int64
				v, err := store.ScanVersion(rows, &t, &rn)
				if err != nil {
					return 0, err
				}
				return v.ID, nil
			})
			if !eq(got, w) {
				t.Fatalf("versions, round %d, search %q: got %v want %v", round, word, got, w)
			}
		}
	}
	if err := conn.QueryRow(ctx, "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'search_versions'").Scan(&generic, &custom); err != nil {
		t.Fatal(err)
	}
	if generic == 0 || custom > 5 {
		t.Fatalf("version read: generic plans %d, custom plans %d: searches are planned anew", generic, custom)
	}
}

// preparedIDs runs the prepared statement name with args on conn and
// returns, in order, the id idOf reads from each row.
func preparedIDs(t *testing.T, conn *pgx.Conn, name string, args []any, idOf func(pgx.Rows) (int64, error)) []int64 {
	t.Helper()
	rows, err := conn.Query(context.Background(), name, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []int64
	for rows.Next() {
		id, err := idOf(rows)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}
