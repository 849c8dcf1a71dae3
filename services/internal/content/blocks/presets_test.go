package blocks

import "testing"

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
			wantContains(t, css, tc.want, tc.not)
		})
	}
	if _, ok := theme["color"].(map[string]any)["palette"].([]any); !ok {
		t.Error("OriginPresets changed the theme's own settings")
	}
}

// WordPress's own presets are the "default" origin under a theme's: the
// website prints their custom properties and classes whatever the theme's
// default* flags (Twenty Twenty-Five, defaultPalette false, still has
// --wp--preset--color--black on the peer), and while a flag is true (the
// default) a theme preset of the same slug gives way to WordPress's.
func TestWithDefaultPresets(t *testing.T) {
	size := func(slug, v string) map[string]any { return map[string]any{"slug": slug, "size": v} }
	tests := []struct {
		name      string
		settings  map[string]any
		want, not []string
	}{
		{"no flags: WordPress's sizes prevail over the theme's of the same slug",
			map[string]any{"typography": map[string]any{"fontSizes": []any{size("small", "1rem"), size("huge", "5rem")}}},
			[]string{"--wp--preset--font-size--small:13px;", "--wp--preset--font-size--huge:5rem;", "--wp--preset--font-size--x-large:42px;"},
			[]string{"--wp--preset--font-size--small:1rem;"}},
		{"defaultFontSizes false: the theme's size of the same slug wins, printed once",
			map[string]any{"typography": map[string]any{"defaultFontSizes": false, "fontSizes": []any{size("small", "1rem")}}},
			[]string{"--wp--preset--font-size--small:1rem;--wp--preset--font-size--medium:20px;"},
			[]string{"--wp--preset--font-size--small:13px;"}},
		{"defaultPalette false: the core colours are printed all the same",
			map[string]any{"color": map[string]any{"defaultPalette": false, "palette": []any{map[string]any{"slug": "base", "color": "#fff"}}}},
			[]string{"--wp--preset--color--black:#000000;", "--wp--preset--color--vivid-purple:#9b51e0;--wp--preset--color--base:#fff;",
				".has-vivid-red-color{", ".has-vivid-red-background-color{", ".has-vivid-red-border-color{border-color:", ".has-base-border-color{"},
			nil},
		{"the other lists: gradients, shadows, aspect ratios, spacing",
			map[string]any{},
			[]string{":root{--wp--preset--aspect-ratio--square:1;", "--wp--preset--aspect-ratio--16-9:16/9;",
				"--wp--preset--gradient--vivid-cyan-blue-to-vivid-purple:linear-gradient(", "--wp--preset--shadow--natural:6px 6px 9px rgba(0, 0, 0, 0.2);",
				"--wp--preset--spacing--20:0.44rem;", ".has-midnight-gradient-background{background:var(--wp--preset--gradient--midnight) !important}"},
			[]string{"--wp--preset--duotone"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			css := GlobalCSS(WithDefaultPresets(OriginPresets(tc.settings)), map[string]any{})
			wantContains(t, css, tc.want, tc.not)
		})
	}
}
