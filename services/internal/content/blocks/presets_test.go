package blocks

import (
	"strings"
	"testing"
)

// The site editor saves a user's presets keyed by origin ({"theme": […]}
// after a style variation, {"custom": […]} for an added colour), as
// WordPress stores them; the website prints their custom properties and
// keeps the theme's beside a custom list.
func TestGlobalCSSOriginPresets(t *testing.T) {
	color := func(slug, c string) map[string]any { return map[string]any{"slug": slug, "color": c} }
	theme := map[string]any{"color": map[string]any{"palette": []any{color("base", "#fff"), color("contrast", "#111")}}}
	tests := []struct {
		name      string
		user      map[string]any
		want, not []string
	}{
		{"theme file only", nil,
			[]string{"--wp--preset--color--base:#fff;", "--wp--preset--color--contrast:#111;", ".has-base-color{"}, nil},
		{"a variation's theme palette replaces the file's",
			map[string]any{"color": map[string]any{"palette": map[string]any{"theme": []any{color("base", "#000")}}}},
			[]string{"--wp--preset--color--base:#000;"}, []string{"--wp--preset--color--base:#fff;", "--wp--preset--color--contrast"}},
		{"a custom colour adds to the theme's",
			map[string]any{"color": map[string]any{"palette": map[string]any{"custom": []any{color("brand", "#f00")}}}},
			[]string{"--wp--preset--color--base:#fff;", "--wp--preset--color--brand:#f00;", ".has-brand-background-color{"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			settings := OriginPresets(theme)
			if tc.user != nil {
				settings = MergeStyles(settings, tc.user)
			}
			css := GlobalCSS(settings, map[string]any{})
			for _, w := range tc.want {
				if !strings.Contains(css, w) {
					t.Errorf("CSS lacks %q", w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(css, n) {
					t.Errorf("CSS has %q", n)
				}
			}
		})
	}
	if _, ok := theme["color"].(map[string]any)["palette"].([]any); !ok {
		t.Error("OriginPresets changed the theme's own settings")
	}
}
