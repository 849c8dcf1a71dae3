package website

import (
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/theme"
)

// TestFontFaceCSSInstalledFonts: a font installed through the font
// library and activated in the user's global styles (the site editor
// writes typography.fontFamilies.custom) gets its @font-face beside the
// theme's own, as wp_print_font_faces prints the merged settings' faces.
func TestFontFaceCSSInstalledFonts(t *testing.T) {
	th := &theme.Theme{Stylesheet: "demo", Settings: map[string]any{"typography": map[string]any{"fontFamilies": []any{
		map[string]any{"slug": "body", "fontFace": []any{map[string]any{"fontFamily": "Body", "src": []any{"file:./assets/body.woff2"}}}},
	}}}}
	installed := []any{map[string]any{"slug": "inter", "fontFamily": "Inter", "fontFace": []any{
		map[string]any{"fontFamily": "Inter", "fontWeight": "100 900", "src": []any{"http://example.test/cms-content/fonts/Inter.woff2"}}}}}
	cases := []struct {
		name string
		user map[string]any
		want []string
	}{
		{"no user styles", nil, []string{`font-family:"Body"`}},
		{"custom origin", map[string]any{"typography": map[string]any{"fontFamilies": map[string]any{"custom": installed}}},
			[]string{`font-family:"Body"`, `font-family:"Inter";font-weight:100 900;`, `url('http://example.test/cms-content/fonts/Inter.woff2') format('woff2')`}},
		{"a plain list", map[string]any{"typography": map[string]any{"fontFamilies": installed}},
			[]string{`font-family:"Body"`, `font-family:"Inter"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			css := fontFaceCSS(th, c.user, "http://example.test")
			for _, w := range c.want {
				if !strings.Contains(css, w) {
					t.Fatalf("missing %q in\n%s", w, css)
				}
			}
			if c.user == nil && strings.Contains(css, "Inter") {
				t.Fatalf("unexpected face:\n%s", css)
			}
		})
	}
}
