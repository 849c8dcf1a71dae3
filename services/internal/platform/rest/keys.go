package rest

// SanitizeKey is WordPress's sanitize_key: ASCII letters lower-cased,
// then everything but [a-z0-9_-] dropped (PHP's strtolower is ASCII-only,
// so a non-ASCII letter is dropped, never folded). The REST handlers clean
// keys their fields hold (a menu item's object) with the same rule the
// route kit applies to sanitize_key arguments.
func SanitizeKey(s string) string { return sanitizeKey(s) }
