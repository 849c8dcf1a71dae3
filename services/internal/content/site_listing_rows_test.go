package content

import (
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// A listing page read again reads its posts' versions, not their rows
// (store.ListPostsCached): no statement of the second render selects a
// post's content, and the page is the same. A post changed since is read
// whole again and shows its change.
func TestSiteListingReadsRowsByVersion(t *testing.T) {
	e := newEnv(t)
	cat := e.do(admin, "POST", "/cms/v2/categories", map[string]any{"name": "News"}).id()
	var ids []int64
	for i := 0; i < 12; i++ {
		ids = append(ids, e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "Listed " + store.Itoa(int64(i)),
			"status": "publish", "categories": []int64{cat}, "sticky": i == 0}).id())
	}
	for _, tt := range []struct {
		path   string
		change map[string]any // written to the newest post between the renders
		want   string
	}{
		{"/", map[string]any{"title": "Retitled on the front page"}, "Retitled on the front page"},
		{"/category/news/", map[string]any{"title": "Retitled in the archive"}, "Retitled in the archive"},
		{"/page/2/", nil, "Listed 1"},
	} {
		first := e.page(anon, tt.path)
		before := e.queries.n.Load()
		again := e.page(anon, tt.path)
		n := e.queries.n.Load() - before
		if again.Status != 200 || string(again.Raw) != string(first.Raw) {
			t.Fatalf("%s: the second render differs (status %d)", tt.path, again.Status)
		}
		for _, sql := range e.queries.lastSQL(int(n)) {
			if strings.Contains(sql, "p.content") {
				t.Errorf("%s: the second render read whole rows: %.300s", tt.path, sql)
			}
		}
		if tt.change == nil {
			continue
		}
		if r := e.do(admin, "POST", "/cms/v2/posts/"+store.Itoa(ids[len(ids)-1]), tt.change); r.Status != 200 {
			t.Fatalf("update: %d", r.Status)
		}
		if r := e.page(anon, tt.path); !strings.Contains(string(r.Raw), tt.want) {
			t.Errorf("%s: the changed post is not shown changed", tt.path)
		}
	}
}
