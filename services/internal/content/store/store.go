package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"siteplane.dev/services/internal/platform/postgres"
)

// Querier is a pool or a transaction.
type Querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// GetPost reads one post (any type) with its terms; nil when absent.
func GetPost(ctx context.Context, q Querier, id int64) (*Post, error) {
	return GetPostAs(ctx, q, id, false, nil)
}

// GetPosts reads the posts of ids in one statement, by id; an id without a
// post has no entry.
func GetPosts(ctx context.Context, q Querier, ids []int64) (map[int64]*Post, error) {
	return getPostsBy(ctx, q, "SELECT "+PostColumns+PostFrom+" WHERE p.id = ANY($1)", ids)
}

// getPostsBy runs sql (PostColumns, or as many columns of the same types,
// for the posts of ids in $1) and maps its posts by id.
func getPostsBy(ctx context.Context, q Querier, sql string, ids []int64) (map[int64]*Post, error) {
	rows, err := q.Query(ctx, sql, ids)
	if err != nil {
		return nil, fmt.Errorf("select %d posts: %w", len(ids), err)
	}
	defer rows.Close()
	out := make(map[int64]*Post, len(ids))
	for rows.Next() {
		p, err := ScanPost(rows)
		if err != nil {
			return nil, fmt.Errorf("scan %d posts: %w", len(ids), err)
		}
		out[p.ID] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("select %d posts: %w", len(ids), err)
	}
	return out, nil
}

