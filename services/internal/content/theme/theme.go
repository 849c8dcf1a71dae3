// Package theme reads a block theme — style.css headers, theme.json, style
// variations, templates and template parts — from a file system, and holds
// the pure rules over it (template ids, the template hierarchy, default
// template titles). The theme is an input: Siteplane's own theme is embedded
// (Builtin) and any other directory with the same layout loads the same way.
package theme

import (
	"bufio"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"siteplane.dev/services/pkg/contract"
)

// builtinFS holds the Siteplane theme, files/siteplane.
//
//go:embed files
var builtinFS embed.FS

// BuiltinStylesheet is the stylesheet (directory name) of the embedded theme.
const BuiltinStylesheet = contract.ActiveTheme

// Theme is a loaded block theme.
type Theme struct {
	Stylesheet  string // directory name: the theme's identifier
	Name        string
	ThemeURI    string
	Author      string
	AuthorURI   string
	Description string
	Version     string
	RequiresWP  string
	RequiresPHP string
	TextDomain  string
	Tags        []string

	// Settings and Styles are theme.json's objects as decoded JSON.
	Settings map[string]any
	Styles   map[string]any
	// Variations are styles/*.json, sorted by file name, each as decoded.
	Variations []Variation
	// Templates are templates/*.html; Parts are parts/*.html.
	Templates []File
	Parts     []File
	// Patterns are patterns/*.php (patterns.go).
	Patterns []Pattern
	// Warnings say what of the theme was left out and why (a style
	// variation that does not parse, a pattern that needs general PHP):
	// the theme is served without it, and the service logs each line.
	Warnings []string
	// Files is the theme's directory (its assets: fonts, images).
	Files fs.FS
}

// Variation is one style variation file.
type Variation struct {
	File string // e.g. "styles/midnight.json"
	Data map[string]any
}

// File is one template or template part file of the theme.
type File struct {
	Slug      string
	Title     string // from theme.json (customTemplates/templateParts) or the default titles
	Content   string
	Area      string   // parts only: theme.json templateParts[].area, else "uncategorized"
	PostTypes []string // templates only: customTemplates[].postTypes
	Custom    bool     // templates only: listed in customTemplates (a page template)
}

var (
	builtinOnce sync.Once
	builtin     *Theme
	builtinErr  error
)

// Builtin returns the embedded Siteplane theme (loaded once).
func Builtin() (*Theme, error) {
	builtinOnce.Do(func() {
		sub, err := fs.Sub(builtinFS, "files/"+BuiltinStylesheet)
		if err != nil {
			builtinErr = err
			return
		}
		builtin, builtinErr = Load(sub, BuiltinStylesheet)
	})
	return builtin, builtinErr
}

// variationKeys are the top-level keys a style variation may hold.
var variationKeys = map[string]bool{"version": true, "title": true, "slug": true, "description": true, "settings": true, "styles": true,
	"customTemplates": true, "templateParts": true, "patterns": true}

// themeJSON is the part of theme.json the loader reads beyond settings and styles.
type themeJSON struct {
	Version       int            `json:"version"`
	Settings      map[string]any `json:"settings"`
	Styles        map[string]any `json:"styles"`
	TemplateParts []struct {
		Name  string `json:"name"`
		Title string `json:"title"`
		Area  string `json:"area"`
	} `json:"templateParts"`
	CustomTemplates []struct {
		Name      string   `json:"name"`
		Title     string   `json:"title"`
		PostTypes []string `json:"postTypes"`
	} `json:"customTemplates"`
}

// Load reads a theme directory (fsys is rooted at it) named stylesheet.
func Load(fsys fs.FS, stylesheet string) (*Theme, error) { return LoadURI(fsys, stylesheet, "") }

