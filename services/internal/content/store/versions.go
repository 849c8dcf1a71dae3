package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// PostVersion is what a version read gives of a post.
type PostVersion struct {
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

// VersionColumns is what a version read selects of each post (scanVersion
// reads it) through versionLaterals; p.date_gmt orders the sticky listing
// (listSQLOf).
const VersionColumns = `p.id, p.xmin, p.modified_gmt, p.date_gmt,
 ARRAY(SELECT r.term_id FROM term_relationships r WHERE r.post_id = p.id ORDER BY r.term_id), ` + termGenSQL + `,
 rv.n, rv.latest, anc.path`

// VersionLaterals is the joins versionColumns needs for posts of type pt:
// lateralsFor's but the terms (the costly part: a join and three sorts).
func VersionLaterals(pt *PostType) string {
	if pt.Hierarchical {
		return RevisionsLateral + AncestorsLateral
	}
	return RevisionsLateral + NoAncestors
}

// ScanVersion reads versionColumns.
func ScanVersion(row pgx.Row, extra ...any) (*PostVersion, error) {
	v := &PostVersion{}
	dest := []any{&v.ID, &v.Xmin, &v.ModifiedGMT, &v.DateGMT, &v.TermSet, &v.TermGen,
		&v.Revisions, &v.LatestRevision, &v.AncestorPath}
	if err := row.Scan(append(dest, extra...)...); err != nil {
		return nil, err
	}
	return v, nil
}

// TermSet is p's term ids in ascending order (a postVersion's TermSet).
func TermSet(p *Post) []int64 {
	ids := slices.Clone(p.TermIDs)
	slices.Sort(ids)
	return ids
}

// isVersion reports whether p, read whole, is version v.
func (v *PostVersion) isVersion(p *Post) bool {
	return v.ID == p.ID && v.Xmin == p.Xmin && v.Xmin != 0 && v.TermGen == p.TermGen && v.TermGen != 0 &&
		v.ModifiedGMT.Equal(p.ModifiedGMT) && v.Revisions == p.Revisions && v.LatestRevision == p.LatestRevision &&
		v.AncestorPath == p.AncestorPath && slices.Equal(v.TermSet, TermSet(p))
}

// SameRead reports whether a and b, both read whole with the terms'
// generation, are the same version of a post.
func SameRead(a, b *Post) bool {
	return a.ID == b.ID && a.Xmin == b.Xmin && a.Xmin != 0 && a.TermGen == b.TermGen && a.TermGen != 0 &&
		a.ModifiedGMT.Equal(b.ModifiedGMT) && slices.Equal(a.TermIDs, b.TermIDs) &&
		slices.Equal(a.TermTaxonomies, b.TermTaxonomies) && slices.Equal(a.TermSlugs, b.TermSlugs) &&
		a.Revisions == b.Revisions && a.LatestRevision == b.LatestRevision && a.AncestorPath == b.AncestorPath
}

// ErrVersionMoved: a post changed between a list's version read and the
// read of its missing rows (the caller reads the page again whole).
var ErrVersionMoved = errors.New("a post changed between its version and its row")

// FetchVersions reads the whole rows of the posts ids (of type pt) into
// out at the places at gives, each of which must be the version versions
// holds there.
func FetchVersions(ctx context.Context, q Querier, pt *PostType, ids []int64, versions []*PostVersion, at map[int64]int, out []*Post) error {
	rows, err := q.Query(ctx, "SELECT "+PostColumns+", "+termGenSQL+" FROM posts p"+LateralsFor(pt)+" WHERE p.id = ANY($1)", ids)
	if err != nil {
		return fmt.Errorf("select posts %v: %w", ids, err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var gen int64
		p, err := ScanPost(rows, &gen)
		if err != nil {
			return fmt.Errorf("select posts %v: %w", ids, err)
		}
		p.TermGen = gen
		i, ok := at[p.ID]
		if !ok || !versions[i].isVersion(p) {
			return ErrVersionMoved
		}
		out[i] = p
		n++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("select posts %v: %w", ids, err)
	}
	if n != len(ids) { // deleted in between
		return ErrVersionMoved
	}
	return nil
}

// VersionOf reads post id's version; errNoPost when there is no such post.
func VersionOf(ctx context.Context, q Querier, pt *PostType, id int64) (*PostVersion, error) {
	v, err := ScanVersion(q.QueryRow(ctx, "SELECT "+VersionColumns+" FROM posts p"+VersionLaterals(pt)+" WHERE p.id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNoPost
	}
	if err != nil {
		return nil, fmt.Errorf("select post %d version: %w", id, err)
	}
	return v, nil
}

var ErrNoPost = errors.New("no such post")

// GetPostWithGen is getPostAs (no lock) reading the terms' generation too,
// so that the post's JSON, once cached, can be checked by version.
func GetPostWithGen(ctx context.Context, q Querier, pt *PostType, id int64) (*Post, error) {
	var gen int64
	p, err := ScanPost(q.QueryRow(ctx, "SELECT "+PostColumns+", "+termGenSQL+" FROM posts p"+LateralsFor(pt)+" WHERE p.id = $1", id), &gen)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("select post %d: %w", id, err)
	}
	p.TermGen = gen
	return p, nil
}

// ListVersions reads the versions of a listing's posts (listSQLOf with
// versionColumns), whether each is in the page (else an extra sticky
// post), and the total.
func ListVersions(ctx context.Context, q Querier, lq *ListQuery) ([]*PostVersion, []bool, int, error) {
	sql, args := ListSQLOf(lq, VersionColumns, VersionLaterals(lq.Type))
	return ListPage(ctx, q, lq, "post versions", sql, args, ScanVersion)
}