// GetPostAs is getPost for a post expected to be of type pt (nil: any), with
// the smaller statement of that type.
func GetPostAs(ctx context.Context, q Querier, id int64, lock bool, pt *PostType) (*Post, error) {
	from := PostFrom
	if pt != nil {
		from = " FROM posts p" + LateralsFor(pt)
	}
	sql := "SELECT " + PostColumns + from + " WHERE p.id = $1"
	if lock {
		sql += " FOR UPDATE OF p"
	}
	p, err := ScanPost(q.QueryRow(ctx, sql, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("select post %d: %w", id, err)
	}
	return p, nil
}

// ListPosts runs a collection query: the page and the total in one round
// trip; a second count only when the page is empty but an offset was used.
func ListPosts(ctx context.Context, q Querier, lq *ListQuery) ([]*Post, int, error) {
	return listPostsOf(ctx, q, lq, LateralsFor(lq.Type))
}

// listPostsOf is ListPosts reading each post's terms, revisions and
// ancestors through laterals.
func listPostsOf(ctx context.Context, q Querier, lq *ListQuery, laterals string) ([]*Post, int, error) {
	sql, args := ListSQLOf(lq, PostColumns, laterals)
	out, inPage, total, err := ListPage(ctx, q, lq, "posts", sql, args, func(row pgx.Row, extra ...any) (*Post, error) {
		return ScanPost(row, extra...)
	})
	if err != nil {
		return nil, 0, err
	}
	return FinishList(lq, out, inPage), total, nil
}

// ListPage runs a post listing's statement (listSQLOf's shape: each row's
// columns, then the total and the row's place in the page, both NULL on
// the extra sticky rows): the rows, whether each is in the page, and the
// total.
func ListPage[T any](ctx context.Context, q Querier, lq *ListQuery, name, sql string, args []any,
	scan func(row pgx.Row, extra ...any) (T, error)) ([]T, []bool, int, error) {
	type row struct {
		v      T
		inPage bool
	}
	// the total and the place in the page are scanned into the same two
	// variables for every row: fresh ones a row cost three allocations
	var t, rn *int64
	extra := []any{&t, &rn}
	rows, total, err := postgres.QueryPage(ctx, q, postgres.Page{Name: name, Select: sql, Args: args,
		Count: func() (string, []any) { return countSQL(lq) }, PastStart: PastStart(lq)},
		func(rows pgx.Rows, total *int64) (row, error) {
			t, rn = nil, nil
			v, err := scan(rows, extra...)
			if t != nil {
				*total = *t
			}
			return row{v, rn != nil}, err
		})
	if err != nil {
		return nil, nil, 0, err
	}
	out := make([]T, len(rows))
	inPage := make([]bool, len(rows))
	for i, r := range rows {
		out[i], inPage[i] = r.v, r.inPage
	}
	return out, inPage, total, nil
}

// PastStart says whether lq asks for a page after the first (by page or
// offset), where an empty page needs its total counted apart.
func PastStart(lq *ListQuery) bool { return lq.Page > 1 || (lq.Offset != nil && *lq.Offset > 0) }

// FinishList puts a sticky listing's posts in order: rows come page first,
// by rn, then the extra sticky posts.
func FinishList(lq *ListQuery, out []*Post, inPage []bool) []*Post {
	if lq.StickyFirst {
		out = stickyOrder(out, inPage)
	}
	return out
}

const insertPostSQL = `INSERT INTO posts (type, status, author, date_gmt, date_floating, modified_gmt, slug, title,
 content, excerpt, password, parent, menu_order, comment_status, ping_status, format, sticky, template,
 featured_media, footnotes, sync_status, autosave, trash_status)
 VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23) RETURNING id`

// InsertPost writes the new post p and sets its id.
func InsertPost(ctx context.Context, q Querier, p *Post) error {
	err := q.QueryRow(ctx, insertPostSQL, p.Type, p.Status, p.Author, p.DateGMT, p.DateFloating, p.ModifiedGMT,
		p.Slug, p.Title, p.Content, p.Excerpt, p.Password, p.Parent, p.MenuOrder, p.CommentStatus, p.PingStatus,
		p.Format, p.Sticky, p.Template, p.FeaturedMedia, p.Footnotes, p.SyncStatus, p.Autosave, p.TrashStatus).Scan(&p.ID)
	if err != nil {
		return fmt.Errorf("insert %s: %w", p.Type, err)
	}
	return nil
}

const updatePostSQL = `UPDATE posts SET status=$2, author=$3, date_gmt=$4, date_floating=$5, modified_gmt=$6,
 slug=$7, title=$8, content=$9, excerpt=$10, password=$11, parent=$12, menu_order=$13, comment_status=$14,
 ping_status=$15, format=$16, sticky=$17, template=$18, featured_media=$19, footnotes=$20, sync_status=$21,
 trash_status=$22 WHERE id=$1`

// UpdatePost writes p's row.
func UpdatePost(ctx context.Context, q Querier, p *Post) error {
	_, err := q.Exec(ctx, updatePostSQL, p.ID, p.Status, p.Author, p.DateGMT, p.DateFloating, p.ModifiedGMT,
		p.Slug, p.Title, p.Content, p.Excerpt, p.Password, p.Parent, p.MenuOrder, p.CommentStatus, p.PingStatus,
		p.Format, p.Sticky, p.Template, p.FeaturedMedia, p.Footnotes, p.SyncStatus, p.TrashStatus)
	if err != nil {
		return fmt.Errorf("update post %d: %w", p.ID, err)
	}
	return nil
}

// IsAncestorOrSelf reports whether id is parent or one of parent's
// ancestors, i.e. whether making parent the parent of id closes a loop.
func IsAncestorOrSelf(ctx context.Context, q Querier, id, parent int64) (bool, error) {
	var loop bool
	err := q.QueryRow(ctx, `WITH RECURSIVE a(id, parent, depth) AS (
		SELECT id, parent, 1 FROM posts WHERE id = $2
		UNION ALL SELECT y.id, y.parent, a.depth + 1 FROM posts y JOIN a ON y.id = a.parent WHERE a.depth < 64)
		SELECT EXISTS (SELECT 1 FROM a WHERE id = $1)`, id, parent).Scan(&loop)
	if err != nil {
		return false, fmt.Errorf("look for a parent loop of post %d: %w", id, err)
	}
	return loop, nil
}

// DeletePost removes a post and its revisions (WordPress deletes a post's
// revisions with it); term links go by cascade. Children of the same type
// move up to the deleted post's parent, as wp_delete_post does for
// hierarchical types. One statement.
func DeletePost(ctx context.Context, q Querier, p *Post) error {
	_, err := q.Exec(ctx, `WITH moved AS (
		UPDATE posts SET parent = $3 WHERE parent = $1 AND type = $2 AND type <> 'revision')
		DELETE FROM posts WHERE id = $1 OR (parent = $1 AND type = 'revision')`, p.ID, p.Type, p.Parent)
	if err != nil {
		return fmt.Errorf("delete post %d: %w", p.ID, err)
	}
	return nil
}

// SetTerms replaces the post's terms of tax with ids (wp_set_object_terms).
func SetTerms(ctx context.Context, q Querier, postID int64, tax *Taxonomy, ids []int64) error {
	if _, err := q.Exec(ctx, `DELETE FROM term_relationships r USING terms t
		WHERE r.post_id = $1 AND t.id = r.term_id AND t.taxonomy = $2`, postID, tax.Name); err != nil {
		return fmt.Errorf("clear %s of post %d: %w", tax.Name, postID, err)
	}
	if len(ids) == 0 {
		return nil
	}
	_, err := q.Exec(ctx, `INSERT INTO term_relationships (post_id, term_id)
		SELECT $1, id FROM terms WHERE taxonomy = $2 AND id = ANY($3) ON CONFLICT DO NOTHING`, postID, tax.Name, ids)
	if err != nil {
		return fmt.Errorf("set %s of post %d: %w", tax.Name, postID, err)
	}
	return nil
}

// UniqueSlug is wp_unique_post_slug: the first free slug among slug,
// slug-2, slug-3, … within the type (and the parent for hierarchical types);
// stored is the post's current slug ("" for a new post).
func UniqueSlug(ctx context.Context, q Querier, pt *PostType, slug string, id, parent int64, stored string) (string, error) {
	if slug == "" {
		return "", nil
	}
	want := SlugWant{Slug: slug, stored: stored, id: id, Parent: parent}
	if set := SlugSetFrom(ctx); set != nil {
		if free, ok := set.Free(pt, want); ok {
			return free, nil // read ahead by the batch (batch_slugs.go)
		}
	}
	out, err := freeSlugs(ctx, q, pt, []SlugWant{want})
	if err != nil {
		return "", err
	}
	return out[0], nil
}

// SlugWant is one wp_unique_post_slug question: the free form of slug for
// post id (0: a new post) under parent, whose current slug is stored.
type SlugWant struct {
	Slug, stored string
	id, Parent   int64
}

// SlugProbe is how many suffixed forms (slug-2 …) the first round asks
// about with the slug itself; later rounds ask about four times more.
const SlugProbe = 8

// freeSlugs answers every want: the first candidate (the slug itself unless
// reserved, then slug-2, slug-3, …) that no other post of the scope has.
// Candidates are looked up by equality, a round of them per statement, so
// the statement has one plan whatever the slug (a prefix LIKE needs a plan
// per pattern) and reads only the rows that hold a candidate.
func freeSlugs(ctx context.Context, q Querier, pt *PostType, wants []SlugWant) ([]string, error) {
	return freeSlugsFrom(ctx, q, pt, wants, 0, SlugProbe)
}

// FreeSlugsAfterFirstRound is freeSlugs for wants whose first round of
// candidates is known to be taken (a create's insert found them so).
func FreeSlugsAfterFirstRound(ctx context.Context, q Querier, pt *PostType, wants []SlugWant) ([]string, error) {
	return freeSlugsFrom(ctx, q, pt, wants, 2+SlugProbe, 4*SlugProbe)
}

// freeSlugsFrom is freeSlugs starting at suffix from (0: the slug itself)
// with rounds of size candidates.
func freeSlugsFrom(ctx context.Context, q Querier, pt *PostType, wants []SlugWant, from, size int) ([]string, error) {
	out := make([]string, len(wants))
	next := make([]int, len(wants)) // the next suffix to ask about; 0: the slug itself first
	for i := range next {
		next[i] = from
	}
	for {
		var cands []string
		open := 0
		for i, w := range wants {
			if out[i] != "" {
				continue
			}
			open++
			cands = append(cands, RoundCandidates(pt, w, next[i], size)...)
		}
		if open == 0 {
			return out, nil
		}
		rows, err := q.Query(ctx, `SELECT id, parent, slug FROM posts WHERE type = $1 AND slug = ANY($2)`, pt.Name, cands)
		if err != nil {
			return nil, fmt.Errorf("select slugs in use: %w", err)
		}
		type row struct {
			id, parent int64
			slug       string
		}
		var taken []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.id, &r.parent, &r.slug); err != nil {
				rows.Close()
				return nil, fmt.Errorf("select slugs in use: %w", err)
			}
			taken = append(taken, r)
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("select slugs in use: %w", err)
		}
		for i, w := range wants {
			if out[i] != "" {
				continue
			}
			used := map[string]bool{}
			for _, r := range taken {
				if r.id != w.id && (!pt.Hierarchical || r.parent == w.Parent) {
					used[r.slug] = true
				}
			}
			for _, c := range RoundCandidates(pt, w, next[i], size) {
				if !used[c] {
					out[i] = c
					break
				}
			}
			if next[i] == 0 {
				next[i] = 2
			}
			next[i] += size
		}
		size *= 4
	}
}

