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

	"siteplane.dev/services/internal/gateway/edgecache"
	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// _embed in batches (issue 26: 100 posts with _embed cost 302 requests to
// content, 36 times the plain list). The links every item of an answer
// embeds are gathered first; those of one service go to it in one call of
// its internal batch endpoint (contract.BatchPath, reads only: each runs as
// its own GET would, failures included), up to embedBatchSize a call, so a
// page costs one call per service that owns linked resources. Each distinct
// link is still fetched once and embedded exactly as before (the same
// route, query, caller and answer); the gateway's own routes (users) run in
// process. An anonymous caller's embedded resources are public answers and
// come from, and go to, the edge cache. At most maxEmbedded distinct links
// are resolved for one answer; later ones are not embedded.

// maxEmbedded caps the distinct links one answer embeds: a page of 100
// items with five embeddable relations each stays below it.
var maxEmbedded = 1000

// prefetchEmbeds switches the batches on; off, every link is fetched alone
// when met, as before (the reference the tests compare answers with).
var prefetchEmbeds = true

// embedBatchSize is the most requests one batch call to a service carries:
// as many as one answer embeds (maxEmbedded's default), so that a page's
// links reach each service in one call. With 100 a call, the wp:term and
// replies links of 100 posts (300) took three calls to content, and each
// read the page's posts ahead again (terms_ahead.go).
const embedBatchSize = 1000

// embedMethod is the method of embedded answers' edge-cache keys: under
// the REST kind (purges by route reach them) but never a client's GET.
const embedMethod = "EMBED"

// linkRef is one link of a relation.
type linkRef struct {
	Href       string `json:"href"`
	Embeddable bool   `json:"embeddable"`
}

// relLinks are the links of one relation the request asked to embed.
type relLinks struct {
	rel   string
	links []linkRef
}

// embedTarget is an href resolved: the route and query it is fetched with
// (context=embed and a collection's largest per_page added) and its owner.
type embedTarget struct {
	href, route, query string
	owner              owner
}

func (g *Gateway) newEmbedder(ctx context.Context, rels []string) *embedder {
	e := &embedder{g: g, ctx: ctx, table: g.cfg.Routes.Current(), rels: rels, cache: map[string]json.RawMessage{}}
	if c := g.cfg.Cache; c != nil && !identity.FromContext(ctx).LoggedIn() {
		if gen, online := c.Generation(); online {
			e.edge, e.gen = c, gen
		}
	}
	return e
}

// embeddableKey is the member every embeddable link has.
var embeddableKey = []byte(`"embeddable"`)

// linksOf is the relations of an object's _links that the request embeds;
// ok is false when the object embeds nothing (not an object, no _links, or
// an _embedded of its own).
func (e *embedder) linksOf(raw []byte) ([]relLinks, bool) {
	links, ok := linksMember(raw)
	return e.relsOf(links, ok)
}

// relsOf is linksOf of an object whose "_links" value is links (nil:
// none); ok is linksMember's. Its relations are walked in place: a member
// list per item (its keys as strings) was a tenth of the bytes the gateway
// allocated on a 100-post _embed.
func (e *embedder) relsOf(links []byte, ok bool) ([]relLinks, bool) {
	if !ok || links == nil {
		return nil, false
	}
	var out []relLinks
	ok = walkObject(links, func(quoted, value []byte) bool {
		rel, ok := e.wanted(quoted)
		if !ok {
			return true
		}
		if !bytes.Contains(value, embeddableKey) {
			// no link of the relation is embeddable: it would embed
			// nothing and be dropped (object), so it is not decoded
			return true
		}
		if list, ok := linkRefs(value); ok {
			out = append(out, relLinks{rel: rel, links: list})
		}
		return true
	})
	if !ok {
		return nil, false
	}
	return out, true
}

