package gateway

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"

	"siteplane.dev/services/internal/platform/rest"
)

// The opt-in wp/v2 alias (contract.Site.WPAlias, docs/api.md#the-wpv2-alias):
// unmodified WordPress clients call /wp-json/ and the wp/v2 namespace. Such a
// request is served by the same handlers as its /cms-json/ and cms/v2
// twin: the gateway rewrites the request to the seed's names, and the answer
// (body, Link and Location) back to the names the client used. Everything
// behind the gateway, the edge cache included, sees only the seed's names:
// the cache holds one canonical answer per URL and each client gets it in its
// own namespace (the translation runs on hits too), and a purge of a cms/v2
// URL drops what both namespaces read.

// AliasPrefix is WordPress's REST root, served when the alias is on.
const AliasPrefix = "/wp-json"

// aliasNamespaces pairs each WordPress namespace the alias serves with the
// seed's name for it: the core routes, and the block editor's helpers
// (url-details, navigation-fallback), so that an unmodified editor works.
var aliasNamespaces = []struct{ alias, site string }{
	{"wp/v2", "cms/v2"},
	{"wp-block-editor/v1", "cms-block-editor/v1"},
}

// aliasRoute maps a route of an aliased namespace to its twin; ok is false
// for a route of another namespace.
func aliasRoute(route string) (string, bool) {
	for _, ns := range aliasNamespaces {
		tail, ok := strings.CutPrefix(route, "/"+ns.alias)
		if ok && (tail == "" || tail[0] == '/') {
			return "/" + ns.site + tail, true
		}
	}
	return route, false
}

// aliasRequest rewrites r when it is addressed through the alias (the
// /wp-json/ root, or a rest_route in wp/v2); ok is false otherwise.
func aliasRequest(r *http.Request) (*http.Request, bool) {
	path := r.URL.Path
	query := rest.ParseQuery(r.URL.RawQuery)
	restRoute, hasRoute := query.Scalar("rest_route")
	out := r.Clone(r.Context())
	switch {
	case path == AliasPrefix || strings.HasPrefix(path, AliasPrefix+"/"):
		route := strings.TrimPrefix(path, AliasPrefix)
		if twin, ok := aliasRoute(route); ok {
			route = twin
		}
		out.URL.Path, out.URL.RawPath = RESTPrefix+route, ""
	case hasRoute && (path == "/" || path == "/index.php"):
		twin, ok := aliasRoute(restRoute)
		if !ok {
			return r, false
		}
		_, rawQuery := splitRESTRoute(r.URL.RawQuery)
		out.URL.RawQuery = "rest_route=" + twin
		if rawQuery != "" {
			out.URL.RawQuery += "&" + rawQuery
		}
	default:
		return r, false
	}
	if r.Method == http.MethodPost && out.URL.Path == RESTPrefix+"/batch/v1" && r.Body != nil {
		// Sub-request paths name routes too.
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBatchBody+1))
		r.Body.Close()
		if err == nil {
			body = aliasBatchPaths(body)
		}
		out.Body = io.NopCloser(bytes.NewReader(body))
		out.ContentLength = int64(len(body))
		out.Header.Set("Content-Length", strconv.Itoa(len(body)))
	}
	return out, true
}

// aliasBatchPaths rewrites the sub-request paths of a batch body ("path":
// "/wp/v2/...", in either JSON spelling of the slash).
func aliasBatchPaths(body []byte) []byte {
	for _, ns := range aliasNamespaces {
		for _, sep := range []string{"/", `\/`} {
			from := []byte(`"` + sep + strings.ReplaceAll(ns.alias, "/", sep))
			to := []byte(`"` + sep + strings.ReplaceAll(ns.site, "/", sep))
			body = bytes.ReplaceAll(body, from, to)
		}
	}
	return body
}

// aliasRewriter turns an answer's seed names into the alias's.
type aliasRewriter struct {
	body, header *strings.Replacer
}

func newAliasRewriter(siteURL string) *aliasRewriter {
	site := strings.TrimRight(siteURL, "/")
	esc := func(s string) string { return strings.ReplaceAll(s, "/", `\/`) }
	same := func(s string) string { return s }
	var body, header []string
	pairs := func(e func(string) string) []string {
		var out []string
		for _, ns := range aliasNamespaces {
			out = append(out, e(site+RESTPrefix+"/"+ns.site), e(site+AliasPrefix+"/"+ns.alias))
		}
		out = append(out, e(site+RESTPrefix), e(site+AliasPrefix))
		for _, ns := range aliasNamespaces {
			out = append(out, e("rest_route=/"+ns.site), e("rest_route=/"+ns.alias))
		}
		return out
	}
	body = append(pairs(esc), pairs(same)...)
	header = pairs(same)
	for _, ns := range aliasNamespaces {
		body = append(body,
			"rest_route=%2F"+strings.ReplaceAll(ns.site, "/", "%2F"), "rest_route=%2F"+strings.ReplaceAll(ns.alias, "/", "%2F"),
			// a namespace, a route key or a route value
			`"`+esc(ns.site)+`"`, `"`+esc(ns.alias)+`"`,
			`"`+ns.site+`"`, `"`+ns.alias+`"`,
			`"`+esc("/"+ns.site), `"`+esc("/"+ns.alias),
			`"/`+ns.site, `"/`+ns.alias,
		)
	}
	return &aliasRewriter{body: strings.NewReplacer(body...), header: strings.NewReplacer(header...)}
}

// aliasWriter holds the answer so that its body and headers can be
// rewritten (a REST answer is a bounded JSON document).
type aliasWriter struct {
	http.ResponseWriter
	rw     *aliasRewriter
	head   bool
	status int
	buf    bytes.Buffer
}

func (a *aliasWriter) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
	}
}

func (a *aliasWriter) Write(b []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	return a.buf.Write(b)
}

// finish writes the rewritten answer.
func (a *aliasWriter) finish() {
	h := a.ResponseWriter.Header()
	for _, k := range []string{"Link", "Location"} {
		// New slices: a cache hit's header values are the stored entry's,
		// which must stay in the seed's names for the next client.
		var vals []string
		for _, v := range h.Values(k) {
			vals = append(vals, a.rw.header.Replace(v))
		}
		if vals != nil {
			h[http.CanonicalHeaderKey(k)] = vals
		}
	}
	body := a.rw.body.Replace(a.buf.String())
	if a.head {
		// The twin's length is not this answer's.
		h.Del("Content-Length")
	} else if h.Get("Content-Length") != "" {
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	if a.status == 0 {
		a.status = http.StatusOK
	}
	a.ResponseWriter.WriteHeader(a.status)
	_, _ = io.WriteString(a.ResponseWriter, body)
}

// serveAlias serves an alias request through the gateway and rewrites its
// answer.
func (g *Gateway) serveAlias(w http.ResponseWriter, r *http.Request) {
	aw := &aliasWriter{ResponseWriter: w, rw: g.alias, head: r.Method == http.MethodHead}
	g.serve(aw, r)
	aw.finish()
}
