package theme

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/theme/themetest"
)

// writeTheme writes files (path → content) as the theme directory
// dir/name.
func writeTheme(t *testing.T, dir, name string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, name, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// goodTheme is a block theme with one thing of each kind.
func goodTheme() map[string]string {
	return map[string]string{
		"style.css":            "/*\nTheme Name: Good\nVersion: 1.2\nText Domain: good\n*/",
		"theme.json":           `{"version":3,"settings":{"color":{"palette":[{"slug":"base","color":"#fff","name":"Base"}]}}}`,
		"templates/index.html": `<!-- wp:pattern {"slug":"good/hi"} /-->`,
		"parts/header.html":    `<!-- wp:site-title /-->`,
		"styles/dusk.json":     `{"version":3,"title":"Dusk"}`,
		"patterns/hi.php":      "<?php\n/**\n * Title: Hi\n * Slug: good/hi\n */\n?>\n<p><?php esc_html_e( 'Hi & bye', 'good' ); ?></p><img src=\"<?php echo esc_url( get_template_directory_uri() ); ?>/a.png\" alt=\"\">",
	}
}

// Select answers the built-in theme, a supplied directory, or an error
// that says why the theme is refused; what a usable theme has to leave out
// is in its Warnings.
func TestSelect(t *testing.T) {
	cases := []struct {
		name      string
		theme     string
		mutate    func(map[string]string)
		noDir     bool
		refused   string // substring of the error; "" loads
		warnings  []string
		patterns  int
		variation int
	}{
		{name: "built-in by default", theme: ""},
		{name: "built-in by name", theme: BuiltinStylesheet},
		{name: "supplied", theme: "good", patterns: 1, variation: 1},
		{name: "broken theme.json", theme: "good", mutate: func(m map[string]string) { m["theme.json"] = `{"version":3,` }, refused: "theme.json"},
		{name: "missing index template", theme: "good", mutate: func(m map[string]string) { delete(m, "templates/index.html") }, refused: "templates/index.html"},
		{name: "no style.css header", theme: "good", mutate: func(m map[string]string) { m["style.css"] = "/* nothing */" }, refused: "Theme Name"},
		{name: "no such directory", theme: "absent", refused: "no directory"},
		{name: "not a directory name", theme: "../etc", refused: "not a theme directory name"},
		{name: "no themes directory", theme: "good", noDir: true, refused: "SITEPLANE_THEMES_DIR"},
		{name: "broken style variation left out", theme: "good", mutate: func(m map[string]string) { m["styles/bad.json"] = "{" },
			warnings: []string{"style variation styles/bad.json left out"}, patterns: 1, variation: 1},
		{name: "pattern with arbitrary PHP left out", theme: "good",
			mutate: func(m map[string]string) {
				m["patterns/evil.php"] = "<?php\n/**\n * Title: Evil\n * Slug: good/evil\n */\n?>\n<?php system( $_GET['c'] ); ?>"
			},
			warnings: []string{"pattern good/evil (patterns/evil.php) left out: needs general PHP"}, patterns: 1, variation: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			files := goodTheme()
			if c.mutate != nil {
				c.mutate(files)
			}
			writeTheme(t, dir, "good", files)
			themesDir := dir
			if c.noDir {
				themesDir = ""
			}
			th, err := Select(themesDir, c.theme, "http://example.test")
			if c.refused != "" {
				if err == nil || !strings.Contains(err.Error(), c.refused) {
					t.Fatalf("err %v, want one saying %q", err, c.refused)
				}
				if c.noDir && !errors.Is(err, ErrNoThemesDir) {
					t.Errorf("err %v is not ErrNoThemesDir", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.theme == "" || c.theme == BuiltinStylesheet {
				if th.Stylesheet != BuiltinStylesheet {
					t.Fatalf("stylesheet %q", th.Stylesheet)
				}
				return
			}
			if th.Stylesheet != "good" || th.Name != "Good" || th.Version != "1.2" || len(th.Patterns) != c.patterns || len(th.Variations) != c.variation {
				t.Fatalf("loaded %s %q %q, %d patterns, %d variations", th.Stylesheet, th.Name, th.Version, len(th.Patterns), len(th.Variations))
			}
			if len(th.Warnings) != len(c.warnings) {
				t.Fatalf("warnings %q, want %q", th.Warnings, c.warnings)
			}
			for i, w := range c.warnings {
				if !strings.Contains(th.Warnings[i], w) {
					t.Errorf("warning %q lacks %q", th.Warnings[i], w)
				}
			}
			p, _ := th.Pattern("good/hi")
			if want := `<p>Hi &amp; bye</p><img src="http://example.test/cms-content/themes/good/a.png" alt="">`; p.Content != want {
				t.Errorf("pattern content %q, want %q", p.Content, want)
			}
			if b, err := fs.ReadFile(th.Files, "style.css"); err != nil || !strings.Contains(string(b), "Theme Name: Good") {
				t.Errorf("theme files: %q %v", b, err)
			}
		})
	}
}

// Twenty Twenty-Three loads whole: every template, part and style
// variation, and every pattern, whose PHP is all in the static subset.
func TestTwentyTwentyThree(t *testing.T) {
	dir := themetest.TT3Dir(t)
	th, err := Select(filepath.Dir(dir), filepath.Base(dir), "http://example.test")
	if err != nil {
		t.Fatal(err)
	}
	if th.Name != "Twenty Twenty-Three" || th.TextDomain != "twentytwentythree" || len(th.Warnings) != 0 {
		t.Fatalf("%q %q, warnings %q", th.Name, th.TextDomain, th.Warnings)
	}
	for _, slug := range []string{"index", "home", "single", "page", "archive", "search", "404", "blank", "blog-alternative"} {
		if _, ok := th.Template(slug); !ok {
			t.Errorf("no template %s", slug)
		}
	}
	for slug, area := range map[string]string{"header": AreaHeader, "footer": AreaFooter, "comments": AreaUncategorized, "post-meta": AreaUncategorized} {
		if p, ok := th.Part(slug); !ok || p.Area != area {
			t.Errorf("part %s: %v, area %q", slug, ok, p.Area)
		}
	}
	if len(th.Variations) != 10 || len(th.Patterns) != 7 {
		t.Errorf("%d variations, %d patterns", len(th.Variations), len(th.Patterns))
	}
	for _, p := range th.Patterns {
		if strings.Contains(p.Content, "<?") {
			t.Errorf("pattern %s keeps PHP: %q", p.Slug, p.Content)
		}
	}
	if p, _ := th.Pattern("twentytwentythree/footer-default"); !strings.Contains(p.Content, `Proudly powered by <a href="https://wordpress.org" rel="nofollow">WordPress</a>`) {
		t.Errorf("footer pattern: %q", p.Content)
	}
}