// wanted is the relation of a quoted key of _links when the request embeds
// it (every relation without an _embed list).
func (e *embedder) wanted(quoted []byte) (string, bool) {
	if len(quoted) < 2 {
		return "", false
	}
	if inner := quoted[1 : len(quoted)-1]; bytes.IndexByte(inner, '\\') < 0 {
		if e.rels == nil {
			return string(inner), true
		}
		for _, r := range e.rels {
			if r == string(inner) {
				return r, true
			}
		}
		return "", false
	}
	rel, ok := memberKey(quoted)
	if !ok || (e.rels != nil && !slices.Contains(e.rels, rel)) {
		return "", false
	}
	return rel, true
}

// admit resolves an href not seen yet, counting it against maxEmbedded;
// an href of another site, or one past the cap, is remembered as not
// embeddable.
func (e *embedder) admit(href string) (embedTarget, bool) {
	if e.fetched >= maxEmbedded {
		e.cache[href] = nil
		return embedTarget{}, false
	}
	route, query, ok := e.g.routeOfURL(href)
	if !ok {
		e.cache[href] = nil
		return embedTarget{}, false
	}
	e.fetched++
	if !queryHas(query, "context") {
		query = joinQuery(query, "context=embed")
	}
	r := e.routeInfo(route)
	// Embedded collections come whole: per_page is the route's maximum.
	if !queryHas(query, "per_page") && r.hasMost {
		query = joinQuery(query, "per_page="+strconv.Itoa(r.most))
	}
	return embedTarget{href: href, route: route, query: query, owner: r.owner}, true
}

// queryHas is url.ParseQuery(raw).Has(key), without the map ParseQuery
// builds for every link of a page: the pairs it keeps are those without a
// semicolon whose key and value unescape.
func queryHas(raw, key string) bool {
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" || strings.Contains(pair, ";") {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		if !strings.ContainsAny(pair, "%+") {
			if k == key {
				return true
			}
			continue
		}
		if uk, err := url.QueryUnescape(k); err != nil || uk != key {
			continue
		}
		if _, err := url.QueryUnescape(v); err == nil {
			return true
		}
	}
	return false
}

// embedRoute is what admit needs of a route: its owner and the maximum of
// its per_page argument.
type embedRoute struct {
	owner   owner
	most    int
	hasMost bool
}

// routeInfo is route's owner and per_page maximum, looked up once per
// answer: every post of a page links the same few routes (asking the route
// kit for each of 300 links was 4 % of the gateway's CPU on a 100-post
// _embed).
func (e *embedder) routeInfo(route string) embedRoute {
	if r, ok := e.routes[route]; ok {
		return r
	}
	var r embedRoute
	r.owner, _ = e.g.ownerOf(e.ctx, e.table, route)
	r.most, r.hasMost = e.perPageMax(route)
	if e.routes == nil {
		e.routes = map[string]embedRoute{}
	}
	e.routes[route] = r
	return r
}

// objectLinks is what linksOf read of one object.
type objectLinks struct {
	rels []relLinks
	ok   bool
}

// prefetch reads the links of the objects (returned, one per object, for
// embedding them) and fetches those they embed (fetchLinks).
func (e *embedder) prefetch(objects []json.RawMessage) []objectLinks {
	links := make([]objectLinks, len(objects))
	for i, raw := range objects {
		links[i].rels, links[i].ok = e.linksOf(raw)
	}
	e.fetchLinks(links)
	return links
}

// prefetchPage is prefetch of a list's items, their _links found by
// splitPage.
func (e *embedder) prefetchPage(items []pageItem) []objectLinks {
	if len(e.cache) == 0 {
		// a page's items link about four resources each: sized once
		e.cache = make(map[string]json.RawMessage, 4*len(items))
	}
	links := make([]objectLinks, len(items))
	for i, it := range items {
		links[i].rels, links[i].ok = e.relsOf(it.links, it.ok)
	}
	e.fetchLinks(links)
	return links
}

