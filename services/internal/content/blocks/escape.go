package blocks

// Escaping for each context the renderer writes block attributes into.
// Block attributes are data an author typed (or a client sent), never
// markup: every one is escaped, or reduced to what its context allows,
// before it reaches the page, whatever kses let through when the post was
// stored (see docs/security.md, "Block output").

import (
	"html"
	"strings"

	"siteplane.dev/services/internal/platform/kses"
)

// esc escapes text and double-quoted attribute values (esc_html, esc_attr).
var esc = html.EscapeString

// escURL is esc_url for an href, src or action: a URL whose protocol is
// not one of WordPress's allowed protocols (javascript:, data:...) becomes
// "", any other is escaped for the attribute.
func escURL(u string) string { return esc(kses.URL(u)) }

// sanitizeClass is sanitize_html_class: percent-encoded octets removed,
// then every character but A-Z, a-z, 0-9, "_" and "-", so a value that
// becomes (part of) a class name cannot end the attribute or add a class.
func sanitizeClass(s string) string {
	if cleanClass(s) {
		return s // the usual slug, returned without a copy
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			i += 2
			continue
		}
		if classByte(c) {
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

func cleanClass(s string) bool {
	for i := 0; i < len(s); i++ {
		if !classByte(s[i]) {
			return false
		}
	}
	return true
}

func classByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// classNames sanitizes a space-separated list of classes (className) one
// class at a time.
func classNames(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		clean = classByte(s[i]) || s[i] == ' ' && i > 0 && i < len(s)-1 && s[i-1] != ' '
	}
	if clean {
		return s
	}
	var out []string
	for _, c := range strings.Fields(s) {
		if c = sanitizeClass(c); c != "" {
			out = append(out, c)
		}
	}
	return strings.Join(out, " ")
}

// cssFunctions are the CSS functions a value in an inline style may call
// (safecss_filter_attr allows these; url() and expression() are not).
var cssFunctions = map[string]bool{"": true /* a bare parenthesis */, "var": true, "calc": true, "min": true, "max": true, "clamp": true, "minmax": true}

// safeCSS is the value check of safecss_filter_attr for one declaration's
// value: "" (the declaration is dropped) when it could end the
// declaration or the attribute (; " ' < > { }), hide something from the
// check (\ escapes, /* comments, control characters, &, =, @) or call a
// function other than cssFunctions (url(javascript:…), expression(…)).
func safeCSS(v string) string {
	if strings.ContainsAny(v, "\";'<>{}\\&=@\x7f") || strings.Contains(v, "/*") {
		return ""
	}
	for i := 0; i < len(v); i++ {
		if v[i] < ' ' {
			return ""
		}
		if v[i] == '(' && !cssFunctions[strings.ToLower(identBefore(v, i))] {
			return ""
		}
	}
	return v
}

// identBefore returns the CSS identifier that ends at v[i].
func identBefore(v string, i int) string {
	j := i
	for j > 0 && classByte(v[j-1]) {
		j--
	}
	return v[j:i]
}
