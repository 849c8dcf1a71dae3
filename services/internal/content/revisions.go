package content

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// revisionDiffers compares the revisioned fields (title, content, excerpt,
// footnotes) of two posts.
func revisionDiffers(a, b *store.Post) bool {
	return store.NormalizeWhitespace(a.Title) != store.NormalizeWhitespace(b.Title) ||
		store.NormalizeWhitespace(a.Content) != store.NormalizeWhitespace(b.Content) ||
		store.NormalizeWhitespace(a.Excerpt) != store.NormalizeWhitespace(b.Excerpt) ||
		a.Footnotes != b.Footnotes
}

// newRevision is _wp_post_revision_data: a copy of p's revisioned fields,
// dated at p's modification, by the current user.
func newRevision(p *store.Post, author int64, autosave bool) *store.Post {
	kind := "revision"
	if autosave {
		kind = "autosave"
	}
	return &store.Post{Type: "revision", Status: "inherit", Author: author, Parent: p.ID, DateGMT: p.ModifiedGMT,
		ModifiedGMT: p.ModifiedGMT, Slug: fmt.Sprintf("%d-%s-v1", p.ID, kind), Title: p.Title, Content: p.Content,
		Excerpt: p.Excerpt, Footnotes: p.Footnotes, CommentStatus: "closed", PingStatus: "closed",
		Format: "standard", Autosave: autosave}
}

// saveRevision is wp_save_post_revision on update (§5.2): the first update
// always stores a revision, later ones only when a revisioned field changed.
func (s *Service) saveRevision(c *rest.Request, tx pgx.Tx, p *store.Post) error {
	if p.Status == "auto-draft" {
		return nil
	}
	last, err := store.LatestRevision(c.Context(), tx, p.ID, false, 0)
	if err != nil {
		return err
	}
	if last != nil && !revisionDiffers(last, p) {
		return nil
	}
	return store.InsertPost(c.Context(), tx, newRevision(p, caller(c).UserID, false))
}

// prepareRevision renders a revision or autosave (§5.3), in WordPress's order.
func (s *Service) prepareRevision(pt *store.PostType, parent *store.Post, r *store.Post, viewCtx string, autosave bool) rest.Object {
	edit, embed := viewCtx == "edit", viewCtx == "embed"
	out := make(rest.Object, 0, 16)
	add := func(k string, v any) { out = append(out, rest.Member{Key: k, Value: v}) }
	text := func(raw, rendered string, rawAlways bool) rest.Object {
		o := rest.Object{}
		if edit || rawAlways {
			o = append(o, rest.Member{Key: "raw", Value: raw})
		}
		return append(o, rest.Member{Key: "rendered", Value: rendered})
	}
	add("author", r.Author)
	add("date", store.FormatLocal(r.DateGMT, s.location()))
	if !embed {
		add("date_gmt", store.FormatGMT(r.DateGMT))
	}
	add("id", r.ID)
	if !embed {
		add("modified", store.FormatLocal(r.ModifiedGMT, s.location()))
		add("modified_gmt", store.FormatGMT(r.ModifiedGMT))
	}
	add("parent", r.Parent)
	add("slug", r.Slug)
	if !embed {
		guid := rest.Object{{Key: "rendered", Value: s.permalinks.RevisionGUID(r.ID)}}
		if edit {
			guid = append(guid, rest.Member{Key: "raw", Value: s.permalinks.RevisionGUID(r.ID)})
		}
		add("guid", guid)
	}
	// a block's raw title is in view and edit, not embed (the blocks
	// controller's schema, which the revisions controller copies)
	add("title", text(r.Title, r.Title, !pt.RenderedText && !embed))
	if !embed && pt != store.MenuItemType { // menu items have no editor, so no content
		add("content", text(r.Content, store.RenderContent(r.Content), !pt.RenderedText))
	}
	if pt.Excerpt {
		// prepare_excerpt_response runs the_excerpt on the stored excerpt
		// only: an empty one stays "" (nothing is generated from the content)
		rendered := ""
		if strings.TrimSpace(r.Excerpt) != "" {
			rendered = store.Autop(r.Excerpt)
		}
		add("excerpt", text(r.Excerpt, rendered, false))
	}
	if !embed {
		add("meta", revisionMeta(pt, r))
	}
	if autosave && edit {
		// get_preview_post_link is empty for a type that is not viewable
		// (blocks, navigation, menu items)
		link := ""
		if pt.Public {
			link = s.permalinks.Post(pt, parent)
			if r.Type == "revision" {
				// an autosave beside the post: the website shows it to
				// its author at this link (website/site_preview.go).
				// WordPress adds a preview_nonce too; the page shows
				// only the signed-in caller's own autosave, so a link
				// passed on shows anyone else nothing of it.
				link += previewSep(link) + "preview_id=" + strconv.FormatInt(parent.ID, 10)
			}
			link += previewSuffix(link)
		}
		add("preview_link", link)
	}
	// the parent link is the item's own parent field: an author's draft
	// autosaved in place is the post itself, usually without a parent
	if r.Parent != 0 {
		add("_links", rest.Object{{Key: "parent", Value: []any{href(s.permalinks.PostREST(pt, r.Parent))}}})
	}
	return out
}

