package content

import (
	"context"
	"testing"
	"time"

	"siteplane.dev/services/internal/content/store"
)

func TestSeedDemoIsIdempotent(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	counts, err := store.SeedDemo(ctx, e.pool, now)
	if err != nil {
		t.Fatal(err)
	}
	if counts.Posts != 200 || counts.Pages != 20 || counts.Navigation != 1 || counts.Blocks < 1 || counts.Categories < 1 || counts.Tags < 1 {
		t.Fatalf("counts %+v", counts)
	}
	again, err := store.SeedDemo(ctx, e.pool, now)
	if err != nil || again != (store.SeedCounts{}) {
		t.Fatalf("second run wrote %+v (%v)", again, err)
	}
	r := e.do(anon, "GET", "/cms/v2/posts?per_page=1", nil)
	if r.Header.Get("X-WP-Total") != "200" {
		t.Fatalf("posts total %s", r.Header.Get("X-WP-Total"))
	}
	if r := e.do(anon, "GET", "/cms/v2/pages?per_page=1", nil); r.Header.Get("X-WP-Total") != "20" {
		t.Fatalf("pages total %s", r.Header.Get("X-WP-Total"))
	}
	if r := e.do(anon, "GET", "/cms/v2/navigation", nil); len(r.list()) != 1 {
		t.Fatalf("navigation %s", r.Raw)
	}
	if r := e.do(editor, "GET", "/cms/v2/blocks", nil); len(r.list()) != counts.Blocks {
		t.Fatalf("blocks %s", r.Raw)
	}
}
