package blocks

import (
	"strings"
	"testing"
)

// A block's own element styles (styles.blocks.X.elements) apply below the
// block only, beside the root's: Twenty Twenty-Three's site and post titles
// have links without an underline while other links keep theirs.
func TestGlobalCSSBlockElements(t *testing.T) {
	styles := map[string]any{
		"elements": map[string]any{"link": map[string]any{"typography": map[string]any{"textDecoration": "underline"}}},
		"blocks": map[string]any{
			"core/site-title": map[string]any{"typography": map[string]any{"fontWeight": "normal"},
				"elements": map[string]any{"link": map[string]any{"typography": map[string]any{"textDecoration": "none"},
					":hover": map[string]any{"typography": map[string]any{"textDecoration": "underline"}}}}},
			"core/quote": map[string]any{"elements": map[string]any{"heading": map[string]any{"color": map[string]any{"text": "red"}}}},
		},
	}
	css := GlobalCSS(map[string]any{}, styles)
	for _, want := range []string{
		"a{text-decoration:underline}",
		".wp-block-site-title{font-weight:normal}",
		".wp-block-site-title a{text-decoration:none}",
		".wp-block-site-title a:hover{text-decoration:underline}",
		".wp-block-quote h1,.wp-block-quote h2,.wp-block-quote h3,.wp-block-quote h4,.wp-block-quote h5,.wp-block-quote h6{color:red}",
	} {
		if !strings.Contains(css, want) {
			t.Errorf("CSS lacks %q", want)
		}
	}
}