// revisionMeta is the revisions controller's meta: every meta key
// registered for the parent type, read from the revision, which stores only
// footnotes. A block's sync status is not revisioned, so it is null there
// (its schema has no default); a type with no meta answers [] (menu items,
// navigation), as WordPress 6.9.7 does.
func revisionMeta(pt *store.PostType, r *store.Post) any {
	var meta rest.Object
	if pt.SyncStatus {
		meta = append(meta, rest.Member{Key: "wp_pattern_sync_status", Value: nil})
	}
	if pt.Footnotes {
		meta = append(meta, rest.Member{Key: "footnotes", Value: r.Footnotes})
	}
	if meta == nil {
		return []any{}
	}
	return meta
}

func previewSuffix(link string) string {
	return previewSep(link) + "preview=true"
}

// previewSep is what joins one more query argument to link.
func previewSep(link string) string {
	if strings.Contains(link, "?") {
		return "&"
	}
	return "?"
}

var errInvalidParent = rest.NewError("rest_post_invalid_parent", "Invalid post parent ID.", http.StatusNotFound)

// getParent is the revisions controller's get_parent.
func getParent(c *rest.Request, q store.Querier, pt *store.PostType, param string) (*store.Post, error) {
	id := c.Int(param)
	if id <= 0 {
		return nil, errInvalidParent
	}
	p, err := store.GetPostAs(c.Context(), q, id, false, pt)
	if err != nil {
		return nil, err
	}
	if p == nil || p.Type != pt.Name {
		return nil, errInvalidParent
	}
	return p, nil
}

// loadParent is the revisions controller's get_parent plus its read check.
func (s *Service) loadParent(c *rest.Request, q store.Querier, pt *store.PostType, param, noun string) (*store.Post, error) {
	p, err := getParent(c, q, pt, param)
	if err != nil {
		return nil, err
	}
	if !store.CanEdit(caller(c), pt, p) {
		return nil, rest.Denied(c, "rest_cannot_read", "Sorry, you are not allowed to view "+noun+" of this post.")
	}
	return p, nil
}

// revisionsArgs are the revisions collection parameters (§5.3).
func revisionsArgs() rest.Props {
	return rest.Props{
		{Name: "parent", Schema: &rest.Schema{Type: "integer"}},
		contextArg(),
		{Name: "page", Schema: &rest.Schema{Type: "integer", Default: 1, Minimum: rest.Ptr(1.0)}},
		{Name: "per_page", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(1.0), Maximum: rest.Ptr(100.0)}},
		{Name: "search", Schema: &rest.Schema{Type: "string"}},
		{Name: "exclude", Schema: intArray()},
		{Name: "include", Schema: intArray()},
		{Name: "offset", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(0.0)}},
		{Name: "order", Schema: &rest.Schema{Type: "string", Enum: strEnum("asc", "desc"), Default: "desc"}},
		{Name: "orderby", Schema: &rest.Schema{Type: "string", Enum: strEnum("date", "id", "include", "relevance", "slug", "include_slugs", "title"), Default: "date"}},
	}
}

