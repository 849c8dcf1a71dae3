package website

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"siteplane.dev/services/internal/content/theme"
	"siteplane.dev/services/pkg/contract"
)

// A supplied theme's files beside its templates — fonts, images, its
// style.css — are public at {site}/cms-content/themes/{stylesheet}/…, as
// WordPress serves wp-content/themes. The gateway routes that prefix to
// the content service (contract.ThemesPath), which answers from the theme
// directory it loaded: static asset types only, never a .php or a
// directory listing.

// assetTypes are the file types served, by extension.
var assetTypes = map[string]string{
	".woff2": "font/woff2", ".woff": "font/woff", ".ttf": "font/ttf", ".otf": "font/otf",
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".avif": "image/avif", ".svg": "image/svg+xml", ".ico": "image/x-icon",
	".css": "text/css; charset=utf-8",
}

// ThemeAssets serves the site theme's static files under
// contract.ThemesPath.
func (s *Handler) ThemeAssets() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		th, _, _, err := s.theme()
		rest, ok := strings.CutPrefix(r.URL.Path, contract.ThemesPath+"/")
		var name string
		if ok && err == nil {
			var stylesheet string
			stylesheet, name, ok = strings.Cut(rest, "/")
			ok = ok && stylesheet == th.Stylesheet && th.Files != nil && fs.ValidPath(name)
		}
		ctype := assetTypes[strings.ToLower(path.Ext(name))]
		if !ok || ctype == "" || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			http.NotFound(w, r)
			return
		}
		if st, err := fs.Stat(th.Files, name); err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		// an SVG opened on its own must run nothing
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
		w.Header().Set("Cache-Control", "public, max-age=86400")
		http.ServeFileFS(w, r, th.Files, name)
	})
}

// fontFace is one settings.typography.fontFamilies[].fontFace entry.
type fontFace struct {
	FontFamily   string `json:"fontFamily"`
	FontStyle    string `json:"fontStyle"`
	FontWeight   any    `json:"fontWeight"`
	FontStretch  string `json:"fontStretch"`
	FontDisplay  string `json:"fontDisplay"`
	UnicodeRange string `json:"unicodeRange"`
	Src          any    `json:"src"`
}

// fontFaceCSS is WordPress's wp_print_font_faces for the theme's fonts:
// an @font-face rule per face of settings.typography.fontFamilies, "file:./"
// sources resolved against the theme's public URI.
//
// userSettings are the user's global styles settings: the site editor's
// font library activates an installed font by writing it to
// typography.fontFamilies.custom there (an object by origin), and
// WordPress prints those faces too (WP_Font_Face_Resolver reads the merged
// settings).
func fontFaceCSS(th *theme.Theme, userSettings map[string]any, siteURL string) string {
	typo, _ := th.Settings["typography"].(map[string]any)
	fams, _ := typo["fontFamilies"].([]any)
	userTypo, _ := userSettings["typography"].(map[string]any)
	switch uf := userTypo["fontFamilies"].(type) {
	case []any:
		fams = append(fams[:len(fams):len(fams)], uf...)
	case map[string]any:
		custom, _ := uf["custom"].([]any)
		fams = append(fams[:len(fams):len(fams)], custom...)
	}
	var sb strings.Builder
	for _, f := range fams {
		fm, _ := f.(map[string]any)
		faces, _ := fm["fontFace"].([]any)
		for _, raw := range faces {
			b, err := json.Marshal(raw)
			var ff fontFace
			if err != nil || json.Unmarshal(b, &ff) != nil || ff.FontFamily == "" {
				continue
			}
			writeFontFace(&sb, ff, theme.URI(siteURL, th.Stylesheet))
		}
	}
	return sb.String()
}

func writeFontFace(sb *strings.Builder, ff fontFace, base string) {
	var srcs []string
	switch v := ff.Src.(type) {
	case string:
		srcs = []string{v}
	case []any:
		for _, s := range v {
			if s, ok := s.(string); ok {
				srcs = append(srcs, s)
			}
		}
	}
	var urls []string
	for _, s := range srcs {
		if rel, ok := strings.CutPrefix(s, "file:./"); ok {
			s = base + "/" + rel
		}
		u := "url('" + cssString(s) + "')"
		if f := fontFormat(s); f != "" {
			u += " format('" + f + "')"
		}
		urls = append(urls, u)
	}
	if len(urls) == 0 {
		return
	}
	display := ff.FontDisplay
	if display == "" {
		display = "fallback"
	}
	sb.WriteString(`@font-face{font-family:"` + cssString(strings.Trim(ff.FontFamily, `"'`)) + `";`)
	decl(sb, "font-style", ff.FontStyle)
	if w, ok := ff.FontWeight.(string); ok {
		decl(sb, "font-weight", w)
	} else if w, ok := ff.FontWeight.(float64); ok {
		decl(sb, "font-weight", strings.TrimSuffix(strings.TrimSuffix(jsonNumber(w), ".0"), "."))
	}
	decl(sb, "font-display", display)
	sb.WriteString("src:" + strings.Join(urls, ", ") + ";")
	decl(sb, "font-stretch", ff.FontStretch)
	decl(sb, "unicode-range", ff.UnicodeRange)
	sb.WriteString("}\n")
}

func decl(sb *strings.Builder, prop, v string) {
	if v = cssString(v); v != "" {
		sb.WriteString(prop + ":" + v + ";")
	}
}

func jsonNumber(f float64) string { b, _ := json.Marshal(f); return string(b) }

// cssString keeps a value from leaving its declaration or string.
func cssString(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\'', '"', '\\', ';', '{', '}', '<', '>', '\n', '\r':
			return -1
		}
		return r
	}, s)
}

func fontFormat(src string) string {
	switch strings.ToLower(path.Ext(src)) {
	case ".woff2":
		return "woff2"
	case ".woff":
		return "woff"
	case ".ttf":
		return "truetype"
	case ".otf":
		return "opentype"
	}
	return ""
}
