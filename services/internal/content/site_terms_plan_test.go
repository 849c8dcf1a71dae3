package content

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
)

// A post's terms are read with one probe of term_relationships per post,
// whatever PostgreSQL knows of the terms table: never analyzed (as on a
// site with fewer than 50 terms written) or analyzed. Read as a join, the
// unanalyzed table was the outer side and term_relationships was probed
// once per term.
func TestPostTermsPlan(t *testing.T) {
	e := newEnv(t)
	var cats []int64
	for i := 0; i < 20; i++ {
		cats = append(cats, e.do(admin, "POST", "/cms/v2/categories", map[string]any{"name": "Cat " + store.Itoa(int64(i))}).id())
	}
	var ids []int64
	for i := 0; i < 4; i++ {
		ids = append(ids, e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "T", "status": "publish",
			"categories": cats[i : i+3]}).id())
	}
	ctx := context.Background()
	loops := regexp.MustCompile(`on term_relationships r .*loops=(\d+)\)`)
	for _, tt := range []struct {
		name, prepare string
	}{
		{"never analyzed", "SELECT 1"},
		{"analyzed", "ANALYZE terms"},
	} {
		if _, err := e.pool.Exec(ctx, tt.prepare); err != nil {
			t.Fatal(err)
		}
		rows, err := e.pool.Query(ctx, "EXPLAIN (ANALYZE, COSTS OFF) SELECT "+store.PostColumns+" FROM posts p"+
			store.LateralsFor(store.TypePost)+" WHERE p.id = ANY($1)", ids)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(plan, "\n")
		m := loops.FindStringSubmatch(text)
		if len(m) < 2 || m[1] != store.Itoa(int64(len(ids))) {
			t.Errorf("%s: term_relationships not probed once per post:\n%s", tt.name, text)
		}
	}
}