// RoundCandidates are the candidates of one round, in wp_unique_post_slug's
// order: from 0 means the slug itself (unless WordPress never hands it out)
// and its first size suffixed forms; otherwise size forms from slug-from.
func RoundCandidates(pt *PostType, w SlugWant, from, size int) []string {
	out := make([]string, 0, size+1)
	if from == 0 {
		if !ReservedSlug(w.Slug, pt.Hierarchical) && !(pt == TypePost && w.Slug != w.stored && dateArchiveSlug(w.Slug)) {
			out = append(out, w.Slug)
		}
		from = 2
	}
	for n := from; n < from+size; n++ {
		out = append(out, SlugCandidate(w.Slug, n))
	}
	return out
}

// GeneratedSlugs computes generated_slug for posts of type pt in one query
// (more only when a title's first forms are all taken): get_sample_permalink
// derives the slug from the title (the id when the title gives none), as if
// published, made unique with wp_unique_post_slug.
func GeneratedSlugs(ctx context.Context, q Querier, pt *PostType, posts []*Post) (map[int64]string, error) {
	wants := make([]SlugWant, len(posts))
	for i, p := range posts {
		wants[i] = SlugWant{Slug: generatedBase(p), stored: p.Slug, id: p.ID, Parent: p.Parent}
	}
	slugs, err := freeSlugs(ctx, q, pt, wants)
	if err != nil {
		return nil, fmt.Errorf("generated slugs: %w", err)
	}
	out := make(map[int64]string, len(posts))
	for i, p := range posts {
		out[p.ID] = slugs[i]
	}
	return out, nil
}

