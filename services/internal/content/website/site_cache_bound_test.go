package website

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
)

// A snapshot keeps per-post entries only up to its byte budget: a crawl
// through more posts than fit leaves it at the budget, and posts past it
// still render the same (made again each time).
func TestSiteSnapshotBounded(t *testing.T) {
	const limit = 16 << 10
	sn := &siteSnapshot{limit: limit}
	env := &blocks.Env{SiteTitle: "T", HomeURL: "https://example.com/"}
	post := func(id int64) *store.Post {
		body := strings.Repeat(fmt.Sprintf("word%d ", id), 60)
		p := &store.Post{ID: id, Content: "<p>" + body + "</p>"}
		if id%2 == 0 {
			p.Content = "<!-- wp:paragraph -->\n<p>" + body + "</p>\n<!-- /wp:paragraph -->"
		}
		return p
	}
	count := func(m *sync.Map) (n int) {
		m.Range(func(any, any) bool { n++; return true })
		return n
	}
	first := map[int64][2]string{}
	for id := int64(1); id <= 200; id++ {
		p := post(id)
		first[id] = [2]string{sn.excerpt(p), sn.postContent(p, false, env)}
		if h := sn.held.Load(); h > limit {
			t.Fatalf("after post %d the snapshot holds %d bytes, over its %d", id, h, limit)
		}
	}
	kept := count(&sn.excerpts) + count(&sn.contents)
	if kept == 0 || kept >= 400 {
		t.Fatalf("%d of 400 entries kept: want some, not all", kept)
	}
	for id := int64(1); id <= 200; id++ { // kept or not, the same answers
		p := post(id)
		if got := [2]string{sn.excerpt(p), sn.postContent(p, false, env)}; got != first[id] {
			t.Fatalf("post %d renders %q, first %q", id, got, first[id])
		}
	}
	if !strings.Contains(first[200][1], "word200") || first[200][0] == "" {
		t.Fatalf("post 200 rendered %q", first[200])
	}
}
