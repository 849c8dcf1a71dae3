package content

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// The theme's global styles and its variations answer with the theme
// origin's merged settings, as WordPress does: preset lists keyed by
// origin, the appearance tools opted in, WordPress's default flags (the
// site editor's canvas and Styles panels are built from these).
func TestThemeGlobalStylesMergedSettings(t *testing.T) {
	e := newEnv(t)
	theme := e.do(admin, "GET", "/cms/v2/global-styles/themes/siteplane", nil)
	wantStatus(t, theme, 200)
	variations := e.do(admin, "GET", "/cms/v2/global-styles/themes/siteplane/variations", nil)
	wantStatus(t, variations, 200)
	var midnight map[string]any
	for _, v := range variations.list() {
		if v["title"] == "Midnight" {
			midnight = v
		}
	}
	slug := func(v any) any {
		list, _ := v.([]any)
		if len(list) == 0 {
			return nil
		}
		m, _ := list[0].(map[string]any)
		return m["slug"]
	}
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"theme palette keyed by origin", slug(field(theme.obj(), "settings", "color", "palette", "theme")), "base"},
		{"theme font sizes keyed by origin", slug(field(theme.obj(), "settings", "typography", "fontSizes", "theme")), "small"},
		{"theme spacing sizes keyed by origin", slug(field(theme.obj(), "settings", "spacing", "spacingSizes", "theme")), "20"},
		{"appearanceTools opts in border colour", field(theme.obj(), "settings", "border", "color"), true},
		{"appearanceTools opts in link colour", field(theme.obj(), "settings", "color", "link"), true},
		{"appearanceTools itself is gone", field(theme.obj(), "settings", "appearanceTools"), nil},
		{"default flag: text colour", field(theme.obj(), "settings", "color", "text"), true},
		{"default flag: custom font size", field(theme.obj(), "settings", "typography", "customFontSize"), true},
		{"the theme's own flag wins", field(theme.obj(), "settings", "color", "defaultPalette"), false},
		{"styles as in the file", field(theme.obj(), "styles", "typography", "lineHeight"), "1.65"},
		{"variation palette keyed by origin", slug(field(midnight, "settings", "color", "palette", "theme")), "base"},
		// WordPress's own presets, origin "default", as the peer answers
		// them beside Twenty Twenty-Five's (whose defaultPalette is false).
		{"default palette", slug(field(theme.obj(), "settings", "color", "palette", "default")), "black"},
		{"default gradients", slug(field(theme.obj(), "settings", "color", "gradients", "default")), "vivid-cyan-blue-to-vivid-purple"},
		{"default duotone", slug(field(theme.obj(), "settings", "color", "duotone", "default")), "dark-grayscale"},
		{"default font sizes", slug(field(theme.obj(), "settings", "typography", "fontSizes", "default")), "small"},
		{"default spacing sizes", slug(field(theme.obj(), "settings", "spacing", "spacingSizes", "default")), "20"},
		{"default shadows", slug(field(theme.obj(), "settings", "shadow", "presets", "default")), "natural"},
		{"default aspect ratios", slug(field(theme.obj(), "settings", "dimensions", "aspectRatios", "default")), "square"},
		{"default spacing scale", field(theme.obj(), "settings", "spacing", "spacingScale", "default", "steps"), 7},
		{"default flag: gradients", field(theme.obj(), "settings", "color", "defaultGradients"), true},
		{"default flag: shadows", field(theme.obj(), "settings", "shadow", "defaultPresets"), true},
		{"the theme's own font sizes flag", field(theme.obj(), "settings", "typography", "defaultFontSizes"), false},
		// WordPress's own button element under the theme's styles: the
		// canvas's buttons look like the website's (libraryCSS)
		{"core button background", field(theme.obj(), "styles", "elements", "button", "color", "background"), "#32373c"},
		{"core button padding", field(theme.obj(), "styles", "elements", "button", "spacing", "padding", "top"), "calc(0.667em + 2px)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := json.Marshal(tc.got)
			want, _ := json.Marshal(tc.want)
			if string(got) != string(want) {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

// The site editor saves the user's global styles with the post's id in the
// body, as a number ({"id":3,"styles":…}); WordPress's update route has no
// id argument to validate (the schema's id is read-only), so it saves.
func TestGlobalStylesUpdateWithNumericID(t *testing.T) {
	e := newEnv(t)
	id := gsID(t, e)
	n, err := strconv.Atoi(id)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		id   any
	}{
		{"id as a number, as the site editor sends it", n},
		{"id as a string", id},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(admin, "POST", "/cms/v2/global-styles/"+id, map[string]any{"id": tc.id,
				"styles": map[string]any{"color": map[string]any{"background": "var:preset|color|subtle"}}})
			wantStatus(t, r, 200)
			if field(r.obj(), "styles", "color", "background") != "var:preset|color|subtle" {
				t.Errorf("saved styles: %s", r.Raw)
			}
		})
	}
	opts := e.do(admin, "OPTIONS", "/cms/v2/global-styles/"+id, nil)
	if strings.Contains(string(opts.Raw), `"POST","PUT","PATCH"],"args":{"id"`) {
		t.Errorf("the update route describes an id argument: %.300s", opts.Raw)
	}
}

// A saved revision of the global styles is its saver's (the site editor's
// revisions panel names them); it was the post's author, no one.
func TestGlobalStylesRevisionAuthor(t *testing.T) {
	e := newEnv(t)
	id := gsID(t, e)
	wantStatus(t, e.do(admin, "POST", "/cms/v2/global-styles/"+id, map[string]any{
		"styles": map[string]any{"color": map[string]any{"text": "#123456"}}}), 200)
	revs := e.do(admin, "GET", "/cms/v2/global-styles/"+id+"/revisions", nil)
	wantStatus(t, revs, 200)
	saver := float64(callers[admin].UserID)
	if len(revs.list()) == 0 || revs.list()[0]["author"] != saver {
		t.Fatalf("the revision's author: %.300s (the saver is %v)", revs.Raw, saver)
	}
}
