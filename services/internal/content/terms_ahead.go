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

// Terms and replies of many posts read ahead for a batch of reads
// (docs/performance.md#_embed-one-statement-per-kind). The gateway embeds a
// page of posts' wp:term and replies links by sending content one batch of
// reads, `categories?post=ID`, `tags?post=ID` and `comments?post=ID` for
// every post; each answered alone cost two statements (the post, for the
// permission check, and its terms or comments), 600 for a page of 100
// posts. Before such a batch runs, readAhead reads the posts, their terms
// and their comments of every plain ?post= lookup in it in three
// statements; listTerms, checkTermPost, listComments and its permission
// check answer from that set when their request is such a lookup, and go
// to the database as before otherwise. The answers are the same: the same
// rows in the same order (TermsOfPosts and RepliesOfPosts order each
// post's rows as the lookup's statement does), the same checks, the same
// totals.

// termsAheadKey is the context key of a batch's read-ahead set.
type termsAheadKey struct{}

// termsAhead is what a batch of reads read ahead: the posts asked about
// (an id without a post maps to nil; bare, store.GetPostsBare: for
// permission checks and permalinks only), their terms in the taxonomies asked
// about (taxes), by taxonomy, and the replies of those whose replies were
// asked (replied).
type termsAhead struct {
	posts   map[int64]*store.Post
	taxes   map[string]bool
	terms   map[string]map[int64][]*store.Term
	replied map[int64]bool
	replies map[int64][]*store.Comment
}

// aheadLookupParams are the only parameters of a lookup read ahead: what
// the gateway's embed adds to a wp:term link (context, per_page).
var aheadLookupParams = map[string]bool{"post": true, "context": true, "per_page": true}

// postLookup is the collection (a taxonomy's base or "comments") and post
// of a batch call that is a plain `GET {collection}?post=ID` ("" when it is
// anything else).
func postLookup(c rest.Call) (string, int64) {
	if c.Method != http.MethodGet {
		return "", 0
	}
	path, rawQuery, _ := strings.Cut(c.Path, "?")
	base, ok := strings.CutPrefix(path, "/"+Namespace+"/")
	if !ok {
		return "", 0
	}
	value, ok := lookupPost(rawQuery)
	if !ok {
		return "", 0
	}
	post, err := strconv.ParseInt(value, 10, 64)
	if err != nil || post <= 0 {
		return "", 0
	}
	return base, post
}

// lookupPost is the post parameter of a query made of aheadLookupParams
// only, post once; ok is false otherwise. A query without escapes (what
// the gateway sends) is split by hand: url.ParseQuery's map for each of a
// page's 300 lookups was a tenth of content's CPU on an _embed page.
func lookupPost(rawQuery string) (string, bool) {
	if strings.ContainsAny(rawQuery, "%+;") {
		return parsedLookupPost(rawQuery)
	}
	post, posts := "", 0
	for pair := range strings.SplitSeq(rawQuery, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		if !aheadLookupParams[k] {
			return "", false
		}
		if k == "post" {
			post, posts = v, posts+1
		}
	}
	if posts != 1 {
		return "", false
	}
	return post, true
}

// parsedLookupPost is lookupPost through url.ParseQuery, for any query.
func parsedLookupPost(rawQuery string) (string, bool) {
	q, err := url.ParseQuery(rawQuery)
	if err != nil || len(q["post"]) != 1 {
		return "", false
	}
	for k := range q {
		if !aheadLookupParams[k] {
			return "", false
		}
	}
	return q.Get("post"), true
}

// taxonomyOf is the taxonomy whose collection is base; nil when none.
func taxonomyOf(base string) *store.Taxonomy {
	for _, t := range store.Taxonomies {
		if t.Base == base {
			return t
		}
	}
	return nil
}

// readAhead is the content batch's rest.ReadAhead: with two or more term
// lookups in the batch, their posts and terms are read in two statements.
// A failed read leaves the context as it was (every call then reads for
// itself, and meets the failure there).
func (s *Service) readAhead(ctx context.Context, calls []rest.Call) context.Context {
	var ids, replyIDs []int64
	var taxes []string
	a := &termsAhead{taxes: map[string]bool{}, replied: map[int64]bool{}}
	seenPost := map[int64]bool{}
	lookups := 0
	for _, c := range calls {
		base, post := postLookup(c)
		tax := taxonomyOf(base)
		switch {
		case base == "comments":
			if !a.replied[post] {
				a.replied[post] = true
				replyIDs = append(replyIDs, post)
			}
		case tax != nil:
			if !a.taxes[tax.Name] {
				a.taxes[tax.Name] = true
				taxes = append(taxes, tax.Name)
			}
		default:
			continue
		}
		lookups++
		if !seenPost[post] {
			seenPost[post] = true
			ids = append(ids, post)
		}
	}
	if lookups < 2 {
		return ctx
	}
	var err error
	q := s.db(ctx)
	// bare posts: the lookups only check permissions and build the
	// comments' permalinks with them
	if a.posts, err = store.GetPostsBare(ctx, q, ids); err != nil {
		return ctx
	}
	if len(taxes) > 0 {
		if a.terms, err = store.TermsOfPosts(ctx, q, taxes, ids); err != nil {
			return ctx
		}
	}
	if len(replyIDs) > 0 {
		if a.replies, err = store.RepliesOfPosts(ctx, q, replyIDs); err != nil {
			return ctx
		}
	}
	for _, id := range ids {
		if _, ok := a.posts[id]; !ok {
			a.posts[id] = nil
		}
	}
	return context.WithValue(ctx, termsAheadKey{}, a)
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

// aheadReplies answers cq from the read-ahead set when cq is a plain
// ?post= lookup of approved comments, first page, in the default order
// (date), whose post's replies were read ahead: the page and the total, as
// ListComments would.
func aheadReplies(c *rest.Request, cq *store.CommentQuery) ([]*store.Comment, int, bool) {
	a, _ := c.Context().Value(termsAheadKey{}).(*termsAhead)
	if a == nil || len(cq.Post) != 1 || !a.replied[cq.Post[0]] || c.Has("offset") || cq.Offset != 0 || cq.Type != "comment" ||
		len(cq.Statuses) != 1 || cq.Statuses[0] != "approved" || !cq.Desc || (cq.OrderBy != "date_gmt" && cq.OrderBy != "date") ||
		len(cq.Parent) > 0 || len(cq.ParentExclude) > 0 || len(cq.Include) > 0 || len(cq.Exclude) > 0 || len(cq.Author) > 0 ||
		len(cq.AuthorExclude) > 0 || cq.AuthorEmail != "" || cq.Search != "" || cq.After != nil || cq.Before != nil {
		return nil, 0, false
	}
	all := a.replies[cq.Post[0]]
	return all[:min(len(all), cq.PerPage)], len(all), true
}
