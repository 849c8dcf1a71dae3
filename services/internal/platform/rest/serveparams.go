package rest

import "strings"

// serveParams are the query parameters WordPress's serve_request reads to
// choose the route, the method or the shape of the answer. A batch or an
// embedded sub-request never honours them; a service reached over HTTP
// would, so they must not travel with one.
var serveParams = map[string]bool{
	"_method": true, "rest_route": true, "_envelope": true, "_jsonp": true, "_pretty": true,
}

// WithoutServeParams drops from a raw query string every pair whose name
// PHP would read as one of serveParams, in every spelling PHP accepts:
// percent-encoded ("%5Fmethod"), with leading blanks ("+_method",
// "%20_method"), with '.' or ' ' for '_' ("rest.route", "rest+route"), an
// unterminated '[' for '_' ("rest[route"), or as an array ("_method[]").
// The other pairs are kept as they are, in their order. It is linear in
// the query's length.
func WithoutServeParams(raw string) string {
	if raw == "" {
		return raw
	}
	var b strings.Builder
	rest := raw
	kept := 0
	var buf [8]string
	for rest != "" {
		var pair string
		pair, rest, _ = strings.Cut(rest, "&")
		k, _, _ := strings.Cut(pair, "=")
		base, _, _ := parseKey(phpURLDecode(k), buf[:])
		if serveParams[base] {
			continue
		}
		if kept > 0 {
			b.WriteByte('&')
		}
		b.WriteString(pair)
		kept++
	}
	return b.String()
}
