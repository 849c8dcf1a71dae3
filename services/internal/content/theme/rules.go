package theme

import (
	"net/url"
	"strings"
)

// Template part areas known to the editor; anything else is stored as
// uncategorized.
const (
	AreaUncategorized = "uncategorized"
	AreaHeader        = "header"
	AreaFooter        = "footer"
)

// NormalizeArea maps an unknown area to uncategorized.
func NormalizeArea(a string) string {
	switch a {
	case AreaHeader, AreaFooter, AreaUncategorized:
		return a
	}
	return AreaUncategorized
}

// defaultTitles are the template types of the template hierarchy with the
// names the editor shows for them. A template whose slug is one of these is
// not "custom" (it takes part in the hierarchy).
var defaultTitles = map[string]string{
	"index": "Index", "home": "Blog Home", "front-page": "Front Page", "singular": "Single Entries",
	"single": "Single Posts", "page": "Pages", "archive": "All Archives", "author": "Author Archives",
	"category": "Category Archives", "taxonomy": "Taxonomy", "date": "Date Archives", "tag": "Tag Archives",
	"attachment": "Attachment Pages", "search": "Search Results", "privacy-policy": "Privacy Policy",
	"404": "Page: 404",
}

// DefaultTemplateTitle returns the title of a hierarchy template type.
func DefaultTemplateTitle(slug string) (string, bool) {
	t, ok := defaultTitles[slug]
	return t, ok
}

// IsCustomSlug reports whether a template slug lies outside the template
// hierarchy's types (a template a user picks for a post).
func IsCustomSlug(slug string) bool {
	_, ok := defaultTitles[slug]
	return !ok
}

// ID is a template id: "<stylesheet>//<slug>".
func ID(stylesheet, slug string) string { return stylesheet + "//" + slug }

// SanitizeID url-decodes an id from a URL and doubles a single slash before
// the slug, so "siteplane/home" addresses "siteplane//home".
func SanitizeID(id string) string {
	if d, err := url.PathUnescape(id); err == nil {
		id = d
	}
	i := strings.LastIndex(id, "/")
	if i <= 0 || id[i-1] == '/' {
		return id
	}
	return id[:i] + "/" + id[i:]
}

// ParseID splits "<stylesheet>//<slug>"; ok is false without the double slash
// or with an empty part.
func ParseID(id string) (stylesheet, slug string, ok bool) {
	stylesheet, slug, ok = strings.Cut(id, "//")
	return stylesheet, slug, ok && stylesheet != "" && slug != ""
}

// postTypes and taxonomies are the names the hierarchy recognises inside
// "single-<type>-…" and "taxonomy-<tax>-…" slugs.
var (
	postTypes  = []string{"post", "page", "attachment", "wp_block", "wp_navigation"}
	taxonomies = []string{"category", "post_tag", "nav_menu", "cms_pattern_category"}
)

// Hierarchy is the list of template slugs tried, in order, to render what
// slug names: the slug itself, its more general forms, and "index" last.
// isCustom (a template picked for a post) falls back like a page;
// prefix ("single-post", "taxonomy-category", …) names the general form of
// an item-specific slug.
func Hierarchy(slug string, isCustom bool, prefix string) []string {
	if slug == "index" {
		return []string{"index"}
	}
	if isCustom {
		return []string{"page", "singular", "index"}
	}
	if slug == "front-page" {
		return []string{"front-page", "home", "index"}
	}
	out := []string{slug}
	add := func(s string) {
		for _, have := range out {
			if have == s {
				return
			}
		}
		out = append(out, s)
	}
	switch {
	case prefix != "":
		kind, _, _ := strings.Cut(prefix, "-")
		add(prefix)
		add(kind)
	case hasKindPrefix(slug, "author", "category", "archive", "tag", "page"):
		kind, _, _ := strings.Cut(slug, "-")
		add(kind)
	case hasKindPrefix(slug, "taxonomy", "single"):
		kind, rest, _ := strings.Cut(slug, "-")
		names := postTypes
		if kind == "taxonomy" {
			names = taxonomies
		}
		for _, n := range names {
			if rest == n {
				add(kind)
				break
			}
			if strings.HasPrefix(rest, n+"-") && len(rest) > len(n)+1 {
				add(kind + "-" + n)
				add(kind)
				break
			}
		}
	}
	for _, p := range []string{"author", "taxonomy", "category", "tag"} {
		if strings.HasPrefix(slug, p) {
			add("archive")
		}
	}
	if slug == "date" {
		add("archive")
	}
	if slug == "attachment" {
		add("single")
	}
	if strings.HasPrefix(slug, "single") || strings.HasPrefix(slug, "page") || slug == "attachment" {
		add("singular")
	}
	add("index")
	return out
}

// hasKindPrefix reports whether slug is "<kind>-<something>" for one of kinds.
func hasKindPrefix(slug string, kinds ...string) bool {
	for _, k := range kinds {
		if strings.HasPrefix(slug, k+"-") && len(slug) > len(k)+1 {
			return true
		}
	}
	return false
}

// Resolve is the one rule for which template (or template part) of a slug
// a site uses: the one stored in the site — the theme's file customised,
// or a template added — beats the theme's file. stored and file look the
// slug up; ok is false when neither has it. The REST templates routes and
// the website both choose through it.
func Resolve[T any](slug string, stored, file func(slug string) (T, bool)) (T, bool) {
	if t, ok := stored(slug); ok {
		return t, true
	}
	return file(slug)
}

// In looks slugs up in m, for Resolve.
func In[T any](m map[string]T) func(slug string) (T, bool) {
	return func(slug string) (T, bool) {
		t, ok := m[slug]
		return t, ok
	}
}
