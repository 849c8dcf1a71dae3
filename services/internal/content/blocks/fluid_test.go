package blocks

import (
	"strings"
	"testing"
)

// Fluid font sizes are WordPress's own strings for Twenty Twenty-Three's
// presets and h1 (its settings: fluid on, wide size 1200px), read from the
// peer's pages; without fluid typography sizes stay as written.
func TestFluidFontSizes(t *testing.T) {
	tt3 := map[string]any{"typography": map[string]any{"fluid": true}, "layout": map[string]any{"wideSize": "1200px"}}
	tests := []struct {
		name     string
		settings map[string]any
		size     string
		fluid    any
		want     string
	}{
		{"preset with min and max", tt3, "1.125rem", map[string]any{"min": "1rem", "max": "1.125rem"}, "clamp(1rem, 1rem + ((1vw - 0.2rem) * 0.227), 1.125rem)"},
		{"preset xx-large", tt3, "10rem", map[string]any{"min": "6.1rem", "max": "10rem"}, "clamp(6.1rem, 6.1rem + ((1vw - 0.2rem) * 7.091), 10rem)"},
		{"preset not fluid", tt3, "2.25rem", false, "2.25rem"},
		{"computed minimum (h1)", tt3, "3.625rem", nil, "clamp(2.032rem, 2.032rem + ((1vw - 0.2rem) * 2.896), 3.625rem)"},
		{"at most the 14px limit", tt3, "14px", nil, "14px"},
		{"not a length", tt3, "var(--x)", nil, "var(--x)"},
		{"fluid off", map[string]any{}, "3.625rem", nil, "3.625rem"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fluidSize(tt.settings, tt.size, tt.fluid); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	css := GlobalCSS(map[string]any{"typography": map[string]any{"fluid": true, "fontSizes": []any{
		map[string]any{"slug": "medium", "size": "1.125rem", "fluid": map[string]any{"min": "1rem", "max": "1.125rem"}}}},
		"layout": map[string]any{"wideSize": "1200px"}},
		map[string]any{"elements": map[string]any{"h1": map[string]any{"typography": map[string]any{"fontSize": "3.625rem"}}}})
	for _, want := range []string{"--wp--preset--font-size--medium:clamp(1rem, 1rem + ((1vw - 0.2rem) * 0.227), 1.125rem);",
		"h1{font-size:clamp(2.032rem, 2.032rem + ((1vw - 0.2rem) * 2.896), 3.625rem)}"} {
		if !strings.Contains(css, want) {
			t.Errorf("CSS lacks %q", want)
		}
	}
}
