package content

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
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

// postVersion is what a version read gives of a post.
type postVersion struct {
	ID          int64
	Xmin        uint32
	ModifiedGMT time.Time
	DateGMT     time.Time // unused: orders a sticky listing in SQL
	// TermSet is the post's term ids in ascending order; TermGen the
	// terms table's generation
	TermSet        []int64
	TermGen        int64
	Revisions      int
	LatestRevision int64
	AncestorPath   string
}

// termGenSQL reads the terms table's generation (once per statement).
const termGenSQL = "(SELECT n FROM term_generation)"

// versionColumns is what a version read selects of each post (scanVersion
// reads it) through versionLaterals; p.date_gmt orders the sticky listing
// (listSQLOf).
const versionColumns = `p.id, p.xmin, p.modified_gmt, p.date_gmt,
 ARRAY(SELECT r.term_id FROM term_relationships r WHERE r.post_id = p.id ORDER BY r.term_id), ` + termGenSQL + `,
 rv.n, rv.latest, anc.path`

// versionLaterals is the joins versionColumns needs for posts of type pt:
// lateralsFor's but the terms (the costly part: a join and three sorts).
func versionLaterals(pt *PostType) string {
	if pt.Hierarchical {
		return revisionsLateral + ancestorsLateral
	}
	return revisionsLateral + noAncestors
}

// scanVersion reads versionColumns.
func scanVersion(row pgx.Row, extra ...any) (*postVersion, error) {
	v := &postVersion{}
	dest := []any{&v.ID, &v.Xmin, &v.ModifiedGMT, &v.DateGMT, &v.TermSet, &v.TermGen,
		&v.Revisions, &v.LatestRevision, &v.AncestorPath}
	if err := row.Scan(append(dest, extra...)...); err != nil {
		return nil, err
	}
	return v, nil
}

// termSet is p's term ids in ascending order (a postVersion's TermSet).
func termSet(p *Post) []int64 {
	ids := slices.Clone(p.TermIDs)
	slices.Sort(ids)
	return ids
}

// isVersion reports whether p, read whole, is version v.
func (v *postVersion) isVersion(p *Post) bool {
	return v.ID == p.ID && v.Xmin == p.Xmin && v.Xmin != 0 && v.TermGen == p.TermGen && v.TermGen != 0 &&
		v.ModifiedGMT.Equal(p.ModifiedGMT) && v.Revisions == p.Revisions && v.LatestRevision == p.LatestRevision &&
		v.AncestorPath == p.AncestorPath && slices.Equal(v.TermSet, termSet(p))
}

// sameRead reports whether a and b, both read whole with the terms'
// generation, are the same version of a post.
func sameRead(a, b *Post) bool {
	return a.ID == b.ID && a.Xmin == b.Xmin && a.Xmin != 0 && a.TermGen == b.TermGen && a.TermGen != 0 &&
		a.ModifiedGMT.Equal(b.ModifiedGMT) && slices.Equal(a.TermIDs, b.TermIDs) &&
		slices.Equal(a.TermTaxonomies, b.TermTaxonomies) && slices.Equal(a.TermSlugs, b.TermSlugs) &&
		a.Revisions == b.Revisions && a.LatestRevision == b.LatestRevision && a.AncestorPath == b.AncestorPath
}

// inBatchTx reports whether ctx runs inside a batch transaction (Service.db
// reads through it).
func inBatchTx(ctx context.Context) bool {
	_, ok := ctx.Value(txKey{}).(pgx.Tx)
	return ok
}

