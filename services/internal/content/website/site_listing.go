package website

import (
	"context"
	"reflect"
	"strconv"
	"strings"

	"siteplane.dev/services/internal/content/store"
)

// A listing page (the front page, a term's, an author's or a date archive)
// read again in the same change generation reuses the posts and total the
// first read found, kept in the snapshot (siteSnapshot.listings): until the
// next committed write, the same query finds the same posts. Before, each
// read asked PostgreSQL for the page's versions (store.ListPostsCached; the
// rows themselves came from its cache): one statement, most of
// PostgreSQL's 0.3–0.5 ms of CPU for a listing page at 100,000 posts.

// listingKey is a website listing's query as a snapshot key.
type listingKey struct {
	typ, statuses, order, orderBy, author, tax string
	page, perPage                              int
	after, before                              int64
	stickyFirst                                bool
}

// listed is what a listing query found: a page of posts and the total.
type listed struct {
	posts []*store.Post
	total int
}

// keyOf is lq's key; ok is false when lq sets a field the key does not
// cover (a listing of another kind): it is then not kept.
func keyOf(lq *store.ListQuery) (key listingKey, ok bool) {
	rest := *lq
	key = listingKey{statuses: strings.Join(lq.Statuses, ","), order: lq.Order, orderBy: lq.OrderBy,
		page: lq.Page, perPage: lq.PerPage, stickyFirst: lq.StickyFirst}
	if lq.Type != nil {
		key.typ = lq.Type.Name
	}
	var b strings.Builder
	for _, a := range lq.Author {
		b.WriteString(strconv.FormatInt(a, 10) + ",")
	}
	key.author = b.String()
	b.Reset()
	for _, c := range lq.Tax {
		if c.Tax == nil {
			return key, false
		}
		b.WriteString(c.Tax.Name + ":" + c.Operator + ":" + strconv.FormatBool(c.IncludeChildren) + ":")
		for _, t := range c.Terms {
			b.WriteString(strconv.FormatInt(t, 10) + ",")
		}
		b.WriteByte(';')
	}
	key.tax = b.String()
	if lq.After != nil {
		key.after = lq.After.UnixNano()
	}
	if lq.Before != nil {
		key.before = lq.Before.UnixNano()
	}
	rest.Type, rest.Statuses, rest.Order, rest.OrderBy, rest.Page, rest.PerPage, rest.StickyFirst = nil, nil, "", "", 0, 0, false
	rest.Author, rest.Tax, rest.After, rest.Before = nil, nil, nil, nil
	return key, reflect.DeepEqual(rest, store.ListQuery{})
}

// listedPosts runs lq (store.ListPostsCached), or takes what it found
// earlier in this generation.
func (s *Handler) listedPosts(ctx context.Context, lq *store.ListQuery) ([]*store.Post, int, error) {
	key, ok := keyOf(lq)
	if !ok || !s.siteGen.online.Load() {
		// offline no snapshot is kept: the render loads its own
		return s.readListing(ctx, lq)
	}
	sn, err := s.snapshot(ctx)
	if err != nil {
		return nil, 0, err
	}
	if v, found := sn.listings.Load(key); found {
		l := v.(listed)
		return l.posts, l.total, nil
	}
	posts, total, err := s.readListing(ctx, lq)
	if err != nil {
		return nil, 0, err
	}
	cost := 0
	for _, p := range posts {
		cost += postSize(p)
	}
	sn.keep(&sn.listings, key, listed{posts: posts, total: total}, entryCost(cost))
	return posts, total, nil
}

// rowCachedPages is how many first pages of a listing are read through the
// row cache (s.rows, listedRowsMax rows): they are the pages read again
// after each write, when only their posts' versions need reading. A later
// page is read about once per visitor who goes that deep, its rows found
// in no cache: read through it, it cost a second statement (the versions,
// then the rows) and pushed the first pages' rows out of the cache; it is
// read in one statement instead (docs/performance.md).
const rowCachedPages = 3

// readListing reads lq's page from PostgreSQL.
func (s *Handler) readListing(ctx context.Context, lq *store.ListQuery) ([]*store.Post, int, error) {
	if lq.Page > rowCachedPages {
		return store.SiteListPosts(ctx, s.db(ctx), lq)
	}
	return store.ListPostsCached(ctx, s.db(ctx), lq, s.rows)
}

// termBySlug is store.TermBySlug kept for the generation, as the listing
// of a term's archive is: the archive read again runs no statement.
func (s *Handler) termBySlug(ctx context.Context, tax *store.Taxonomy, slug string) (*store.Term, error) {
	if !s.siteGen.online.Load() {
		return store.TermBySlug(ctx, s.db(ctx), tax, slug)
	}
	sn, err := s.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	key := tax.Name + ":" + slug
	if v, found := sn.termSlugs.Load(key); found {
		return v.(*store.Term), nil
	}
	t, err := store.TermBySlug(ctx, s.db(ctx), tax, slug)
	if err != nil {
		return nil, err
	}
	size := len(key)
	if t != nil {
		size += len(t.Name) + len(t.Description) + 128
	}
	sn.keep(&sn.termSlugs, key, t, entryCost(size))
	return t, nil
}
