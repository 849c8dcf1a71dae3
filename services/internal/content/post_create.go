package content

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// The create path (docs/performance.md#the-write-path). A create used to be
// eight round trips to PostgreSQL (begin, slug, insert, default category,
// re-read, notify, commit, generated slug). Now the reads it needs come
// first (the author, parent and featured media only when given; the slugs
// in use only for an explicit slug), and the write is ONE statement: the
// post with a slug derived from its title made unique there (the first of
// wp_unique_post_slug's candidates no other post holds), its term links (with
// their copies of the post's type, status and date, so no per-row trigger
// runs), the change notification, and back the post's id, its terms as
// get_the_terms orders them and its ancestor path. A single statement is
// its own transaction, so nothing is half-written; the count triggers run
// inside it. The answer is built from what was written: nothing is read
// back.

// createPost is POST /cms/v2/{base}.
func (s *Service) createPost(pt *store.PostType) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		now := s.now()
		p := &store.Post{Type: pt.Name, Status: "draft", Author: caller(c).UserID, CommentStatus: pt.DefaultCommentStatus,
			PingStatus: pt.DefaultCommentStatus, Format: "standard", DateGMT: now, DateFloating: true}
		if pt == store.TypePost {
			p.PingStatus = "open"
		}
		// in a batch's (or an idempotent request's) transaction, every
		// statement goes through it; otherwise through the pool
		q := s.db(c.Context())
		slugs, err := s.applyCreate(c, q, pt, p, now)
		if err != nil {
			return nil, err
		}
		c.Set("context", "edit") // write answers are in the edit context; the kit filters by it
		v := view{context: "edit", who: caller(c)}
		wantGenerated := pt.Public && c.Wants("generated_slug")
		// generated_slug is the title's slug made unique as if published: a
		// published post whose slug this write derived from its title has
		// exactly that one; otherwise it is looked up with the other reads
		// (before the insert: the new post is no other post's rival)
		fromTitle := !c.Has("slug") && !draftish(p.Status) && p.Slug != ""
		var generated string
		if wantGenerated && !fromTitle && store.SanitizeTitle(p.Title) != "" {
			slug, err := store.UniqueSlug(c.Context(), q, pt, store.SanitizeTitle(p.Title), 0, p.Parent, p.Slug)
			if err != nil {
				return nil, err
			}
			generated = slug
		}
		if p.Slug == "" && !draftish(p.Status) {
			// no slug from the title: the id itself (the reference, §4.6),
			// so the id is drawn first (a rare case)
			if err := q.QueryRow(c.Context(), `SELECT nextval('posts_id_seq')`).Scan(&p.ID); err != nil {
				return nil, fmt.Errorf("draw a post id: %w", err)
			}
			p.Slug = strconv.FormatInt(p.ID, 10)
		}
		if err := s.insertNewPost(c, q, pt, p, slugs); err != nil {
			return nil, err
		}
		if wantGenerated {
			switch {
			case fromTitle:
				generated = p.Slug
			case generated == "":
				// the title gives no slug: the id does (get_sample_permalink)
				g, err := store.GeneratedSlugs(c.Context(), q, pt, []*store.Post{p})
				if err != nil {
					return nil, err
				}
				generated = g[p.ID]
			}
			v.generated = map[int64]string{p.ID: generated}
		}
		res := &rest.Response{Status: http.StatusCreated, Data: s.prepare(pt, p, v), Header: http.Header{}}
		res.Header.Set("Location", s.permalinks.PostREST(pt, p.ID))
		return res, nil
	}
}

// draftish statuses keep a post without a slug until it is published.
func draftish(status string) bool {
	return status == "draft" || status == "pending" || status == "auto-draft"
}

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

func insertNewPostText(pt *store.PostType) string {
	if pt.Hierarchical {
		return insertNewPostTexts[1]
	}
	return insertNewPostTexts[0]
}

// insertNewPostTail: the ancestor path (pages) and the notification
// (NotifyChanged's, delivered on commit like every write's).
func insertNewPostTail(hierarchical bool) string {
	anc := store.NoAncestors
	if hierarchical {
		anc = store.AncestorsLateral
	}
	return anc + `
 CROSS JOIN LATERAL (SELECT pg_notify($27, $28)::text AS sent) n`
}

// insertNewPost stores the new post p (with its id when already drawn) in
// one statement and fills in its id, terms and ancestor path. With slug
// candidates (applyCreate), p.Slug becomes the first free one; when all
// are taken (rare: the title's slug and its first suffixed forms), the
// later rounds are looked up as an update's are and the insert runs again.
// The website's snapshot follows the write at once (site_cache.go).
func (s *Service) insertNewPost(c *rest.Request, q store.Querier, pt *store.PostType, p *store.Post, slugs []string) error {
	check := slugs != nil
	if !check {
		slugs = []string{p.Slug}
	}
	err := s.insertNewPostRow(c, q, pt, p, slugs, check)
	if errors.Is(err, pgx.ErrNoRows) && check {
		free, lerr := store.FreeSlugsAfterFirstRound(c.Context(), q, pt, []store.SlugWant{{Slug: p.Slug, Parent: p.Parent}})
		if lerr != nil {
			return lerr
		}
		p.Slug = free[0]
		err = s.insertNewPostRow(c, q, pt, p, free, false)
	}
	return err
}

// insertNewPostRow runs insertNewPostSQL; pgx.ErrNoRows (unwrapped) when
// every slug candidate was taken.
func (s *Service) insertNewPostRow(c *rest.Request, q store.Querier, pt *store.PostType, p *store.Post, slugs []string, check bool) error {
	var taxes []string
	var ids []int64
	for _, tax := range pt.Taxonomies {
		if c.Has(tax.Base) {
			for _, id := range c.Ints(tax.Base) {
				taxes, ids = append(taxes, tax.Name), append(ids, id)
			}
		}
	}
	defaultCategory := pt == store.TypePost && !c.Has(store.Category.Base) && p.Status != "auto-draft"
	var id *int64
	if p.ID != 0 {
		id = &p.ID
	}
	defer s.commits.Committed()
	var sent string
	err := q.QueryRow(c.Context(), insertNewPostText(pt), id, p.Type, p.Status, p.Author, p.DateGMT,
		p.DateFloating, p.ModifiedGMT, slugs, p.Title, p.Content, p.Excerpt, p.Password, p.Parent, p.MenuOrder,
		p.CommentStatus, p.PingStatus, p.Format, p.Sticky, p.Template, p.FeaturedMedia, p.Footnotes, p.SyncStatus,
		p.Autosave, taxes, ids, defaultCategory, postgres.ChangesChannel, contract.ServiceContent, store.DefaultCategoryID, check, pt.Hierarchical).
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
	if set := store.SlugSetFrom(c.Context()); set != nil {
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
