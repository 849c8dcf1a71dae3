package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

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

// objectMembers decodes a JSON object keeping its member order.
func objectMembers(raw []byte) ([]member, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, member{tok.(string), v})
	}
	return out, true
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
}

// embedBody adds "_embedded" to an object body or to every object of a
// list body; anything else is returned unchanged.
func (g *Gateway) embedBody(ctx context.Context, body []byte, rels []string) []byte {
	e := &embedder{g: g, ctx: ctx, table: g.cfg.Routes.Current(), rels: rels, cache: map[string]json.RawMessage{}}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return body
	}
	switch trimmed[0] {
	case '{':
		return e.object(trimmed)
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(trimmed, &items) != nil {
			return body
		}
		var out bytes.Buffer
		out.WriteByte('[')
		for i, it := range items {
			if i > 0 {
				out.WriteByte(',')
			}
			out.Write(e.object(bytes.TrimSpace(it)))
		}
		out.WriteByte(']')
		return out.Bytes()
	}
	return body
}

func (e *embedder) object(raw []byte) []byte {
	members, ok := objectMembers(raw)
	if !ok {
		return raw
	}
	var links json.RawMessage
	for _, m := range members {
		if m.key == "_embedded" {
			return raw
		}
		if m.key == "_links" {
			links = m.raw
		}
	}
	if links == nil {
		return raw
	}
	relMembers, ok := objectMembers(links)
	if !ok {
		return raw
	}
	var embedded bytes.Buffer
	count := 0
	for _, rm := range relMembers {
		if e.rels != nil && !slices.Contains(e.rels, rm.key) {
			continue
		}
		var list []struct {
			Href       string `json:"href"`
			Embeddable bool   `json:"embeddable"`
		}
		if json.Unmarshal(rm.raw, &list) != nil {
			continue
		}
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
		if count > 0 {
			embedded.WriteByte(',')
		}
		count++
		k, _ := json.Marshal(rm.key)
		embedded.Write(k)
		embedded.WriteByte(':')
		// Written by hand: json.Marshal would re-escape the bodies' HTML
		// characters, changing the service's bytes.
		embedded.WriteByte('[')
		for i, en := range entries {
			if i > 0 {
				embedded.WriteByte(',')
			}
			embedded.Write(bytes.TrimSpace(en))
		}
		embedded.WriteByte(']')
	}
	if count == 0 {
		return raw
	}
	out := make([]byte, 0, len(raw)+embedded.Len()+16)
	out = append(out, raw[:len(raw)-1]...)
	out = append(out, `,"_embedded":{`...)
	out = append(out, embedded.Bytes()...)
	out = append(out, "}}"...)
	return out
}

// fetch GETs one embeddable href of this site (once per response).
func (e *embedder) fetch(href string) json.RawMessage {
	if body, ok := e.cache[href]; ok {
		return body
	}
	route, query, ok := e.g.routeOfURL(href)
	if !ok {
		e.cache[href] = nil
		return nil
	}
	q, _ := url.ParseQuery(query)
	if !q.Has("context") {
		query = joinQuery(query, "context=embed")
	}
	// Embedded collections come whole: per_page is the route's maximum.
	if !q.Has("per_page") {
		if most, ok := e.perPageMax(route); ok {
			query = joinQuery(query, "per_page="+strconv.Itoa(most))
		}
	}
	res := e.g.do(e.ctx, e.table, subRequest{Method: http.MethodGet, Route: route, Query: query})
	body := json.RawMessage(res.Body)
	if len(body) == 0 {
		body = json.RawMessage(`null`)
	}
	e.cache[href] = body
	return body
}

// routeOfURL maps an absolute REST URL of this site (pretty or
// ?rest_route= form) to its route and query.
func (g *Gateway) routeOfURL(href string) (route, query string, ok bool) {
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
