package content

import (
	"context"
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// TestEncodedPostCache: anonymous reads answered from the encoded posts
// follow every change of a post's row, even one made behind the service's
// back (no notification, no invalidation), and requests the bytes would
// not fit (_fields, _pretty, a logged-in caller, excerpt_length) get their
// own answer.
func TestEncodedPostCache(t *testing.T) {
	e := newEnv(t)
	id := seedPosts(e, map[string]any{"title": "First title", "content": "<p>Body words here</p>"})[0]
	item := "/cms/v2/posts/" + store.Itoa(id)
	title := func(who, path string) string {
		t.Helper()
		r := e.do(who, "GET", path, nil)
		wantStatus(t, r, 200)
		if l, ok := r.Body.([]any); ok {
			for _, o := range l {
				if m := o.(map[string]any); m["id"] == float64(id) {
					return str(field(m, "title", "rendered"))
				}
			}
			t.Fatalf("post %d not in %s", id, r.Raw)
		}
		return str(field(r.obj(), "title", "rendered"))
	}
	for range 2 { // the second read comes from the cache
		if got := title(anon, item); got != "First title" {
			t.Fatalf("single: %q", got)
		}
		if got := title(anon, "/cms/v2/posts"); got != "First title" {
			t.Fatalf("list: %q", got)
		}
	}
	ctx := context.Background()
	if _, err := e.pool.Exec(ctx, "UPDATE posts SET title = 'Changed behind its back' WHERE id = $1", id); err != nil {
		t.Fatal(err)
	}
	if got := title(anon, item); got != "Changed behind its back" {
		t.Fatalf("single after the update: %q", got)
	}
	if got := title(anon, "/cms/v2/posts"); got != "Changed behind its back" {
		t.Fatalf("list after the update: %q", got)
	}
	// a term link added directly changes categories
	tag := e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": "Fresh"}).id()
	if _, err := e.pool.Exec(ctx, "INSERT INTO term_relationships (post_id, term_id) VALUES ($1, $2)", id, tag); err != nil {
		t.Fatal(err)
	}
	r := e.do(anon, "GET", item, nil)
	if tags, _ := field(r.obj(), "tags").([]any); len(tags) != 1 || tags[0] != float64(tag) {
		t.Fatalf("tags after a direct insert: %s", r.Raw)
	}
	// requests shaped otherwise
	r = e.do(anon, "GET", item+"?_fields=id,title", nil)
	if m := r.obj(); len(m) != 2 || m["title"] == nil {
		t.Fatalf("_fields: %s", r.Raw)
	}
	r = e.do(anon, "GET", "/cms/v2/posts?_fields=id", nil)
	if l := r.list(); len(l) != 1 || len(l[0]) != 1 {
		t.Fatalf("list _fields: %s", r.Raw)
	}
	if r = e.do(anon, "GET", item+"?_pretty=1", nil); !strings.Contains(string(r.Raw), "\n    \"id\"") {
		t.Fatalf("_pretty: %s", r.Raw)
	}
	r = e.do(editor, "GET", item, nil)
	allow := field(r.obj(), "_links", "self").([]any)[0].(map[string]any)["targetHints"].(map[string]any)["allow"].([]any)
	if len(allow) < 2 {
		t.Fatalf("the editor's allow hints: %v", allow)
	}
	r = e.do(anon, "GET", item, nil)
	allow = field(r.obj(), "_links", "self").([]any)[0].(map[string]any)["targetHints"].(map[string]any)["allow"].([]any)
	if len(allow) != 1 || allow[0] != "GET" {
		t.Fatalf("the anonymous allow hints after the editor's read: %v", allow)
	}
	r = e.do(anon, "GET", item+"?excerpt_length=1", nil)
	if ex := str(field(r.obj(), "excerpt", "rendered")); !strings.Contains(ex, "Body") || strings.Contains(ex, "words") {
		t.Fatalf("excerpt_length: %q", ex)
	}
}
