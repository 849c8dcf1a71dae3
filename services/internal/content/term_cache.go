package content

import (
	"reflect"
	"sync"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// Encoded terms (docs/performance.md, _embed): an embedded page of 100 posts
// asks content for the terms of each post (categories?post=ID,
// tags?post=ID), and preparing and encoding every term of every answer anew
// (its object, its links, the self link's targetHints, which match the
// route and ask every endpoint's permission) was a fifth of content's CPU
// on such a page, for the few terms a site has. A term's JSON is a
// function of its row, its taxonomy, the context and the caller's
// permissions (targetHints); for anonymous callers without _fields or
// _pretty it is kept, with the row it was made from, and used again only
// while the row read now equals that one field for field (as the encoded
// posts are, post_cache.go): a renamed term, a new count, a new parent is
// encoded anew by the first read that sees it, whoever changed it, and
// nothing needs invalidating.

// encodedTermsMax bounds the cache: a term's JSON is under 1 KB.
const encodedTermsMax = 4096

// termKey is a term in one context.
type termKey struct {
	id      int64
	context string
}

// encodedTerm is one term's JSON with what it was made from.
type encodedTerm struct {
	tax  *store.Taxonomy
	row  store.Term
	json rest.Encoded
}

// encodedTerms is the cache (Service.encodedTerms).
type encodedTerms struct {
	mu sync.RWMutex
	m  map[termKey]*encodedTerm
}

// termJSON is prepareTerm's item for c encoded, from the cache when t's row
// is the one it was made from; ok is false when c cannot use the cache (a
// logged-in caller, _fields, _pretty): prepare and let the kit encode.
func (s *Service) termJSON(c *rest.Request, tax *store.Taxonomy, t *store.Term, viewCtx string) (rest.Encoded, bool) {
	if caller(c).LoggedIn() || c.ShapesItems() {
		return nil, false
	}
	k := termKey{t.ID, viewCtx}
	s.encodedTerms.mu.RLock()
	e := s.encodedTerms.m[k]
	s.encodedTerms.mu.RUnlock()
	if e != nil && e.tax == tax && reflect.DeepEqual(&e.row, t) {
		return e.json, true
	}
	b, ok := c.EncodeItem(s.prepareTerm(tax, t, viewCtx))
	if !ok {
		return nil, false
	}
	s.encodedTerms.mu.Lock()
	defer s.encodedTerms.mu.Unlock()
	if s.encodedTerms.m == nil {
		s.encodedTerms.m = make(map[termKey]*encodedTerm)
	}
	if _, ok := s.encodedTerms.m[k]; !ok && len(s.encodedTerms.m) >= encodedTermsMax {
		for old := range s.encodedTerms.m { // an arbitrary one makes room
			delete(s.encodedTerms.m, old)
			break
		}
	}
	s.encodedTerms.m[k] = &encodedTerm{tax: tax, row: *t, json: b}
	return b, true
}
