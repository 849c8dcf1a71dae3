package content

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// Terms of many posts read ahead for a batch of reads
// (docs/performance.md#_embed-one-statement-per-kind). The gateway embeds a
// page of posts' wp:term links by sending content one batch of reads,
// `categories?post=ID` and `tags?post=ID` for every post; each answered
// alone cost two statements (the post, for the permission check, and its
// terms), 400 for a page of 100 posts. Before such a batch runs, readAhead
// reads the posts and their terms of every plain ?post= lookup in it in two
// statements; listTerms and checkTermPost answer from that set when their
// request is such a lookup, and go to the database as before otherwise.
// The answers are the same: the same rows in the same order (TermsOfPosts
// orders each post's terms as the lookup's statement does), the same
// checks, the same total.

// termsAheadKey is the context key of a batch's read-ahead set.
type termsAheadKey struct{}

// termsAhead is what a batch of reads read ahead: the posts asked about
// (an id without a post maps to nil) and their terms in the taxonomies
// asked about (taxes), by taxonomy.
type termsAhead struct {
	posts map[int64]*store.Post
	taxes map[string]bool
	terms map[string]map[int64][]*store.Term
}

// aheadLookupParams are the only parameters of a lookup read ahead: what
// the gateway's embed adds to a wp:term link (context, per_page).
var aheadLookupParams = map[string]bool{"post": true, "context": true, "per_page": true}

// termLookup is the taxonomy and post of a batch call that is a plain
// `GET {taxonomy}?post=ID` (nil when it is anything else).
func termLookup(c rest.Call) (*store.Taxonomy, int64) {
	if c.Method != http.MethodGet {
		return nil, 0
	}
	path, rawQuery, _ := strings.Cut(c.Path, "?")
	base, ok := strings.CutPrefix(path, "/"+Namespace+"/")
	if !ok {
		return nil, 0
	}
	var tax *store.Taxonomy
	for _, t := range store.Taxonomies {
		if t.Base == base {
			tax = t
		}
	}
	q, err := url.ParseQuery(rawQuery)
	if tax == nil || err != nil || len(q["post"]) != 1 {
		return nil, 0
	}
	for k := range q {
		if !aheadLookupParams[k] {
			return nil, 0
		}
	}
	post, err := strconv.ParseInt(q.Get("post"), 10, 64)
	if err != nil || post <= 0 {
		return nil, 0
	}
	return tax, post
}

// readAhead is the content batch's rest.ReadAhead: with two or more term
// lookups in the batch, their posts and terms are read in two statements.
// A failed read leaves the context as it was (every call then reads for
// itself, and meets the failure there).
func (s *Service) readAhead(ctx context.Context, calls []rest.Call) context.Context {
	var ids []int64
	var taxes []string
	seenPost, seenTax := map[int64]bool{}, map[string]bool{}
	lookups := 0
	for _, c := range calls {
		tax, post := termLookup(c)
		if tax == nil {
			continue
		}
		lookups++
		if !seenPost[post] {
			seenPost[post] = true
			ids = append(ids, post)
		}
		if !seenTax[tax.Name] {
			seenTax[tax.Name] = true
			taxes = append(taxes, tax.Name)
		}
	}
	if lookups < 2 {
		return ctx
	}
	q := s.db(ctx)
	posts, err := store.GetPosts(ctx, q, ids)
	if err != nil {
		return ctx
	}
	terms, err := store.TermsOfPosts(ctx, q, taxes, ids)
	if err != nil {
		return ctx
	}
	for _, id := range ids {
		if _, ok := posts[id]; !ok {
			posts[id] = nil
		}
	}
	return context.WithValue(ctx, termsAheadKey{}, &termsAhead{posts: posts, taxes: seenTax, terms: terms})
}

// aheadPost is the post read ahead for id; ok is false when it was not.
func aheadPost(ctx context.Context, id int64) (p *store.Post, ok bool) {
	a, _ := ctx.Value(termsAheadKey{}).(*termsAhead)
	if a == nil {
		return nil, false
	}
	p, ok = a.posts[id]
	return p, ok
}

// aheadTerms answers tq from the read-ahead set when tq is a plain ?post=
// lookup of its first page in the default order whose post was read ahead:
// the page and the total, as ListTermRows would.
func aheadTerms(ctx context.Context, tq *store.TermQuery) ([]*store.Term, int, bool) {
	a, _ := ctx.Value(termsAheadKey{}).(*termsAhead)
	if a == nil || tq.Post == 0 || tq.Search != "" || len(tq.Include) > 0 || len(tq.Exclude) > 0 || len(tq.Slugs) > 0 ||
		tq.Parent != nil || tq.HideEmpty || tq.Order != "asc" || tq.OrderBy != "name" || tq.Offset != 0 {
		return nil, 0, false
	}
	if _, ok := a.posts[tq.Post]; !ok || !a.taxes[tq.Tax.Name] {
		return nil, 0, false
	}
	all := a.terms[tq.Tax.Name][tq.Post]
	return all[:min(len(all), tq.Limit)], len(all), true
}
