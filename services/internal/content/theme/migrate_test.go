package theme

import (
	"testing"
	"testing/fstest"
)

// A theme.json of version 2 (Twenty Twenty-Three's) is migrated as
// WordPress 6.9 migrates it: a theme with its own font sizes or spacing
// sizes keeps them (defaultFontSizes, defaultSpacingSizes false), where a
// version 3 theme's unset flags let WordPress's own presets prevail.
func TestLoadMigratesVersion2Settings(t *testing.T) {
	tests := []struct {
		name, json    string
		fonts, spaces any
	}{
		{"version 2 with sizes", `{"version":2,"settings":{"typography":{"fontSizes":[]},"spacing":{"spacingScale":{"steps":3}}}}`, false, false},
		{"version 2 without sizes", `{"version":2,"settings":{"typography":{},"spacing":{}}}`, nil, nil},
		{"version 3 with sizes", `{"version":3,"settings":{"typography":{"fontSizes":[]},"spacing":{"spacingSizes":[]}}}`, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			th, err := Load(fstest.MapFS{
				"style.css":            {Data: []byte("/*\nTheme Name: T\n*/")},
				"theme.json":           {Data: []byte(tc.json)},
				"templates/index.html": {Data: []byte("<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->")},
			}, "t")
			if err != nil {
				t.Fatal(err)
			}
			typo, _ := th.Settings["typography"].(map[string]any)
			sp, _ := th.Settings["spacing"].(map[string]any)
			if typo["defaultFontSizes"] != tc.fonts || sp["defaultSpacingSizes"] != tc.spaces {
				t.Errorf("defaultFontSizes %v, defaultSpacingSizes %v; want %v, %v", typo["defaultFontSizes"], sp["defaultSpacingSizes"], tc.fonts, tc.spaces)
			}
		})
	}
}
