package content

import (
	"context"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
)

// Anonymous reads mostly find every post they show already encoded
// (post_cache.go); reading the posts' whole rows (their content above all)
// only to find them unchanged cost PostgreSQL, the socket and the scan more
// than anything else in such a read. So they read each post's version
// first: the id, the row's xmin and modified_gmt, and what its JSON takes
// from other rows (its term ids, the terms table's generation, its revision
// count and latest revision, a page's ancestor path), and fetch whole rows
// only for the posts whose version is not cached.
//
// Why a version identifies the JSON exactly: everything a cached post's
// JSON holds comes from its row, its term links, its terms' names and
// slugs, its revisions, its parent pages' slugs, its type and the site's
// URL and zone (the cache entry keeps the type and zone).
//   - The row: every UPDATE of a row, whoever sends it and even one that
//     sets the same values, writes a new row version whose xmin is the
//     writing transaction's id; of the versions one transaction writes,
//     other sessions only ever see its last. Freezing keeps xmin readable
//     (PostgreSQL 9.4 and later). A transaction id comes round again only
//     after 2^32 transactions; modified_gmt is compared too, so a stale
//     answer would need the same post rewritten 2^32 transactions later
//     with the same modification time while its entry stayed cached.
//   - Term links, revisions, the ancestor path: read as they are (the
//     post's term ids from term_relationships' primary key, the revision
//     count and newest id, the path) and compared.
//   - Terms' names and slugs: the terms table's generation (migration
//     0320), which every statement writing terms raises in its own
//     transaction; the same number in two reads means the same terms.
//
// Entries are made only from reads outside any transaction (see
// encodedPost.versioned).

// inBatchTx reports whether ctx runs inside a batch transaction (Service.db
// reads through it).
func inBatchTx(ctx context.Context) bool {
	_, ok := ctx.Value(txKey{}).(pgx.Tx)
	return ok
}

// cachedRow returns a copy of the row cached for post v.ID, encoded for pt,
// when it is version v; nil otherwise.
func (s *Service) cachedRow(pt *store.PostType, v *store.PostVersion) *store.Post {
	s.encoded.mu.RLock()
	e := s.encoded.m[v.ID]
	s.encoded.mu.RUnlock()
	if e == nil || !e.versioned || e.pt != pt || !e.isVersion(v) {
		return nil
	}
	p := e.row // a copy: callers get their own Post (its slices are only read)
	return &p
}

// hasCachedRow reports whether a version of post id is cached for pt: only
// then is a version read worth its round trip.
func (s *Service) hasCachedRow(pt *store.PostType, id int64) bool {
	s.encoded.mu.RLock()
	e := s.encoded.m[id]
	s.encoded.mu.RUnlock()
	return e != nil && e.versioned && e.pt == pt
}

// listPostsByVersion is listPosts for a reader whose posts' JSON is cached:
// the page's versions (with the total, in the same statement as listSQL's)
// and, in a second statement, the whole rows of the posts whose version is
// not cached. A post that changed in between (its row is not the version
// read) makes it give up with errVersionMoved, so the answer is always the
// page of one snapshot.
func (s *Service) listPostsByVersion(ctx context.Context, q store.Querier, lq *store.ListQuery) ([]*store.Post, int, error) {
	return store.ListByVersion(ctx, q, lq, func(v *store.PostVersion) *store.Post { return s.cachedRow(lq.Type, v) },
		func(*store.Post) {})
}

// postByVersion reads post id's version and returns the cached row when
// it is that version; nil (and no error) when the row must be read whole,
// errNoPost when there is no such post.
func (s *Service) postByVersion(ctx context.Context, q store.Querier, pt *store.PostType, id int64) (*store.Post, error) {
	v, err := store.VersionOf(ctx, q, pt, id)
	if err != nil {
		return nil, err
	}
	return s.cachedRow(pt, v), nil
}