// listRevisions is GET /{base}/{parent}/revisions.
func (s *Service) listRevisions(pt *store.PostType) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		parent, err := s.cachedParent(c, pt, "parent", "revisions")
		if err != nil {
			return nil, err
		}
		q := &store.ListQuery{Type: &store.PostType{Name: "revision"}, Statuses: []string{"inherit"}, Page: int(c.Int("page")),
			Search: strings.TrimSpace(c.String("search")), Include: c.Ints("include"), Exclude: c.Ints("exclude"),
			Order: c.String("order"), OrderBy: c.String("orderby"), Parent: []int64{parent.ID}}
		if q.Page < 1 {
			q.Page = 1
		}
		// without per_page every revision is one page; a page beyond it is
		// still out of range (WordPress checks the requested page)
		page := q.Page
		all := !c.Has("per_page")
		q.PerPage = int(c.Int("per_page"))
		if all {
			q.PerPage = math.MaxInt32
			q.Page = 1
		}
		if c.Has("offset") {
			o := int(c.Int("offset"))
			q.Offset = &o
		}
		if q.OrderBy == "relevance" && q.Search == "" {
			return nil, rest.NewError("rest_no_search_term_defined", "You need to define a search term to order by relevance.", http.StatusBadRequest)
		}
		if q.OrderBy == "include" && len(q.Include) == 0 {
			return nil, rest.NewError("rest_orderby_include_missing_include", "You need to define an include parameter to order by include.", http.StatusBadRequest)
		}
		revs, total, err := store.ListPosts(c.Context(), s.db(c.Context()), q)
		if err != nil {
			return nil, err
		}
		if q.Offset != nil && *q.Offset > 0 && *q.Offset >= total {
			return nil, rest.NewError("rest_revision_invalid_offset_number", "The offset number requested is larger than or equal to the number of available revisions.", http.StatusBadRequest)
		}
		pages := 0
		if total > 0 {
			pages = 1
		}
		if !all {
			pages = int(math.Ceil(float64(total) / float64(q.PerPage)))
		}
		// the page check applies only without an offset
		if q.Offset == nil || *q.Offset == 0 {
			if page > pages && total > 0 {
				return nil, rest.NewError("rest_revision_invalid_page_number", "The page number requested is larger than the number of pages available.", http.StatusBadRequest)
			}
		}
		items := make([]any, 0, len(revs))
		for _, r := range revs {
			items = append(items, s.prepareRevision(pt, parent, r, c.String("context"), false))
		}
		res := rest.OK(items)
		// the links count from the requested page, even when every
		// revision is one page: past the end of an empty list WordPress
		// still links the previous page (page 0)
		rest.Paginate(c, res, int64(total), page, q.PerPage)
		return res, nil
	}
}

// loadRevision is get_revision.
func loadRevision(c *rest.Request, q store.Querier) (*store.Post, error) {
	invalid := rest.NewError("rest_post_invalid_id", "Invalid revision ID.", http.StatusNotFound)
	id := c.Int("id")
	if id <= 0 {
		return nil, invalid
	}
	r, err := store.GetPost(c.Context(), q, id)
	if err != nil {
		return nil, err
	}
	if r == nil || r.Type != "revision" {
		return nil, invalid
	}
	return r, nil
}

// getRevision is GET /{base}/{parent}/revisions/{id}.
func (s *Service) getRevision(pt *store.PostType) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		parent, err := s.cachedParent(c, pt, "parent", "revisions")
		if err != nil {
			return nil, err
		}
		r, err := loadRevision(c, s.db(c.Context()))
		if err != nil {
			return nil, err
		}
		if r.Parent != parent.ID {
			return nil, rest.NewError("rest_revision_parent_id_mismatch", `The revision does not belong to the specified parent with id of "`+strconv.FormatInt(parent.ID, 10)+`"`, http.StatusNotFound)
		}
		return rest.OK(s.prepareRevision(pt, parent, r, c.String("context"), false)), nil // the revisions controller has no preview_link
	}
}

// deleteRevision is DELETE /{base}/{parent}/revisions/{id}: force only.
func (s *Service) deleteRevision(pt *store.PostType) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		var body any
		return s.answerInTx(c, &body, func(tx pgx.Tx) error {
			parent, err := s.loadParent(c, tx, pt, "parent", "revisions")
			if err != nil {
				return err
			}
			if !store.CanDelete(caller(c), pt, parent) {
				return rest.Denied(c, "rest_cannot_delete", "Sorry, you are not allowed to delete revisions of this post.")
			}
			r, err := loadRevision(c, tx)
			if err != nil {
				return err
			}
			if !c.Bool("force") {
				return rest.NewError("rest_trash_not_supported", "Revisions do not support trashing. Set 'force=true' to delete.", http.StatusNotImplemented)
			}
			// delete_item renders the revision in edit context
			previous := s.prepareRevision(pt, parent, r, "edit", false)
			if err := store.DeleteRevision(c.Context(), tx, r.ID); err != nil {
				return err
			}
			body = map[string]any{"deleted": true, "previous": previous}
			return nil
		})
	}
}

