package store

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// maxSlugLength is the size of WordPress's post_name column.
const maxSlugLength = 200

// SanitizeTitle is sanitize_title (sanitize_title_with_dashes): tags and
// accents removed, lower case, whitespace and dots become dashes, other
// punctuation is dropped, dashes collapsed and trimmed.
func SanitizeTitle(s string) string {
	s = StripTags(s, "")
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			// combining accent: dropped, keeping the base letter
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsSpace(r), r == '.', r == '/', r == '–', r == '—':
			b.WriteByte('-')
		case r == 'ß':
			b.WriteString("ss")
		case r == 'æ' || r == 'Æ':
			b.WriteString("ae")
		case r == 'ø' || r == 'Ø':
			b.WriteByte('o')
		}
	}
	out := b.String()
	for strings.Contains(out, "--") {
		out = strings.ReplaceAll(out, "--", "-")
	}
	return strings.Trim(out, "-")
}

// ReservedSlug reports slugs WordPress never hands out for a post type
// (feed names and embed; for hierarchical types also page<N> and numbers).
func ReservedSlug(slug string, hierarchical bool) bool {
	switch slug {
	case "feed", "rdf", "rss", "rss2", "atom", "embed":
		return true
	}
	if hierarchical {
		rest := strings.TrimPrefix(slug, "page")
		if rest != "" && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// SlugCandidate returns base with the suffix -n (n ≥ 2), keeping the
// whole within maxSlugLength.
func SlugCandidate(base string, n int) string {
	if n < 2 {
		return truncateSlug(base, maxSlugLength)
	}
	suffix := "-" + Itoa(int64(n))
	return truncateSlug(base, maxSlugLength-len(suffix)) + suffix
}

func truncateSlug(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	// never cut inside a UTF-8 sequence
	for len(s) > 0 && !utf8Start(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return strings.TrimRight(s, "-")
}

func utf8Start(b byte) bool { return b < 0x80 || b >= 0xC0 }
