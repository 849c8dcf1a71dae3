package theme

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Pattern is one block pattern of the theme: patterns/<file>.php, its
// header comment (WordPress's get_block_patterns headers) and the markup
// after it. Siteplane runs no PHP: the body is taken as it is written, so a
// theme's patterns hold static markup.
type Pattern struct {
	Slug          string // "siteplane/call-to-action"
	Title         string
	Description   string
	ViewportWidth int   // 0: not set
	Inserter      *bool // nil: not set
	Categories    []string
	Keywords      []string
	BlockTypes    []string
	PostTypes     []string
	TemplateTypes []string
	Content       string
}

// readPatterns loads patterns/*.php in file-name order, as WordPress
// registers a theme's patterns. A file without a Slug or Title header is
// skipped, as WordPress skips it; one whose PHP is more than the static
// subset (php.go) is skipped with a warning appended to warn.
func readPatterns(fsys fs.FS, themeURI string, warn []string) ([]Pattern, []string, error) {
	files, err := fs.Glob(fsys, "patterns/*.php")
	if err != nil {
		return nil, warn, fmt.Errorf("patterns: %w", err)
	}
	slices.SortFunc(files, func(a, b string) int { return strings.Compare(path.Base(a), path.Base(b)) })
	var out []Pattern
	for _, name := range files {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, warn, fmt.Errorf("patterns: %w", err)
		}
		p, ok := parsePattern(string(b))
		if !ok {
			continue
		}
		if p.Content, err = renderPHP(p.Content, themeURI); err != nil {
			warn = append(warn, fmt.Sprintf("pattern %s (%s) left out: %v", p.Slug, name, err))
			continue
		}
		out = append(out, p)
	}
	return out, warn, nil
}

// parsePattern reads the header comment (up to "?>") and the body after it.
func parsePattern(src string) (Pattern, bool) {
	head, body, found := strings.Cut(src, "?>")
	if !found {
		head, body = src, ""
	}
	h := headers(head)
	p := Pattern{Slug: h["Slug"], Title: h["Title"], Description: h["Description"], Content: strings.TrimPrefix(body, "\n"), // PHP drops the newline right after ?>
		Categories: commaList(h["Categories"]), Keywords: commaList(h["Keywords"]), BlockTypes: commaList(h["Block Types"]),
		PostTypes: commaList(h["Post Types"]), TemplateTypes: commaList(h["Template Types"])}
	if p.Slug == "" || p.Title == "" {
		return Pattern{}, false
	}
	if w, err := strconv.Atoi(h["Viewport Width"]); err == nil {
		p.ViewportWidth = w
	}
	if v, ok := h["Inserter"]; ok && v != "" {
		in := strings.EqualFold(v, "yes") || strings.EqualFold(v, "true")
		p.Inserter = &in
	}
	return p, true
}

// commaList splits a comma-separated header, dropping empty entries.
func commaList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// Pattern returns the theme's pattern of slug.
func (t *Theme) Pattern(slug string) (Pattern, bool) {
	for _, p := range t.Patterns {
		if p.Slug == slug {
			return p, true
		}
	}
	return Pattern{}, false
}
