package postgres_test

import (
	"context"
	"math"
	"testing"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/postgres"
)

// QueryPage reads a page and the total of matches in one statement; only a
// page that is empty past the start runs the count statement, so "past the
// end" still tells how many there are, and "no matches" says 0.
func TestQueryPage(t *testing.T) {
	ctx := context.Background()
	pool, err := postgres.Open(ctx, pgtest.NewDatabase(t), "public")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	// 25 numbers; the filter keeps the odd ones (13)
	const from = ` FROM generate_series(1, 25) n WHERE n % 2 = $1`
	for _, c := range []struct {
		name          string
		rem           int
		limit, offset int
		want          []int64
		total         int
	}{
		{"first page", 1, 5, 0, []int64{1, 3, 5, 7, 9}, 13},
		{"last page", 1, 5, 10, []int64{21, 23, 25}, 13},
		{"past the end, counted apart", 1, 5, 20, nil, 13},
		{"no matches", 3, 5, 0, nil, 0},
		{"no matches past the start", 3, 5, 5, nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			counted := false
			got, total, err := postgres.QueryPage(ctx, pool, postgres.Page{Name: "numbers",
				Select: `SELECT n::bigint, count(*) OVER ()` + from + ` ORDER BY n LIMIT $2 OFFSET $3`,
				Args:   []any{c.rem, c.limit, c.offset},
				Count: func() (string, []any) {
					counted = true
					return `SELECT count(*)` + from, []any{c.rem}
				},
				PastStart: c.offset > 0},
				func(rows pgx.Rows, total *int64) (int64, error) {
					var n int64
					err := rows.Scan(&n, total)
					return n, err
				})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) || total != c.total {
				t.Fatalf("got %v (total %d), want %v (total %d)", got, total, c.want, c.total)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("got %v, want %v", got, c.want)
				}
			}
			if wantCount := len(c.want) == 0 && c.offset > 0; counted != wantCount {
				t.Errorf("count statement run: %v, want %v", counted, wantCount)
			}
		})
	}
}

func TestOffset(t *testing.T) {
	for _, c := range []struct{ page, perPage, want int }{
		{0, 10, 0}, {1, 10, 0}, {2, 10, 10}, {3, 0, 0}, {math.MaxInt64, 10, math.MaxInt64},
	} {
		if got := postgres.Offset(c.page, c.perPage); got != c.want {
			t.Errorf("Offset(%d, %d) = %d, want %d", c.page, c.perPage, got, c.want)
		}
	}
}
