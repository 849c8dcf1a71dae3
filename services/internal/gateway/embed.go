package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"siteplane.dev/services/internal/gateway/edgecache"
	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/rest"
)

// _embed (reference §1.7): the gateway resolves the embeddable links of a
// service's response, because the linked resources often live in another
// service (a post's author is a gateway user, its featured media a media
// attachment). Each distinct href is fetched once per response, with
// context=embed unless the link carries a context, as the caller, through
// the same routing as a client request; errors are embedded as error bodies.

// fieldsAllowEmbedded reports whether _fields (when present) keeps
// "_embedded": WordPress drops it, and so skips the embedding work, when a
// _fields list does not name it.
func fieldsAllowEmbedded(q url.Values) bool {
	if !q.Has("_fields") {
		return true
	}
	for _, f := range strings.FieldsFunc(strings.Join(q["_fields"], ","), func(r rune) bool { return r == ',' || r == ' ' }) {
		if f == "_embedded" || strings.HasPrefix(f, "_embedded.") {
			return true
		}
	}
	return false
}

type member struct {
	key string
	raw json.RawMessage
}

// objectMembers splits a JSON object, valid JSON, into its members, in
// order, each value as its bytes (what json.Decoder's RawMessage would
// hold). It scans the bytes instead of decoding them (splitMembers): with
// json.Decoder the splitting of a page of 100 posts and their links was
// half of the gateway's CPU on an _embed answer.
func objectMembers(raw []byte) ([]member, bool) {
	return splitMembers(raw)
}

type embedder struct {
	g     *Gateway
	ctx   context.Context
	table *routing.Table
	rels  []string
	cache map[string]json.RawMessage
	// indexes are the services' route descriptions, read on the first
	// embedded collection and kept for the rest of the response: a list of
	// posts has a distinct wp:term href per item.
	indexes map[string]*serviceIndex
	// routes are the linked routes' owners and per_page maximums
	// (routeInfo), for the rest of the response
	routes map[string]embedRoute
	// fetched counts the distinct links resolved, up to maxEmbedded.
	fetched int
	// edge is the edge cache when the caller is anonymous (embedded
	// resources are then public answers), with its generation read before
	// anything was fetched; nil otherwise.
	edge *edgecache.Cache
	gen  uint64
	// bufs holds the answer's pooled buffers (embedpool.go); nil: none
	bufs *embedBuffers
}

// embedBody adds "_embedded" to an object body or to every object of a
// list body; anything else is returned unchanged.
func (g *Gateway) embedBody(ctx context.Context, body []byte, rels []string) []byte {
	return g.embedBodyInto(ctx, body, rels, nil)
}

// embedBodyInto is embedBody with its buffers taken from bufs.
func (g *Gateway) embedBodyInto(ctx context.Context, body []byte, rels []string, bufs *embedBuffers) []byte {
	e := g.newEmbedder(ctx, rels)
	e.bufs = bufs
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return body
	}
	switch trimmed[0] {
	case '{':
		if !json.Valid(trimmed) {
			return trimmed
		}
		links := e.prefetch([]json.RawMessage{trimmed})
		return e.object(trimmed, links[0])
	case '[':
		items, ok := splitPage(trimmed)
		if !ok {
			return body
		}
		links := e.prefetchPage(items)
		out := bytes.NewBuffer(bufs.get(2 * len(trimmed))[:0])
		out.WriteByte('[')
		for i, it := range items {
			if i > 0 {
				out.WriteByte(',')
			}
			e.writeObject(out, it.raw, links[i])
		}
		out.WriteByte(']')
		return out.Bytes()
	}
	return body
}

// object is raw with its links (linksOf, read once by prefetch) embedded.
func (e *embedder) object(raw []byte, links objectLinks) []byte {
	var out bytes.Buffer
	e.writeObject(&out, raw, links)
	return out.Bytes()
}

// writeObject writes raw with its links embedded to out: straight into the
// answer, so that a page's items are not each built apart and copied (an
// allocation per item, a growing buffer per item's embeds).
func (e *embedder) writeObject(out *bytes.Buffer, raw []byte, links objectLinks) {
	relLinks, ok := links.rels, links.ok
	if !ok {
		out.Write(raw)
		return
	}
	start := out.Len()
	out.Write(raw[:len(raw)-1])
	count := 0
	for _, rl := range relLinks {
		list := rl.links
		entries := make([]json.RawMessage, len(list))
		found := false
		for i, l := range list {
			entries[i] = json.RawMessage(`[]`)
			if !l.Embeddable {
				continue
			}
			if body := e.fetch(l.Href); body != nil {
				entries[i] = body
				found = found || !phpEmpty(body)
			}
		}
		// WordPress drops a relation whose embeds are all empty (PHP's
		// array_filter): an empty collection counts as nothing.
		if !found {
			continue
		}
		if count == 0 {
			out.WriteString(`,"_embedded":{`)
		} else {
			out.WriteByte(',')
		}
		count++
		writeKey(out, rl.rel)
		out.WriteByte(':')
		// Written by hand: json.Marshal would re-escape the bodies' HTML
		// characters, changing the service's bytes.
		out.WriteByte('[')
		for i, en := range entries {
			if i > 0 {
				out.WriteByte(',')
			}
			out.Write(bytes.TrimSpace(en))
		}
		out.WriteByte(']')
	}
	if count == 0 {
		out.Truncate(start)
		out.Write(raw)
		return
	}
	out.WriteString("}}")
}

