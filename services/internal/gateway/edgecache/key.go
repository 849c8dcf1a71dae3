package edgecache

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// VaryHeaders are the request headers that may change an anonymous answer
// and so are part of the key: Origin (CORS headers), and content
// negotiation. An answer whose Vary names any other header is not stored.
var VaryHeaders = []string{"Origin", "Accept", "Accept-Encoding", "Accept-Language"}

// Key is the cache key of a request: method, path (the REST route, or the
// URL path of a public file, with kind telling them apart), the query with
// its pairs decoded, re-encoded and ordered by name (the values of one name
// keep their order: "a[]=1&a[]=2" is not "a[]=2&a[]=1"), and the values of
// VaryHeaders.
func Key(method, kind, path, rawQuery string, h http.Header) string {
	var b strings.Builder
	b.WriteString(method)
	b.WriteByte(' ')
	b.WriteString(kind)
	b.WriteString(path)
	b.WriteByte('?')
	b.WriteString(NormalizeQuery(rawQuery))
	for _, name := range VaryHeaders {
		b.WriteByte(0)
		b.WriteString(strings.Join(h.Values(name), ","))
	}
	return b.String()
}

// NormalizeQuery orders a query's pairs by name and spells them one way.
// A query that does not parse is kept as it is: it then only matches
// itself, which is still correct.
func NormalizeQuery(raw string) string {
	if raw == "" {
		return ""
	}
	type pair struct{ k, v string }
	var pairs []pair
	for part := range strings.SplitSeq(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		dk, err1 := url.QueryUnescape(k)
		dv, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil {
			return raw
		}
		pairs = append(pairs, pair{dk, dv})
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return strings.Compare(a.k, b.k) })
	parts := make([]string, len(pairs))
	for i, p := range pairs {
		parts[i] = url.QueryEscape(p.k) + "=" + url.QueryEscape(p.v)
	}
	return strings.Join(parts, "&")
}

// pathOfKey is the kind+path part of a key.
func pathOfKey(key string) string {
	_, rest, _ := strings.Cut(key, " ")
	p, _, _ := strings.Cut(rest, "?")
	return p
}

// Cacheable reports whether a request may be answered from the cache or
// fill it: an anonymous GET or HEAD. Any credential (Authorization, a
// cookie, a nonce) and any method override make it a bypass.
func Cacheable(r *http.Request, query url.Values) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	for _, h := range []string{"Authorization", "Cookie", "X-WP-Nonce", "X-HTTP-Method-Override"} {
		if r.Header.Get(h) != "" {
			return false
		}
	}
	return !query.Has("_method") && !query.Has("_wpnonce")
}

// Safe reports whether a request cannot write: GET, HEAD or OPTIONS with no
// method override. Every other request bumps the generation when answered.
func Safe(r *http.Request, query url.Values) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return r.Header.Get("X-HTTP-Method-Override") == "" && !query.Has("_method")
	}
	return false
}

// Storable reports whether an answer may be stored: a 200 without
// Set-Cookie, not marked no-store or private, varying only on VaryHeaders.
func Storable(status int, h http.Header) bool {
	if status != http.StatusOK || len(h.Values("Set-Cookie")) > 0 {
		return false
	}
	for _, cc := range h.Values("Cache-Control") {
		for d := range strings.SplitSeq(cc, ",") {
			switch strings.ToLower(strings.TrimSpace(d)) {
			case "no-store", "private", "no-cache":
				return false
			}
		}
	}
	for _, v := range h.Values("Vary") {
		for name := range strings.SplitSeq(v, ",") {
			name = strings.TrimSpace(name)
			if name != "" && !slices.ContainsFunc(VaryHeaders, func(k string) bool { return strings.EqualFold(k, name) }) {
				return false
			}
		}
	}
	return true
}