// fetchLinks fetches the links the objects embed, in one batch call per
// service (per embedBatchSize links), before they are embedded one by one.
func (e *embedder) fetchLinks(links []objectLinks) {
	if !prefetchEmbeds {
		return
	}
	byService := map[*routing.Backend][]embedTarget{}
	var order []*routing.Backend
	for _, ol := range links {
		if !ol.ok {
			continue
		}
		for _, rl := range ol.rels {
			for _, l := range rl.links {
				if _, seen := e.cache[l.Href]; seen || !l.Embeddable {
					continue
				}
				t, ok := e.admit(l.Href)
				if !ok || e.fromEdge(t) {
					continue
				}
				if t.owner.local || t.owner.backend == nil {
					// The gateway's own routes run in process: no call to save.
					e.fetchOne(t)
					continue
				}
				e.cache[l.Href] = nil // seen; filled by its batch below
				if _, ok := byService[t.owner.backend]; !ok {
					order = append(order, t.owner.backend)
				}
				byService[t.owner.backend] = append(byService[t.owner.backend], t)
			}
		}
	}
	for _, b := range order {
		targets := byService[b]
		for start := 0; start < len(targets); start += embedBatchSize {
			e.batch(b, targets[start:min(start+embedBatchSize, len(targets))])
		}
	}
}

// batch fetches targets of one service in one call of its internal batch
// endpoint (content's embed endpoint, embedframe.go, when it has one).
// Whatever the call does not answer (a service that cannot, a
// failed call) is fetched on its own, as before.
func (e *embedder) batch(b *routing.Backend, targets []embedTarget) {
	var payload contract.BatchRequest
	for _, t := range targets {
		payload.Requests = append(payload.Requests, contract.BatchSubRequest{Method: http.MethodGet, Route: t.route, Query: t.query})
	}
	if len(targets) > 1 && b.Name == contract.ServiceContent {
		// an answer the edge cache keeps (e.edge) is a slice of the
		// buffer: it is then not a pooled one
		bufs := e.bufs
		if e.edge != nil {
			bufs = nil
		}
		if answers, err := e.g.postEmbed(e.ctx, b, targets, bufs); err == nil {
			for i, t := range targets {
				e.keep(t, answers[i].status, answers[i].body, nil)
			}
			return
		}
	}
	var responses []contract.BatchSubResponse
	if len(targets) > 1 {
		if res, err := e.g.postInternal(e.ctx, b, contract.BatchPath, payload); err == nil {
			responses = res.Responses
		}
	}
	for i, t := range targets {
		if i < len(responses) {
			e.keep(t, responses[i].Status, responses[i].Body, nil)
			continue
		}
		res := e.g.callService(e.ctx, b, subRequest{Method: http.MethodGet, Route: t.route, Query: t.query})
		e.keep(t, res.Status, res.Body, res.Header)
	}
}

// fetchOne fetches t on its own, through the same routing as a client
// request.
func (e *embedder) fetchOne(t embedTarget) {
	res := e.g.do(e.ctx, e.table, subRequest{Method: http.MethodGet, Route: t.route, Query: t.query})
	e.keep(t, res.Status, res.Body, res.Header)
}

// edgeKey is the edge-cache key of an embedded answer.
func edgeKey(t embedTarget) string {
	return edgecache.Key(embedMethod, kindREST, t.route, edgecache.RESTQuery(t.query), nil)
}

// fromEdge answers t from the edge cache, for an anonymous caller.
func (e *embedder) fromEdge(t embedTarget) bool {
	if e.edge == nil {
		return false
	}
	entry, ok := e.edge.Get(edgeKey(t))
	if ok {
		e.cache[t.href] = json.RawMessage(entry.Body)
	}
	return ok
}

// keep records the answer of t for this response and, when it is a public
// answer (anonymous caller, 200), in the edge cache; header gives the
// replica position of an answer read from one (Cache.Put decides on it).
func (e *embedder) keep(t embedTarget, status int, body []byte, header http.Header) {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte(`null`)
	}
	e.cache[t.href] = json.RawMessage(body)
	if e.edge != nil && status == http.StatusOK {
		kept := http.Header{}
		if at := header.Get(postgres.HeaderReadLSN); at != "" {
			kept.Set(postgres.HeaderReadLSN, at)
		}
		e.edge.Put(edgeKey(t), e.gen, &edgecache.Entry{Status: status, Header: kept, Body: body})
	}
}
