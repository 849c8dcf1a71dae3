package content

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
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
			if p.ID, err = store.NextPostID(c.Context(), q); err != nil {
				return nil, err
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

// insertNewPost stores the new post p (with its id when already drawn) in
// one statement and fills in its id, terms and ancestor path. With slug
// candidates (applyCreate), p.Slug becomes the first free one; when all
// are taken (rare: the title's slug and its first suffixed forms), the
// later rounds are looked up as an update's are and the insert runs again.
// The website's snapshot follows the write at once (store.Commits).
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
	defer s.commits.Committed()
	return store.InsertNewPost(c.Context(), q, pt, p, store.NewPostTerms{Taxonomies: taxes, IDs: ids, DefaultCategory: defaultCategory}, slugs, check)
}