// cachedRow returns a copy of the row cached for post v.ID, encoded for pt,
// when it is version v; nil otherwise.
func (s *Service) cachedRow(pt *PostType, v *postVersion) *Post {
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
func (s *Service) hasCachedRow(pt *PostType, id int64) bool {
	s.encoded.mu.RLock()
	e := s.encoded.m[id]
	s.encoded.mu.RUnlock()
	return e != nil && e.versioned && e.pt == pt
}

// errVersionMoved: a post changed between a list's version read and the
// read of its missing rows (the caller reads the page again whole).
var errVersionMoved = errors.New("a post changed between its version and its row")

// listPostsByVersion is listPosts for a reader whose posts' JSON is cached:
// the page's versions (with the total, in the same statement as listSQL's)
// and, in a second statement, the whole rows of the posts whose version is
// not cached. A post that changed in between (its row is not the version
// read) makes it give up with errVersionMoved, so the answer is always the
// page of one snapshot.
func (s *Service) listPostsByVersion(ctx context.Context, q querier, lq *ListQuery) ([]*Post, int, error) {
	sql, args := listSQLOf(lq, versionColumns, versionLaterals(lq.Type))
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list post versions: %w", err)
	}
	var versions []*postVersion
	var inPage []bool
	total := 0
	for rows.Next() {
		var t, rn *int64
		v, err := scanVersion(rows, &t, &rn)
		if err != nil {
			rows.Close()
			return nil, 0, fmt.Errorf("list post versions: %w", err)
		}
		if t != nil {
			total = int(*t)
		}
		versions = append(versions, v)
		inPage = append(inPage, rn != nil)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("list post versions: %w", err)
	}
	out := make([]*Post, len(versions))
	var missing []int64
	at := make(map[int64]int)
	for i, v := range versions {
		if p := s.cachedRow(lq.Type, v); p != nil {
			out[i] = p
			continue
		}
		missing = append(missing, v.ID)
		at[v.ID] = i
	}
	if len(missing) > 0 {
		if err := s.fetchVersions(ctx, q, lq.Type, missing, versions, at, out); err != nil {
			return nil, 0, err
		}
	}
	return finishList(ctx, q, lq, out, inPage, total)
}

// fetchVersions reads the whole rows of the posts ids (of type pt) into
// out at the places at gives, each of which must be the version versions
// holds there.
func (s *Service) fetchVersions(ctx context.Context, q querier, pt *PostType, ids []int64, versions []*postVersion, at map[int64]int, out []*Post) error {
	rows, err := q.Query(ctx, "SELECT "+postColumns+", "+termGenSQL+" FROM posts p"+lateralsFor(pt)+" WHERE p.id = ANY($1)", ids)
	if err != nil {
		return fmt.Errorf("select posts %v: %w", ids, err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var gen int64
		p, err := scanPost(rows, &gen)
		if err != nil {
			return fmt.Errorf("select posts %v: %w", ids, err)
		}
		p.TermGen = gen
		i, ok := at[p.ID]
		if !ok || !versions[i].isVersion(p) {
			return errVersionMoved
		}
		out[i] = p
		n++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("select posts %v: %w", ids, err)
	}
	if n != len(ids) { // deleted in between
		return errVersionMoved
	}
	return nil
}

// postByVersion reads post id's version and returns the cached row when
// it is that version; nil (and no error) when the row must be read whole,
// errNoPost when there is no such post.
func (s *Service) postByVersion(ctx context.Context, q querier, pt *PostType, id int64) (*Post, error) {
	v, err := scanVersion(q.QueryRow(ctx, "SELECT "+versionColumns+" FROM posts p"+versionLaterals(pt)+" WHERE p.id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, errNoPost
	}
	if err != nil {
		return nil, fmt.Errorf("select post %d version: %w", id, err)
	}
	return s.cachedRow(pt, v), nil
}

var errNoPost = errors.New("no such post")

// getPostWithGen is getPostAs (no lock) reading the terms' generation too,
// so that the post's JSON, once cached, can be checked by version.
func getPostWithGen(ctx context.Context, q querier, pt *PostType, id int64) (*Post, error) {
	var gen int64
	p, err := scanPost(q.QueryRow(ctx, "SELECT "+postColumns+", "+termGenSQL+" FROM posts p"+lateralsFor(pt)+" WHERE p.id = $1", id), &gen)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("select post %d: %w", id, err)
	}
	p.TermGen = gen
	return p, nil
}
