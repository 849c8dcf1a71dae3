package rest

import (
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Format checks and sanitisers of §3.2, re-implemented from WordPress's
// behaviour (rest_parse_hex_color, rest_parse_date, is_email,
// rest_is_ip_address, wp_is_uuid, sanitize_text_field, esc_url_raw).

func isHexColor(s string) bool {
	if len(s) != 4 && len(s) != 7 || s[0] != '#' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

var dateTimeRe = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-]\d{2}(?::\d{2})?)?$`)

// isDateTime is rest_parse_date's acceptance test: the RFC 3339 shape with an
// optional timezone, and a date strtotime can read.
func isDateTime(s string) bool {
	m := dateTimeRe.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	month, day, hour, minute, second := n(2), n(3), n(4), n(5), n(6)
	return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 24 && minute <= 59 && second <= 60
}

var (
	emailLocalRe = regexp.MustCompile(`^[a-zA-Z0-9!#$%&'*+/=?^_` + "`" + `{|}~.-]+$`)
	emailSubRe   = regexp.MustCompile(`^[a-z0-9-]+$`)
)

// isEmail is WordPress's is_email.
func isEmail(s string) bool {
	if len(s) < 6 {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at < 1 || strings.IndexByte(s, '@') != at {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if !emailLocalRe.MatchString(local) {
		return false
	}
	if strings.Contains(domain, "..") {
		return false
	}
	if strings.Trim(domain, " \t\n\r\x00\x0B.") != domain {
		return false
	}
	subs := strings.Split(domain, ".")
	if len(subs) < 2 {
		return false
	}
	for _, sub := range subs {
		if strings.Trim(sub, " \t\n\r\x00\x0B-") != sub {
			return false
		}
		if !emailSubRe.MatchString(strings.ToLower(sub)) {
			return false
		}
	}
	return true
}

var ipv4Re = regexp.MustCompile(`^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)$`)

func isIP(s string) bool {
	if ipv4Re.MatchString(s) {
		return true
	}
	if !strings.Contains(s, ":") || strings.Contains(s, "%") {
		return false
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6()
}

var uuidRe = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// IsUUID is wp_is_uuid: a lowercase RFC 4122 text form.
func IsUUID(s string) bool { return uuidRe.MatchString(s) }

var (
	tagRe       = regexp.MustCompile(`(?s)<[^>]*>?`)
	scriptRe    = regexp.MustCompile(`(?is)<(script|style)[^>]*?>.*?</(script|style)>`)
	blanksRe    = regexp.MustCompile(`[\r\n\t ]+`)
	tabsRe      = regexp.MustCompile(`[\t ]+`)
	octetRe     = regexp.MustCompile(`%[a-fA-F0-9]{2}`)
	spacesRe    = regexp.MustCompile(` +`)
	lessThanRe  = regexp.MustCompile(`<([^a-zA-Z/!?]|$)`)
	protocolsRe = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9+.-]*):`)
)

// sanitizeTextField is sanitize_text_field (keepNewlines: the textarea form).
func sanitizeTextField(s string, keepNewlines bool) string {
	if !utf8.ValidString(s) {
		return ""
	}
	if strings.Contains(s, "<") {
		// A lone "<" that does not open a tag survives as &lt;.
		s = lessThanRe.ReplaceAllString(s, "&lt;$1")
		s = scriptRe.ReplaceAllString(s, "")
		s = tagRe.ReplaceAllString(s, "")
	}
	if keepNewlines {
		s = tabsRe.ReplaceAllString(s, " ")
	} else {
		s = blanksRe.ReplaceAllString(s, " ")
	}
	s = strings.TrimSpace(s)
	found := false
	for octetRe.MatchString(s) {
		s = octetRe.ReplaceAllString(s, "")
		found = true
	}
	if found {
		s = strings.TrimSpace(spacesRe.ReplaceAllString(s, " "))
	}
	return s
}

var allowedProtocols = map[string]bool{
	"http": true, "https": true, "ftp": true, "ftps": true, "mailto": true, "news": true, "irc": true,
	"irc6": true, "ircs": true, "gopher": true, "nntp": true, "feed": true, "telnet": true, "mms": true,
	"rtsp": true, "sms": true, "svn": true, "tel": true, "fax": true, "xmpp": true, "webcal": true, "urn": true,
}

// sanitizeURL is esc_url_raw: blanks and control characters removed, spaces
// encoded, a scheme-less host prefixed with http://, disallowed schemes
// rejected.
func sanitizeURL(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(s, " ", "%20")
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			continue
		}
		b.WriteRune(r)
	}
	s = b.String()
	if m := protocolsRe.FindStringSubmatch(s); m != nil {
		if allowedProtocols[strings.ToLower(m[1])] {
			return s
		}
		return ""
	}
	if !strings.Contains(s, ":") && s[0] != '/' && s[0] != '#' && s[0] != '?' && !strings.HasSuffix(strings.SplitN(s, "?", 2)[0], ".php") {
		return "http://" + s
	}
	return s
}

// sanitizeKey is sanitize_key: lower-case, only [a-z0-9_-].
func sanitizeKey(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b = append(b, c)
		}
	}
	return string(b)
}
