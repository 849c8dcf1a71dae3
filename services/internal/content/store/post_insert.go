package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// insertNewPostSQL writes a new post and its term links and announces the
// change, in one statement. The slug is the first of the candidates $8 (in
// order) that no other post of the type (and, $31, of the parent $13)
// holds, when $30 asks for that check (a slug derived from the title:
// wp_unique_post_slug's first round, freeSlugs's equality lookups), else
// $8's only element; when every candidate is taken nothing is written and
// no row comes back. $24/$25 are parallel arrays of (taxonomy, term
// id) the request assigns (unknown ids and ids of another taxonomy are
// skipped, as wp_set_object_terms does); $26 adds the default category
// (wp_insert_post, for a post that was given none: the default_category
// setting, else $29, WordPress's 1). The term links carry
// their post's type, status and date (the copy trigger need not run).
// Terms come back as get_the_terms orders them (termsLateral).
const insertNewPostSQL = `WITH s AS (
 SELECT c.slug FROM unnest($8::text[]) WITH ORDINALITY c(slug, n)
 WHERE NOT $30 OR NOT EXISTS (SELECT FROM posts o WHERE o.type = $2 AND o.slug = c.slug AND (NOT $31 OR o.parent = $13))
 ORDER BY c.n LIMIT 1),
p AS (
 INSERT INTO posts (id, type, status, author, date_gmt, date_floating, modified_gmt, slug, title,
  content, excerpt, password, parent, menu_order, comment_status, ping_status, format, sticky, template,
  featured_media, footnotes, sync_status, autosave, trash_status)
 SELECT COALESCE($1::bigint, nextval('posts_id_seq')), $2,$3,$4,$5,$6,$7,s.slug,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,''
 FROM s
 RETURNING id, slug, type, status, date_gmt, parent),
t AS (
 SELECT t.id FROM unnest($24::text[], $25::bigint[]) w(taxonomy, id) JOIN terms t ON t.id = w.id AND t.taxonomy = w.taxonomy
 UNION
 SELECT t.id FROM terms t WHERE $26 AND t.taxonomy = 'category' AND t.id = COALESCE((SELECT (value #>> '{}')::bigint
  FROM settings WHERE name = 'default_category'), $29::bigint)),
r AS (
 INSERT INTO term_relationships (post_id, term_id, post_type, post_status, post_date)
 SELECT p.id, t.id, p.type, p.status, p.date_gmt FROM p, t RETURNING term_id)
SELECT p.id, p.slug, tr.ids, tr.taxes, tr.slugs, anc.path, n.sent FROM p
 CROSS JOIN LATERAL (SELECT COALESCE(array_agg(x.id ORDER BY lower(x.name), x.id), '{}') AS ids,
   COALESCE(array_agg(x.taxonomy ORDER BY lower(x.name), x.id), '{}') AS taxes,
   COALESCE(array_agg(x.slug ORDER BY lower(x.name), x.id), '{}') AS slugs
   FROM r JOIN terms x ON x.id = r.term_id) tr`

// insertNewPostTexts are the statement's two texts (flat, hierarchical),
// built once.
var insertNewPostTexts = [2]string{insertNewPostSQL + insertNewPostTail(false), insertNewPostSQL + insertNewPostTail(true)}

func insertNewPostText(pt *PostType) string {
	if pt.Hierarchical {
		return insertNewPostTexts[1]
	}
	return insertNewPostTexts[0]
}

// insertNewPostTail: the ancestor path (pages) and the notification
// (NotifyChanged's, delivered on commit like every write's).
func insertNewPostTail(hierarchical bool) string {
	anc := NoAncestors
	if hierarchical {
		anc = AncestorsLateral
	}
	return anc + `
 CROSS JOIN LATERAL (SELECT pg_notify($27, $28)::text AS sent) n`
}

// NewPostTerms are the terms a new post is given: parallel (taxonomy,
// term id) pairs, and whether the default category is added.
type NewPostTerms struct {
	Taxonomies      []string
	IDs             []int64
	DefaultCategory bool
}

// InsertNewPost runs insertNewPostSQL; pgx.ErrNoRows (unwrapped) when
// every slug candidate was taken.
func InsertNewPost(ctx context.Context, q Querier, pt *PostType, p *Post, terms NewPostTerms, slugs []string, check bool) error {
	var id *int64
	if p.ID != 0 {
		id = &p.ID
	}
	var sent string
	err := q.QueryRow(ctx, insertNewPostText(pt), id, p.Type, p.Status, p.Author, p.DateGMT,
		p.DateFloating, p.ModifiedGMT, slugs, p.Title, p.Content, p.Excerpt, p.Password, p.Parent, p.MenuOrder,
		p.CommentStatus, p.PingStatus, p.Format, p.Sticky, p.Template, p.FeaturedMedia, p.Footnotes, p.SyncStatus,
		p.Autosave, terms.Taxonomies, terms.IDs, terms.DefaultCategory, postgres.ChangesChannel, contract.ServiceContent,
		DefaultCategoryID, check, pt.Hierarchical).
		Scan(&p.ID, &p.Slug, &p.TermIDs, &p.TermTaxonomies, &p.TermSlugs, &p.AncestorPath, &sent)
	if errors.Is(err, pgx.ErrNoRows) && check {
		return err // every candidate taken: nothing was written
	}
	if err != nil {
		err = fmt.Errorf("insert %s: %w", p.Type, err)
		if _, inTx := q.(pgx.Tx); !inTx {
			err = autocommitError(err)
		}
		return err
	}
	if set := SlugSetFrom(ctx); set != nil {
		set.Add(pt, p.ID, p.Parent, p.Slug)
	}
	return nil
}

// autocommitError classifies the error of a statement that commits by
// itself as postgres.CommitError does a COMMIT's: when the connection broke
// with the statement in flight, it may have committed.
func autocommitError(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) || pgconn.SafeToRetry(err) {
		return err
	}
	return postgres.CommitError(err)
}
