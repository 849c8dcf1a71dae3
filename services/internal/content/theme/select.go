package theme

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrNoThemesDir is Select's answer for a supplied theme when no themes
// directory is configured.
var ErrNoThemesDir = errors.New("no themes directory is configured (SITEPLANE_THEMES_DIR)")

// Select returns the site's theme: the built-in one when stylesheet is
// empty or names it, else the directory themesDir/stylesheet, as WordPress
// finds a theme under wp-content/themes. siteURL makes the theme's public
// URI ({site}/cms-content/themes/{stylesheet}). The caller decides what a
// refused theme means (the content service serves the built-in one and
// says why).
func Select(themesDir, stylesheet, siteURL string) (*Theme, error) {
	if stylesheet == "" || stylesheet == BuiltinStylesheet {
		return Builtin()
	}
	if !ValidStylesheet(stylesheet) {
		return nil, fmt.Errorf("theme %q: not a theme directory name", stylesheet)
	}
	if themesDir == "" {
		return nil, fmt.Errorf("theme %s: %w", stylesheet, ErrNoThemesDir)
	}
	dir := filepath.Join(themesDir, stylesheet)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("theme %s: no directory %s", stylesheet, dir)
	}
	return LoadURI(os.DirFS(dir), stylesheet, URI(siteURL, stylesheet))
}

// URI is where a theme's files are public: WordPress's
// get_template_directory_uri() under the site's cms-content.
func URI(siteURL, stylesheet string) string {
	return strings.TrimSuffix(siteURL, "/") + "/cms-content/themes/" + stylesheet
}

// ValidStylesheet reports whether s can name a theme directory: one path
// segment of letters, digits, "-", "_" and ".", not starting with a dot.
func ValidStylesheet(s string) bool {
	if s == "" || len(s) > 100 || s[0] == '.' {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