// listAutosaves is GET /{base}/{id}/autosaves: every autosave, no paging.
func (s *Service) listAutosaves(pt *store.PostType) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		parent, err := s.cachedParent(c, pt, "id", "autosaves")
		if err != nil {
			return nil, err
		}
		autosaves, err := store.ListAutosaveRows(c.Context(), s.db(c.Context()), parent.ID)
		if err != nil {
			return nil, err
		}
		items := make([]any, 0, len(autosaves))
		for _, r := range autosaves {
			items = append(items, s.prepareRevision(pt, parent, r, c.String("context"), true))
		}
		return rest.OK(items), nil
	}
}

// getAutosave is GET /{base}/{parent}/autosaves/{id}: the latest autosave
// of the parent, whatever {id} says (as WordPress does).
func (s *Service) getAutosave(pt *store.PostType) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		// the single autosave route uses the revisions controller's
		// permission check, and so its message
		parent, err := s.cachedParent(c, pt, "parent", "revisions")
		if err != nil {
			return nil, err
		}
		r, err := store.LatestRevision(c.Context(), s.db(c.Context()), parent.ID, true, 0)
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, rest.NewError("rest_post_no_autosave", "There is no autosave revision for this post.", http.StatusNotFound)
		}
		return rest.OK(s.prepareRevision(pt, parent, r, c.String("context"), true)), nil
	}
}

// createAutosave is POST /{base}/{id}/autosaves (§5.4).
func (s *Service) createAutosave(pt *store.PostType) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		var body any
		return s.answerInTx(c, &body, func(tx pgx.Tx) error {
			old, err := s.lockPostFor(c, tx, pt, store.CanEdit, "rest_cannot_edit", msgCannotEdit)
			if err != nil {
				return err
			}
			now := s.now()
			p := *old
			if err := s.applyWrite(c, tx, pt, &p, old, now); err != nil {
				return err
			}
			isDraft := old.Status == "draft" || old.Status == "auto-draft"
			if isDraft && old.Author == caller(c).UserID {
				// the author's own draft is updated in place, without a
				// revision, with what prepare_item_for_database covers only:
				// terms, sticky, format, featured media, template and meta are
				// update_item's business and stay as they were
				p.Sticky, p.Format, p.FeaturedMedia, p.Template = old.Sticky, old.Format, old.FeaturedMedia, old.Template
				p.Footnotes, p.SyncStatus = old.Footnotes, old.SyncStatus
				if err := store.UpdatePost(c.Context(), tx, &p); err != nil {
					return err
				}
				out, err := store.GetPost(c.Context(), tx, p.ID)
				if err != nil {
					return err
				}
				body = s.prepareRevision(pt, out, out, "edit", true)
				return nil
			}
			saved, err := saveAutosave(c, tx, old, &p, now)
			if err != nil {
				return err
			}
			body = s.prepareRevision(pt, old, saved, "edit", true)
			return nil
		})
	}
}

// saveAutosave stores draft, an edit of old, as the caller's autosave of
// old: one autosave per user, reused; when the draft's revisioned fields do
// not differ from old, the existing autosave is returned as it is.
func saveAutosave(c *rest.Request, tx pgx.Tx, old, draft *store.Post, now time.Time) (*store.Post, error) {
	me := caller(c).UserID
	existing, err := store.LatestRevision(c.Context(), tx, old.ID, true, me)
	if err != nil {
		return nil, err
	}
	if existing != nil && !revisionDiffers(draft, old) {
		return existing, nil
	}
	rev := newRevision(draft, me, true)
	rev.DateGMT, rev.ModifiedGMT = now, now
	if existing != nil {
		rev.ID = existing.ID
		err = store.UpdateAutosave(c.Context(), tx, rev)
	} else {
		err = store.InsertPost(c.Context(), tx, rev)
	}
	if err != nil {
		return nil, err
	}
	return rev, nil
}