// generatedBase is what get_sample_permalink starts from: the title's slug,
// else the id.
func generatedBase(p *Post) string {
	if b := SanitizeTitle(p.Title); b != "" {
		return b
	}
	return strconv.FormatInt(p.ID, 10)
}

// dateArchiveSlug reports a post slug that would read as a date archive:
// with the permalink structure /%postname%/ (postname first), any non-zero
// number could be a year. wp_unique_post_slug suffixes such a slug unless
// the post already has it.
func dateArchiveSlug(slug string) bool {
	if slug == "" || strings.Trim(slug, "0123456789") != "" {
		return false
	}
	return strings.Trim(slug, "0") != ""
}

// TrashedSlug is the slug WordPress gives a trashed post (…__trashed), so
// that the original slug is free again.
func TrashedSlug(slug string) string {
	if slug == "" || strings.HasSuffix(slug, "__trashed") {
		return slug
	}
	return truncateSlug(slug, maxSlugLength-9) + "__trashed"
}

// AddDefaultCategory gives a post without a category the default one, as
// wp_insert_post does (when that category exists).
func AddDefaultCategory(ctx context.Context, q Querier, postID int64) error {
	// the default_category setting (content/settings.go) wins over WordPress's 1
	if _, err := q.Exec(ctx, `WITH d AS (SELECT COALESCE((SELECT (value #>> '{}')::bigint FROM settings
			WHERE name = 'default_category'), $2::bigint) AS id)
		INSERT INTO term_relationships (post_id, term_id)
		SELECT $1, d.id FROM d WHERE NOT EXISTS (SELECT 1 FROM term_relationships r JOIN terms t ON t.id = r.term_id
			WHERE r.post_id = $1 AND t.taxonomy = 'category')
		AND EXISTS (SELECT 1 FROM terms WHERE id = d.id AND taxonomy = 'category')`, postID, DefaultCategoryID); err != nil {
		return fmt.Errorf("add the default category to post %d: %w", postID, err)
	}
	return nil
}

