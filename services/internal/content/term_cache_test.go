package content

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestEncodedTermCache: anonymous term reads answered from the encoded
// terms are byte for byte what preparing and encoding them gives, follow a
// change made behind the service's back, and logged-in callers (other
// targetHints), _fields and _pretty get their own answers.
func TestEncodedTermCache(t *testing.T) {
	e := newEnv(t)
	news := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "News"})
	wantStatus(t, news, 201)
	sub := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "Sub", "parent": news.id()})
	wantStatus(t, sub, 201)
	tag := e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": "Fresh"})
	wantStatus(t, tag, 201)
	post := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "P", "status": "publish",
		"categories": []int64{news.id(), sub.id()}, "tags": []int64{tag.id()}})
	wantStatus(t, post, 201)
	uncached := func(who, path string) string {
		e.svc.encodedTerms.mu.Lock()
		e.svc.encodedTerms.m = nil
		e.svc.encodedTerms.mu.Unlock()
		return string(e.do(who, "GET", path, nil).Raw)
	}
	paths := []string{
		fmt.Sprintf("/cms/v2/categories?post=%d", post.id()),
		fmt.Sprintf("/cms/v2/categories?post=%d&context=embed&per_page=100", post.id()),
		fmt.Sprintf("/cms/v2/tags?post=%d&context=embed", post.id()),
		"/cms/v2/categories",
		"/cms/v2/categories?_fields=id,name",
		"/cms/v2/tags?_pretty=1",
	}
	for _, path := range paths {
		t.Run(path, func(t *testing.T) {
			for _, who := range []string{anon, editor} {
				want := uncached(who, path)
				for range 2 { // the second read comes from the cache
					if got := string(e.do(who, "GET", path, nil).Raw); got != want {
						t.Fatalf("%s: cached\n%s\nencoded anew\n%s", who, got, want)
					}
				}
			}
		})
	}
	e.do(anon, "GET", paths[0], nil)
	if n := len(e.svc.encodedTerms.m); n < 2 {
		t.Fatalf("%d terms kept after an anonymous read", n)
	}
	if _, err := e.pool.Exec(context.Background(), "UPDATE terms SET name = 'Renamed behind its back' WHERE id = $1", sub.id()); err != nil {
		t.Fatal(err)
	}
	if got := string(e.do(anon, "GET", paths[0], nil).Raw); !strings.Contains(got, "Renamed behind its back") {
		t.Fatalf("after the update: %s", got)
	}
	if got, want := string(e.do(anon, "GET", paths[1], nil).Raw), uncached(anon, paths[1]); got != want {
		t.Fatalf("after the update: cached\n%s\nencoded anew\n%s", got, want)
	}
}