// LoadURI is Load for a theme whose files are public at themeURI (what its
// patterns' get_template_directory_uri() answers). A theme without
// style.css's Theme Name, with a theme.json that does not parse or without
// templates/index.html is refused; a broken style variation or pattern is
// left out with a warning.
func LoadURI(fsys fs.FS, stylesheet, themeURI string) (*Theme, error) {
	t := &Theme{Stylesheet: stylesheet, Files: fsys}
	css, err := fs.ReadFile(fsys, "style.css")
	if err != nil {
		return nil, fmt.Errorf("theme %s: %w", stylesheet, err)
	}
	h := headers(string(css))
	t.Name, t.ThemeURI, t.Author, t.AuthorURI = h["Theme Name"], h["Theme URI"], h["Author"], h["Author URI"]
	t.Description, t.Version, t.RequiresWP, t.RequiresPHP, t.TextDomain = h["Description"], h["Version"], h["Requires at least"], h["Requires PHP"], h["Text Domain"]
	for _, tag := range strings.Split(h["Tags"], ",") {
		if tag = strings.TrimSpace(tag); tag != "" {
			t.Tags = append(t.Tags, tag)
		}
	}
	if t.Name == "" {
		return nil, fmt.Errorf("theme %s: style.css has no Theme Name header", stylesheet)
	}

	var tj themeJSON
	raw, err := fs.ReadFile(fsys, "theme.json")
	if err != nil {
		return nil, fmt.Errorf("theme %s: %w", stylesheet, err)
	}
	if err := json.Unmarshal(raw, &tj); err != nil {
		return nil, fmt.Errorf("theme %s: theme.json: %w", stylesheet, err)
	}
	t.Settings, t.Styles = orEmpty(tj.Settings), orEmpty(tj.Styles)
	if tj.Version < 3 {
		migrateV2Settings(t.Settings)
	}

	variations, _ := fs.Glob(fsys, "styles/*.json")
	slices.Sort(variations)
	for _, name := range variations {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("theme %s: %w", stylesheet, err)
		}
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Warnings = append(t.Warnings, fmt.Sprintf("style variation %s left out: %v", name, err))
			continue
		}
		// Only theme.json's own top-level keys are served ("$schema" is
		// for editors); a variation without a title is named by its file.
		for k := range v {
			if !variationKeys[k] {
				delete(v, k)
			}
		}
		if s, _ := v["title"].(string); s == "" {
			v["title"] = strings.TrimSuffix(path.Base(name), ".json")
		}
		t.Variations = append(t.Variations, Variation{File: name, Data: v})
	}

	templates, err := readFiles(fsys, "templates")
	if err != nil {
		return nil, fmt.Errorf("theme %s: %w", stylesheet, err)
	}
	for _, f := range templates {
		if d, ok := DefaultTemplateTitle(f.Slug); ok {
			f.Title = d
		}
		for _, c := range tj.CustomTemplates {
			if c.Name == f.Slug {
				f.Title, f.PostTypes, f.Custom = c.Title, c.PostTypes, true
			}
		}
		if f.Title == "" {
			f.Title = f.Slug
		}
		t.Templates = append(t.Templates, f)
	}
	parts, err := readFiles(fsys, "parts")
	if err != nil {
		return nil, fmt.Errorf("theme %s: %w", stylesheet, err)
	}
	for _, f := range parts {
		f.Area, f.Title = AreaUncategorized, f.Slug
		for _, p := range tj.TemplateParts {
			if p.Name == f.Slug {
				f.Area, f.Title = NormalizeArea(p.Area), p.Title
			}
		}
		t.Parts = append(t.Parts, f)
	}
	if t.Patterns, t.Warnings, err = readPatterns(fsys, themeURI, t.Warnings); err != nil {
		return nil, fmt.Errorf("theme %s: %w", stylesheet, err)
	}
	if _, ok := t.Template("index"); !ok {
		return nil, fmt.Errorf("theme %s: a block theme needs templates/index.html", stylesheet)
	}
	return t, nil
}

// Template returns the theme's template file of slug.
func (t *Theme) Template(slug string) (File, bool) { return find(t.Templates, slug) }

// Part returns the theme's template part file of slug.
func (t *Theme) Part(slug string) (File, bool) { return find(t.Parts, slug) }

func find(files []File, slug string) (File, bool) {
	for _, f := range files {
		if f.Slug == slug {
			return f, true
		}
	}
	return File{}, false
}

// readFiles reads dir/*.html, sorted by name; the slug is the file name
// without ".html".
func readFiles(fsys fs.FS, dir string) ([]File, error) {
	names, err := fs.Glob(fsys, dir+"/*.html")
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var out []File
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		out = append(out, File{Slug: strings.TrimSuffix(path.Base(n), ".html"), Content: string(b)})
	}
	return out, nil
}

// headers reads "Key: value" lines of a style.css header comment.
func headers(css string) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(css))
	for sc.Scan() {
		line := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(sc.Text()), "/*"))
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.ContainsAny(k, "{};") {
			continue
		}
		if k = strings.TrimSpace(k); out[k] == "" {
			out[k] = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "*/"))
		}
	}
	return out
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// migrateV2Settings is WP_Theme_JSON_Schema::migrate_v2_to_v3 for a
// theme's settings: a theme.json of version 2 (Twenty Twenty-Three) was
// written before WordPress's own font sizes and spacing sizes could
// replace a theme's of the same slug, so a theme that has its own lists
// keeps them (defaultFontSizes, defaultSpacingSizes false).
func migrateV2Settings(settings map[string]any) {
	if typo, ok := settings["typography"].(map[string]any); ok && typo["fontSizes"] != nil {
		typo["defaultFontSizes"] = false
	}
	if sp, ok := settings["spacing"].(map[string]any); ok && (sp["spacingSizes"] != nil || sp["spacingScale"] != nil) {
		sp["defaultSpacingSizes"] = false
	}
}
