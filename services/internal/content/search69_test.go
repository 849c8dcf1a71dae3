package content

import (
	"fmt"
	"strings"
	"testing"
)

// The search as WordPress 6.9.7 answers it (checked against the peer):
// about and collection links in every context, a page of posts past the
// end is 200 [] with a total of 0 (WP_Query's found_posts), a page of terms
// past the end is refused, and the post-format handler exists.
func TestSearchAsWordPress69(t *testing.T) {
	e := newEnv(t)
	e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Gardening tips", "status": "publish"})
	e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": "gardening"})
	links := func(r *resp) string {
		l, _ := r.list()[0]["_links"].(map[string]any)
		var out []string
		for _, rel := range []string{"self", "about", "collection"} {
			if v, ok := l[rel].([]any); ok {
				out = append(out, rel+"="+fmt.Sprint(v[0].(map[string]any)["href"]))
			}
		}
		return strings.Join(out, " ")
	}
	tests := []struct {
		name, query  string
		status       int
		total, links string
		link         string // a part of the Link header
	}{
		{"view links", "search=gardening", 200, "1", "about=http://example.test/cms-json/cms/v2/types/post collection=http://example.test/cms-json/cms/v2/search", ""},
		{"embed links", "search=gardening&context=embed", 200, "1", "about=http://example.test/cms-json/cms/v2/types/post collection=http://example.test/cms-json/cms/v2/search", ""},
		{"term links", "search=garden&type=term", 200, "1", "about=http://example.test/cms-json/cms/v2/taxonomies/post_tag collection=http://example.test/cms-json/cms/v2/search", ""},
		{"posts past the end", "search=gardening&page=3", 200, "0", "", `page=2>; rel="prev"`},
		{"terms past the end", "search=garden&type=term&page=3", 400, "", "", ""},
		{"posts past PHP's integers", "page=9223372036854775807", 400, "", "", ""},
		{"post formats", "type=post-format", 200, "0", "", ""},
		{"post formats searched", "type=post-format&search=aside", 200, "0", "", ""},
		{"no such handler", "type=comment", 400, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(anon, "GET", "/cms/v2/search?"+tc.query, nil)
			wantStatus(t, r, tc.status)
			if tc.status != 200 {
				return
			}
			if got := r.Header.Get("X-WP-Total"); got != tc.total {
				t.Fatalf("X-WP-Total %q: %s", got, r.Raw)
			}
			if tc.links != "" && !strings.HasSuffix(links(r), tc.links) {
				t.Fatalf("links %s", links(r))
			}
			if tc.links == "" && len(r.list()) != 0 {
				t.Fatalf("results %s", r.Raw)
			}
			if !strings.Contains(r.Header.Get("Link"), tc.link) {
				t.Fatalf("Link %q", r.Header.Get("Link"))
			}
		})
	}
}
