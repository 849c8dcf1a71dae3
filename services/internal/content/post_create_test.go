package content

import (
	"fmt"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// TestCreateMakesSlugUniqueInItsInsert: a create whose slug comes from its
// title is one statement (the insert picks the first free candidate), and
// its slugs are wp_unique_post_slug's: suffixes in order, past the first
// round of candidates (the insert finds them all taken, the later rounds
// are looked up and the insert runs again), per parent for pages, reserved
// and date-archive slugs skipped.
func TestCreateMakesSlugUniqueInItsInsert(t *testing.T) {
	e := newEnv(t)
	create := func(path string, body map[string]any) (string, int64) {
		t.Helper()
		before := e.queries.n.Load()
		r := e.do(admin, "POST", path, body)
		wantStatus(t, r, 201)
		return str(r.obj()["slug"]), e.queries.n.Load() - before
	}
	// the usual create: one statement
	if slug, n := create("/cms/v2/posts", map[string]any{"title": "Twin", "status": "publish"}); slug != "twin" || n != 1 {
		t.Fatalf("first create: slug %q in %d statements, want twin in 1", slug, n)
	}
	for i := 2; i <= 13; i++ {
		slug, n := create("/cms/v2/posts", map[string]any{"title": "Twin", "status": "publish"})
		if want := fmt.Sprintf("twin-%d", i); slug != want {
			t.Fatalf("create %d: slug %q, want %q", i, slug, want)
		}
		// twin … twin-9 is the first round: beyond it the insert finds
		// nothing free, one lookup and a second insert follow
		want := int64(1)
		if i > 1+store.SlugProbe {
			want = 3
		}
		if n != want {
			t.Fatalf("create %d: %d statements, want %d", i, n, want)
		}
	}
	// a draft keeps no slug; an explicit slug is made unique before the insert
	if slug, _ := create("/cms/v2/posts", map[string]any{"title": "Twin"}); slug != "" {
		t.Fatalf("draft: slug %q", slug)
	}
	if slug, _ := create("/cms/v2/posts", map[string]any{"title": "Other", "slug": "twin", "status": "publish"}); slug != "twin-14" {
		t.Fatalf("explicit slug: %q, want twin-14", slug)
	}
	// posts never take a date archive's slug, pages never feed names
	if slug, _ := create("/cms/v2/posts", map[string]any{"title": "2024", "status": "publish"}); slug != "2024-2" {
		t.Fatalf("date archive title: %q, want 2024-2", slug)
	}
	if slug, _ := create("/cms/v2/pages", map[string]any{"title": "Feed", "status": "publish"}); slug != "feed-2" {
		t.Fatalf("page titled Feed: %q, want feed-2", slug)
	}
	// pages: unique among their parent's children only
	r := e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "Parent", "status": "publish"})
	wantStatus(t, r, 201)
	parent := r.id()
	for _, c := range []struct {
		parent int64
		want   string
	}{{0, "about"}, {parent, "about"}, {parent, "about-2"}, {0, "about-2"}} {
		want := int64(1)
		if c.parent != 0 {
			want = 2 // the parent is read first
		}
		if slug, n := create("/cms/v2/pages", map[string]any{"title": "About", "parent": c.parent, "status": "publish"}); slug != c.want || n != want {
			t.Fatalf("page About under %d: slug %q in %d statements, want %q in %d", c.parent, slug, n, c.want, want)
		}
	}
	// the slug stored is the one answered
	var stored string
	if err := e.pool.QueryRow(t.Context(), `SELECT slug FROM posts WHERE type = 'page' AND parent = $1 ORDER BY id DESC LIMIT 1`, parent).Scan(&stored); err != nil || stored != "about-2" {
		t.Fatalf("stored slug %q (%v), want about-2", stored, err)
	}
}