// SetPostSlug stores a post's slug alone.
func SetPostSlug(ctx context.Context, q Querier, id int64, slug string) error {
	if _, err := q.Exec(ctx, `UPDATE posts SET slug = $2 WHERE id = $1`, id, slug); err != nil {
		return fmt.Errorf("set the slug of post %d: %w", id, err)
	}
	return nil
}

// DeleteRevision removes one revision or autosave.
func DeleteRevision(ctx context.Context, q Querier, id int64) error {
	if _, err := q.Exec(ctx, `DELETE FROM posts WHERE id = $1`, id); err != nil {
		return fmt.Errorf("delete revision %d: %w", id, err)
	}
	return nil
}

// ListAutosaveRows reads every autosave of parent, newest first.
func ListAutosaveRows(ctx context.Context, q Querier, parent int64) ([]*Post, error) {
	rows, err := q.Query(ctx, "SELECT "+PostColumns+" FROM posts p"+LateralsFor(&PostType{})+
		` WHERE p.parent = $1 AND p.type = 'revision' AND p.autosave ORDER BY p.date_gmt DESC, p.id DESC`, parent)
	if err != nil {
		return nil, fmt.Errorf("list autosaves of post %d: %w", parent, err)
	}
	defer rows.Close()
	var out []*Post
	for rows.Next() {
		p, err := ScanPost(rows)
		if err != nil {
			return nil, fmt.Errorf("list autosaves of post %d: %w", parent, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list autosaves of post %d: %w", parent, err)
	}
	return out, nil
}

// UpdateAutosave overwrites an autosave's text, date and author with rev's.
func UpdateAutosave(ctx context.Context, q Querier, rev *Post) error {
	if _, err := q.Exec(ctx, `UPDATE posts SET title=$2, content=$3, excerpt=$4, footnotes=$5,
		date_gmt=$6, modified_gmt=$6, author=$7 WHERE id=$1`, rev.ID, rev.Title, rev.Content, rev.Excerpt,
		rev.Footnotes, rev.ModifiedGMT, rev.Author); err != nil {
		return fmt.Errorf("update autosave %d: %w", rev.ID, err)
	}
	return nil
}

// one is the answer of a read of one row by id: the row, or nil (and no
// error) when there is none; what names the read in an error.
func one[T any](v *T, err error, what string, id int64) (*T, error) {
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s %d: %w", what, id, err)
	}
	return v, nil
}
