package edgecache

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"siteplane.dev/services/internal/platform/rest"
)

// VaryHeaders are the request headers that may change an anonymous answer
// and so are part of the key: Origin (CORS headers), and content
// negotiation. An answer whose Vary names any other header is not stored.
var VaryHeaders = []string{"Origin", "Accept", "Accept-Encoding", "Accept-Language"}

// Key is the cache key of a request: method, path (the REST route, or the
// URL path of a public file, with kind telling them apart), the query in
// one spelling of what its reader reads (for REST routes the route kit's
// rest.Query.Canonical, for files and pages NormalizeQuery), and the values
// of VaryHeaders.
func Key(method, kind, path, query string, h http.Header) string {
	var b strings.Builder
	b.WriteString(method)
	b.WriteByte(' ')
	b.WriteString(kind)
	b.WriteString(path)
	b.WriteByte('?')
	b.WriteString(query)
	for _, name := range VaryHeaders {
		b.WriteByte(0)
		b.WriteString(strings.Join(h.Values(name), ","))
	}
	return b.String()
}

// RESTQuery is the spelling in keys of a REST request's query: what the
// route kit reads from it (rest.Query.Canonical), so two queries share an
// entry exactly when the service reads them alike ("?per_page=1&per.page=3"
// is per_page=3 and "?per.page=3&per_page=1" is per_page=1: PHP reads "."
// in a name as "_", and the last of two equal names wins). A query the kit
// reads only in part (over its limits) matches only itself.
func RESTQuery(raw string) string {
	q := rest.ParseQuery(raw)
	if q.Err() != nil {
		return "raw:" + raw
	}
	return q.Canonical()
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
	_, after, _ := strings.Cut(key, " ")
	p, _, _ := strings.Cut(after, "?")
	return p
}

// Cacheable reports whether a request may be answered from the cache or
// fill it: an anonymous GET or HEAD. Any credential (Authorization, a
// cookie, a nonce) and any method override the route kit honours make it a
// bypass. q is the query as the kit reads it (rest.ParseQuery), so
// "+_method" or "_wpnonce[]" are seen as the service will see them.
func Cacheable(r *http.Request, q rest.Query) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	for _, h := range []string{"Authorization", "Cookie", "X-WP-Nonce"} {
		if r.Header.Get(h) != "" {
			return false
		}
	}
	return q.MethodOverride(r.Header) == "" && !q.Has("_method") && !q.Has("_wpnonce")
}

// Safe reports whether a request cannot write: GET, HEAD or OPTIONS that
// the route kit runs as such (no _method in any spelling it reads, no
// X-HTTP-Method-Override). Every other request bumps the generation when
// answered.
func Safe(r *http.Request, q rest.Query) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return r.Header.Get("X-HTTP-Method-Override") == "" && !q.Has("_method")
	}
	return false
}

// Storable reports whether an answer may be stored: a 200 without
// Set-Cookie, not marked no-store, no-cache or private (in any form:
// `private="Set-Cookie"` is private too), varying only on VaryHeaders.
func Storable(status int, h http.Header) bool {
	if status != http.StatusOK || len(h.Values("Set-Cookie")) > 0 {
		return false
	}
	for _, cc := range h.Values("Cache-Control") {
		for d := range strings.SplitSeq(cc, ",") {
			// A directive's name is what comes before its argument.
			name, _, _ := strings.Cut(d, "=")
			switch strings.ToLower(strings.TrimSpace(name)) {
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
