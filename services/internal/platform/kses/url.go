package kses

import "strings"

// protocols is allowed.json's URL protocols (wp_allowed_protocols), kept
// apart from the sanitiser's policies so that code writing a URL into an
// attribute itself (the block renderer) checks the same list.
var protocols = protocolSet(rules.Protocols)

func protocolSet(list []string) map[string]bool {
	out := make(map[string]bool, len(list))
	for _, p := range list {
		out[p] = true
	}
	return out
}

// URL is the protocol check of WordPress's esc_url for a URL about to be
// written into an attribute: a URL whose scheme is not an allowed protocol
// (javascript:, data:, vbscript:...) becomes "", anything else, relative
// URLs included, is returned as it is (the caller escapes it for HTML).
// The scheme is read as a browser reads it: leading blanks and control
// characters, and tabs and newlines anywhere, do not count, so
// " java\tscript:" is javascript:.
func URL(u string) string {
	scheme, ok := schemeOf(u)
	if !ok || (scheme != "" && !protocols[scheme]) {
		return ""
	}
	return u
}

// schemeOf returns the lower-cased scheme of u as a browser parses it, ""
// for a relative URL; ok is false when what precedes the first colon is
// not a valid scheme yet not a relative path either (no URL parser
// would treat it as relative, so it is refused). A plain URL costs no
// allocation: pages write dozens of them.
func schemeOf(u string) (scheme string, ok bool) {
	if strings.ContainsAny(u, "\t\n\r") {
		// browsers strip these anywhere in a URL
		u = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(u)
	}
	// and leading blanks and control characters
	u = strings.TrimLeftFunc(u, func(r rune) bool { return r <= ' ' || r == 0x7f })
	i := strings.IndexAny(u, ":/?#")
	if i < 0 || u[i] != ':' {
		return "", true
	}
	if !validScheme(u[:i]) {
		return "", false
	}
	return strings.ToLower(u[:i]), true
}

// validScheme is RFC 3986's scheme: a letter, then letters, digits, "+",
// "-" and ".".
func validScheme(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		switch {
		case c >= 'a' && c <= 'z':
		case i > 0 && (s[i] >= '0' && s[i] <= '9' || s[i] == '+' || s[i] == '-' || s[i] == '.'):
		default:
			return false
		}
	}
	return true
}
