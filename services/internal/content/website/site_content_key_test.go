package website

import (
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
)

// The snapshot keeps a post's filtered and unfiltered content apart: which
// one is made first never decides what the other caller gets.
func TestSiteSnapshotContentVariantsApart(t *testing.T) {
	env := &blocks.Env{SiteTitle: "T", HomeURL: "https://example.com/"}
	for _, tt := range []struct{ name, content string }{
		{"classic", `<p>Hi <script>alert(1)</script></p>`},
		{"blocks", "<!-- wp:paragraph -->\n<p>Hi <script>alert(1)</script></p>\n<!-- /wp:paragraph -->"},
	} {
		for _, order := range [][]bool{{true, false}, {false, true}} {
			sn := &siteSnapshot{limit: 1 << 20}
			p := &store.Post{ID: 7, Content: tt.content}
			for round := 0; round < 2; round++ { // the second round reads what the first kept
				for _, unfiltered := range order {
					got := sn.postContent(p, unfiltered, env)
					if strings.Contains(got, "<script>") != unfiltered {
						t.Errorf("%s, order %v, round %d: unfiltered %v rendered %q", tt.name, order, round, unfiltered, got)
					}
				}
			}
		}
	}
}