// writeKey writes k as json.Marshal quotes it: as it is when it holds
// nothing Marshal escapes (a relation's name: "author", "wp:term"),
// without the allocation Marshal makes for each relation of each item.
func writeKey(out *bytes.Buffer, k string) {
	for i := range len(k) {
		if c := k[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(k)
			out.Write(q)
			return
		}
	}
	out.WriteByte('"')
	out.WriteString(k)
	out.WriteByte('"')
}

// fetch GETs one embeddable href of this site (once per response; most
// were fetched already, in batches, by prefetch).
func (e *embedder) fetch(href string) json.RawMessage {
	if body, ok := e.cache[href]; ok {
		return body
	}
	t, ok := e.admit(href)
	if !ok {
		return nil
	}
	if !e.fromEdge(t) {
		e.fetchOne(t)
	}
	return e.cache[href]
}

// routeOfURL maps an absolute REST URL of this site (pretty or
// ?rest_route= form) to its route and query.
func (g *Gateway) routeOfURL(href string) (route, query string, ok bool) {
	if route, query, ok, sure := g.plainRouteOfURL(href); sure {
		return route, query, ok
	}
	return g.parsedRouteOfURL(href)
}

// plainRouteOfURL is routeOfURL of an href url.Parse would take apart as
// it stands (http or https, printable ASCII without an escape, a
// fragment, user information or a backslash) under the site's REST
// prefix, without the URL url.Parse builds for each of a page's ~300
// links; sure is false for any other href (parsedRouteOfURL then reads
// it).
func (g *Gateway) plainRouteOfURL(href string) (route, query string, ok, sure bool) {
	site := g.site
	rest0, isHTTP := strings.CutPrefix(href, "http://")
	if !isHTTP {
		rest0, isHTTP = strings.CutPrefix(href, "https://")
	}
	if !isHTTP || site == nil {
		return "", "", false, false
	}
	for i := range len(href) {
		if c := href[i]; c <= ' ' || c >= 0x7f || c == '%' || c == '#' || c == '@' || c == '\\' {
			return "", "", false, false
		}
	}
	end := strings.IndexAny(rest0, "/?")
	if end < 0 {
		return "", "", false, false
	}
	if !strings.EqualFold(rest0[:end], site.Host) {
		return "", "", false, true
	}
	path, query, _ := strings.Cut(rest0[end:], "?")
	p := strings.TrimPrefix(path, site.Path)
	if p != RESTPrefix && !strings.HasPrefix(p, RESTPrefix+"/") {
		return "", "", false, false // the ?rest_route= form, or not REST
	}
	return rest.NormalizeRoute(strings.TrimPrefix(p, RESTPrefix)), query, true, true
}

// parsedRouteOfURL is routeOfURL through url.Parse, for any href.
func (g *Gateway) parsedRouteOfURL(href string) (route, query string, ok bool) {
	u, err := url.Parse(href)
	site := g.site
	if err != nil || site == nil || !strings.EqualFold(u.Host, site.Host) {
		return "", "", false
	}
	p := strings.TrimPrefix(u.Path, site.Path)
	if p == RESTPrefix || strings.HasPrefix(p, RESTPrefix+"/") {
		return rest.NormalizeRoute(strings.TrimPrefix(p, RESTPrefix)), u.RawQuery, true
	}
	if (p == "" || p == "/" || p == "/index.php") && u.Query().Has("rest_route") {
		r, query := splitRESTRoute(u.RawQuery)
		return rest.NormalizeRoute(r), query, true
	}
	return "", "", false
}

// embedEnvelope embeds into the "body" member of an _envelope answer.
func (g *Gateway) embedEnvelope(ctx context.Context, raw []byte, rels []string) []byte {
	if !json.Valid(raw) {
		return raw
	}
	members, ok := objectMembers(raw)
	if !ok {
		return raw
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			out.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		out.Write(k)
		out.WriteByte(':')
		if m.key == "body" {
			out.Write(g.embedBody(ctx, m.raw, rels))
		} else {
			out.Write(m.raw)
		}
	}
	out.WriteByte('}')
	return out.Bytes()
}

func joinQuery(q, kv string) string {
	if q == "" {
		return kv
	}
	return q + "&" + kv
}

// perPageMax is the maximum of the per_page argument of the GET endpoint
// that serves route, read from the route kit: the gateway's own server, or
// the one it rebuilt from the owning service's route description.
func (e *embedder) perPageMax(route string) (int, bool) {
	o, ok := e.g.ownerOf(e.ctx, e.table, route)
	if !ok {
		return 0, false
	}
	srv := e.g.local
	if !o.local {
		if e.indexes == nil {
			e.indexes = e.g.desc.get(e.ctx, e.table)
		}
		si := e.indexes[o.backend.Name]
		if si == nil {
			return 0, false
		}
		srv = si.validator
	}
	args, ok := srv.EndpointArgs(e.ctx, route, http.MethodGet)
	if !ok {
		return 0, false
	}
	if s := args.Get("per_page"); s != nil && s.Maximum != nil {
		return int(*s.Maximum), true
	}
	return 0, false
}

// phpEmpty reports whether a JSON value is one PHP's array_filter drops:
// an empty array or object, null, false, 0 or "".
func phpEmpty(raw json.RawMessage) bool {
	// A non-empty array or object (most embedded answers) is not empty
	// whatever it holds: no need to decode it.
	if t := bytes.TrimSpace(raw); len(t) > 1 && (t[0] == '[' || t[0] == '{') {
		if inner := bytes.TrimSpace(t[1:]); len(inner) > 0 && inner[0] != ']' && inner[0] != '}' {
			return false
		}
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch x := v.(type) {
	case nil:
		return true
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	case bool:
		return !x
	case float64:
		return x == 0
	case string:
		return x == "" || x == "0"
	}
	return false
}
