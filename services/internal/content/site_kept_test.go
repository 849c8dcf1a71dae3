package content

import (
	"context"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/content/store"
)

// A post's or page's page, the front page or an archive read again in the
// same change generation runs no statement: the row found at a path and
// what a listing query found are kept in the website's snapshot
// (website.singularRows, listedPosts), for every caller, who may see a
// post being decided after. A write through the API, or one behind the
// service's back (SQL and its notification), is shown by the next render;
// a private post read by its author is still a 404 for a reader.
func TestSitePagesKeptByGeneration(t *testing.T) {
	e := newEnv(t)
	e.listen(t)
	cat := e.do(admin, "POST", "/cms/v2/categories", map[string]any{"name": "News"}).id()
	post := e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "Kept post", "status": "publish", "categories": []int64{cat}}).obj()
	page := e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "Kept page", "status": "publish"}).obj()
	private := e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "Kept private", "status": "private"}).obj()
	path := func(o map[string]any) string { return strings.TrimPrefix(o["link"].(string), "http://example.test") }
	for _, p := range []string{path(post), path(page), "/", "/category/news/"} {
		// the notifications of the writes above may still arrive and start
		// generations of their own: a few tries, each a render and another
		for try := 1; ; try++ {
			first := e.page(anon, p)
			before := e.queries.n.Load()
			again := e.page(anon, p)
			n := e.queries.n.Load() - before
			if n == 0 && again.Status == 200 && string(again.Raw) == string(first.Raw) {
				break
			}
			if try == 5 {
				t.Errorf("%s read again: %d statements (want 0), status %d, same page %v: %q", p, n, again.Status,
					string(again.Raw) == string(first.Raw), e.queries.lastSQL(int(n)))
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if r := e.page(admin, path(private)); r.Status != 200 {
		t.Fatalf("the author's private post: %d", r.Status)
	}
	if r := e.page(anon, path(private)); r.Status != 404 {
		t.Errorf("a reader after the author read the private post: %d, want 404", r.Status)
	}
	if r := e.do(admin, "POST", "/cms/v2/posts/"+store.Itoa(int64(post["id"].(float64))), map[string]any{"title": "Retitled by the API"}); r.Status != 200 {
		t.Fatalf("update: %d", r.Status)
	}
	for _, p := range []string{path(post), "/", "/category/news/"} {
		if r := e.page(anon, p); !strings.Contains(string(r.Raw), "Retitled by the API") {
			t.Errorf("%s after an update through the API is the old one", p)
		}
	}
	if _, err := e.pool.Exec(context.Background(), "UPDATE posts SET title = 'Retitled in SQL' WHERE id = "+store.Itoa(int64(post["id"].(float64)))+
		"; SELECT pg_notify('siteplane_changes', 'test')"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path(post), "/", "/category/news/"} {
		eventually(t, p+" after a write behind the service's back", func() bool {
			return strings.Contains(string(e.page(anon, p).Raw), "Retitled in SQL")
		})
	}
}
