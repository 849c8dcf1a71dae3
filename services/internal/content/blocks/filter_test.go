package blocks

import (
	"strings"
	"testing"

	"siteplane.dev/services/internal/platform/kses"
)

// Content stored unfiltered (before a fix, or by a path that skipped
// kses) renders inert once sanitized.
func TestSanitizeStoredContent(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"script between blocks", `<script>alert(1)</script><!-- wp:paragraph --><p>a</p><!-- /wp:paragraph -->`, []string{"<p>a</p>"}},
		{"event handler in a block's html", `<!-- wp:paragraph --><p onclick="alert(1)">a</p><!-- /wp:paragraph -->`, []string{"<p>a</p>"}},
		{"javascript: link in a button", `<!-- wp:buttons --><div class="wp-block-buttons"><!-- wp:button --><div class="wp-block-button"><a class="wp-block-button__link" href="javascript:alert(1)">b</a></div><!-- /wp:button --></div><!-- /wp:buttons -->`,
			[]string{`<div class="is-layout-flex wp-block-buttons"><div class="wp-block-button">`, `>b</a></div></div>`}},
		{"image onerror", `<!-- wp:image --><figure class="wp-block-image"><img src="x" onerror="alert(1)"/></figure><!-- /wp:image -->`, []string{`<img src="x"/>`}},
		{"a tag cut by a block comment", `<!-- wp:group --><div title="<!-- wp:paragraph -->" onclick="alert(1)"><!-- /wp:paragraph -->x</div><!-- /wp:group -->`, []string{"x</div>"}},
		{"cover style url", `<!-- wp:cover --><div class="wp-block-cover" style="background-image:url(javascript:alert(1))">c</div><!-- /wp:cover -->`, []string{`>c</div>`}},
		{"layout class still added", `<!-- wp:group {"layout":{"type":"constrained"}} --><div class="wp-block-group" onmouseover="x">g</div><!-- /wp:group -->`,
			[]string{`<div class="has-global-padding is-layout-constrained wp-block-group">g</div>`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes := Parse(tt.src)
			before := dump(nodes)
			for _, got := range []string{Render(Sanitize(nodes), testEnv()), Render(Compile(Sanitize(nodes), testEnv()), testEnv())} {
				if problems := unsafeMarkup(got); len(problems) > 0 {
					t.Errorf("%s\nin %s", strings.Join(problems, "\n"), got)
				}
				for _, w := range tt.want {
					if !strings.Contains(got, w) {
						t.Errorf("missing %q in %s", w, got)
					}
				}
			}
			if dump(nodes) != before {
				t.Error("Sanitize changed its input")
			}
		})
	}
}

// Content kses filtered when it was written renders byte for byte the same
// sanitized: the read-time filter costs well-formed posts nothing.
func TestSanitizeKeepsFilteredContent(t *testing.T) {
	posts := []string{
		"<!-- wp:paragraph -->\n<p>Hello &amp; <strong>welcome</strong> — “quotes” &lt;3</p>\n<!-- /wp:paragraph -->",
		`<!-- wp:image {"id":5,"sizeSlug":"large","linkDestination":"none"} --><figure class="wp-block-image size-large"><img src="/cms-content/uploads/a.png" alt="A &amp; B" class="wp-image-5"/><figcaption class="wp-element-caption">Cap</figcaption></figure><!-- /wp:image -->`,
		`<!-- wp:buttons {"layout":{"type":"flex","justifyContent":"center"}} --><div class="wp-block-buttons"><!-- wp:button --><div class="wp-block-button"><a class="wp-block-button__link wp-element-button" href="https://s.test/?a=1&amp;b=2">Go</a></div><!-- /wp:button --></div><!-- /wp:buttons -->`,
		`<!-- wp:columns --><div class="wp-block-columns"><!-- wp:column {"width":"66.66%"} --><div class="wp-block-column" style="flex-basis:66.66%"><!-- wp:list --><ul class="wp-block-list"><!-- wp:list-item --><li>one</li><!-- /wp:list-item --></ul><!-- /wp:list --></div><!-- /wp:column --></div><!-- /wp:columns -->`,
		`<!-- wp:quote --><blockquote class="wp-block-quote"><!-- wp:paragraph --><p>q</p><!-- /wp:paragraph --><cite>c</cite></blockquote><!-- /wp:quote -->` + "\n\n" +
			`<!-- wp:table --><figure class="wp-block-table"><table><tbody><tr><td>1</td></tr></tbody></table></figure><!-- /wp:table -->`,
	}
	for _, src := range posts {
		stored := kses.Filter(src, kses.Post)
		want := Render(Parse(stored), testEnv())
		if got := Render(Sanitize(Parse(stored)), testEnv()); got != want {
			t.Errorf("sanitizing changed filtered content:\n got %s\nwant %s", got, want)
		}
	}
}
