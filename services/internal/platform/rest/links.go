package rest

import (
	"net/url"
	"strings"
)

// Link is one entry of an item's _links (§1.11). Rel is a registered
// relation ("self", "collection", "author") or a full https://api.w.org/
// URI, which is written in its compact "wp:" form with a curies entry.
// Attrs are emitted before href, in order (WordPress puts "embeddable",
// "taxonomy", "count" first). The gateway resolves _embed from the links
// whose "embeddable" attribute is true.
type Link struct {
	Rel   string
	Href  string
	Attrs Object
}

// Links is an item's link list; entries of one relation are grouped.
type Links []Link

// APIRelPrefix is the URI prefix compacted to the "wp" curie.
const APIRelPrefix = "https://api.w.org/"

// EmbeddableLink returns a link carrying attrs followed by "embeddable": true.
func EmbeddableLink(rel, href string, attrs ...Member) Link {
	a := make(Object, 0, len(attrs)+1)
	a = append(a, attrs...)
	return Link{Rel: rel, Href: href, Attrs: append(a, Member{"embeddable", true})}
}

// Embeddable reports whether the link's "embeddable" attribute is true.
func (l Link) Embeddable() bool {
	v, ok := l.Attrs.Get("embeddable")
	return ok && toBool(v)
}

// relParts splits a relation into its written form prefix+name, without
// allocating; curie reports whether it uses the wp curie.
func relParts(rel string) (prefix, name string, curie bool) {
	if strings.HasPrefix(rel, APIRelPrefix) {
		return "wp:", rel[len(APIRelPrefix):], true
	}
	return "", rel, strings.HasPrefix(rel, "wp:")
}

func sameRel(a, b string) bool {
	if a == b {
		return true
	}
	pa, na, _ := relParts(a)
	pb, nb, _ := relParts(b)
	switch {
	case pa == pb:
		return na == nb
	case pa != "":
		return strings.HasPrefix(nb, "wp:") && nb[3:] == na
	default:
		return strings.HasPrefix(na, "wp:") && na[3:] == nb
	}
}

var curies = []any{Object{{"name", "wp"}, {"href", APIRelPrefix + "{rel}"}, {"templated", true}}}

// appendLinks writes the _links object: relations in first-seen order, each
// an array; self links get targetHints; curies last.
func (e *encoder) appendLinks(links Links) {
	e.openObject()
	compacted := false
	for i := range links {
		prefix, name, isCurie := relParts(links[i].Rel)
		seen := false
		for j := 0; j < i; j++ {
			if sameRel(links[j].Rel, links[i].Rel) {
				seen = true
				break
			}
		}
		if seen {
			continue
		}
		compacted = compacted || isCurie
		e.keyParts(prefix, name)
		e.openArray()
		for j := i; j < len(links); j++ {
			if j != i && !sameRel(links[j].Rel, links[i].Rel) {
				continue
			}
			e.element()
			e.appendLink(&links[j])
		}
		e.closeArray()
	}
	if compacted {
		e.key("curies")
		e.value(curies)
	}
	e.closeObject()
}

func (e *encoder) appendLink(l *Link) {
	e.openObject()
	for _, m := range l.Attrs {
		if m.Key == "href" {
			continue
		}
		e.key(m.Key)
		e.value(m.Value)
	}
	e.key("href")
	e.str(l.Href)
	if l.Rel == "self" && e.srv != nil {
		if allow := e.srv.targetHints(e.req, l.Href); len(allow) > 0 {
			e.key("targetHints")
			e.openObject()
			e.key("allow")
			e.openArray()
			for _, m := range allow {
				e.element()
				e.str(m)
			}
			e.closeArray()
			e.closeObject()
		}
	}
	e.closeObject()
}

// ParseEmbed reads _embed from a request's query parameters like
// rest_parse_embed_param: ok is false when it is absent; a nil rels means
// every relation. PHP's falsy values ("" and "0"), "1", "true" and a value
// naming no relation embed all; otherwise rels lists the requested
// relations, comma or space separated, in their compact form ("wp:term").
// The array form (_embed[]=author) lists relations too.
func ParseEmbed(q url.Values) (rels []string, ok bool) {
	var values []string
	switch {
	case q.Has("_embed"):
		v := q.Get("_embed")
		if v == "" || v == "0" || v == "1" || v == "true" {
			return nil, true
		}
		values = []string{v}
	case q.Has("_embed[]"):
		values = q["_embed[]"]
	default:
		return nil, false
	}
	for _, v := range values {
		for _, rel := range parseList(v) {
			rels = append(rels, rel.(string))
		}
	}
	return rels, true
}
