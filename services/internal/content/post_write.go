package content

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/kses"
	"siteplane.dev/services/internal/platform/rest"
)

// Writing a post's fields from a create or update request
// (prepare_item_for_database and its checks), step by step.

// textValue reads title/content/excerpt input: a string or {raw: string}.
// An empty {raw} title is ignored (WordPress tests it with empty(), content
// and excerpt with isset()).
func textValue(c *rest.Request, name string) (string, bool) {
	switch v := c.Param(name).(type) {
	case string:
		return v, true
	case map[string]any:
		if raw, ok := v["raw"].(string); ok && (raw != "" || name != "title") {
			return raw, true
		}
	}
	return "", false
}

// postWrite carries one create or update through the steps of applyWrite.
type postWrite struct {
	s   *Service
	c   *rest.Request
	tx  store.Querier // the write's transaction, or where a create reads before its one statement
	pt  *store.PostType
	p   *store.Post // the post as it will be stored; the steps change it
	old *store.Post // the stored post; nil on create
	now time.Time
	// slugAtInsert (applyCreate): a slug derived from the title is made
	// unique by the insert statement itself, which takes the first of
	// slugCandidates no other post holds (insertNewPost); slug() only sets
	// them. Saves the create a round trip.
	slugAtInsert   bool
	slugCandidates []string
}

// applyWrite is prepare_item_for_database plus the status, author and
// conflict checks; old is nil on create. It mutates p. The steps run in
// WordPress's order (so the first refusal is WordPress's); the first error
// ends the write.
func (s *Service) applyWrite(c *rest.Request, tx store.Querier, pt *store.PostType, p *store.Post, old *store.Post, now time.Time) error {
	return (&postWrite{s: s, c: c, tx: tx, pt: pt, p: p, old: old, now: now}).run()
}

// applyCreate is applyWrite for a new post, except that a slug derived
// from the title is left as it is (the title's sanitised form) and its
// wp_unique_post_slug candidates of the first round are returned for the
// insert to choose from (nil: p.Slug is final).
func (s *Service) applyCreate(c *rest.Request, q store.Querier, pt *store.PostType, p *store.Post, now time.Time) ([]string, error) {
	w := &postWrite{s: s, c: c, tx: q, pt: pt, p: p, now: now, slugAtInsert: true}
	err := w.run()
	return w.slugCandidates, err
}

func (w *postWrite) run() error {
	steps := []func() error{
		w.status, w.dates, w.text, w.author, w.password, w.parent,
		w.attributes, w.meta, w.sticky, w.featuredMedia, w.schedule, w.slug,
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// status is handle_status_param; the unchanged status is always accepted.
func (w *postWrite) status() error {
	c, p, old := w.c, w.p, w.old
	if !c.Has("status") {
		return nil
	}
	st := c.String("status")
	if old == nil || st != old.Status {
		switch st {
		case "private":
			if !caller(c).Can(w.pt.Caps.Publish) {
				return rest.Denied(c, "rest_cannot_publish", "Sorry, you are not allowed to create private posts in this post type.")
			}
		case "publish", "future":
			if !caller(c).Can(w.pt.Caps.Publish) {
				return rest.Denied(c, "rest_cannot_publish", "Sorry, you are not allowed to publish posts in this post type.")
			}
		}
	}
	if old != nil && old.Status == "trash" && st != "trash" && strings.HasSuffix(p.Slug, "__trashed") {
		p.Slug = strings.TrimSuffix(p.Slug, "__trashed")
	}
	p.Status = st
	return nil
}

// dates: date wins over date_gmt; a null in either resets both to
// floating, even next to a date (WordPress applies the null last).
func (w *postWrite) dates() error {
	c, p, old := w.c, w.p, w.old
	switch {
	case c.String("date") != "":
		t, _ := store.ParseDate(c.String("date"), w.s.location())
		if old == nil || !t.Equal(old.DateGMT) {
			p.DateGMT, p.DateFloating = t, false
		}
	case c.String("date_gmt") != "":
		t, _ := store.ParseDate(c.String("date_gmt"), time.UTC)
		if old == nil || !t.Equal(old.DateGMT) {
			p.DateGMT, p.DateFloating = t, false
		}
	}
	if isNull(c, "date") || isNull(c, "date_gmt") {
		p.DateFloating = true
	}
	return nil
}

// text sets title, content and excerpt, filtered as kses does for callers
// without unfiltered_html (title_save_pre, content_save_pre,
// excerpt_save_pre): the title to the data allowlist, the others to post.
func (w *postWrite) text() error {
	who := caller(w.c)
	if v, ok := textValue(w.c, "title"); ok {
		w.p.Title = kses.ForCaller(who, v, kses.Data)
	}
	if v, ok := textValue(w.c, "content"); ok {
		w.p.Content = kses.ForCaller(who, v, kses.Post)
	}
	if w.pt.Excerpt {
		if v, ok := textValue(w.c, "excerpt"); ok {
			w.p.Excerpt = kses.ForCaller(who, v, kses.Post)
		}
	}
	return nil
}

// author must exist; WordPress tests it with empty(): 0 leaves the author
// as it is.
func (w *postWrite) author() error {
	c := w.c
	author := c.Int("author")
	if !w.pt.Author || author == 0 {
		return nil
	}
	if author != caller(c).UserID {
		exists, err := w.s.users.Exists(c.Context(), author)
		if err != nil {
			return fmt.Errorf("check author %d: %w", author, err)
		}
		if !exists {
			return rest.NewError("rest_invalid_author", "Invalid author ID.", http.StatusBadRequest)
		}
	}
	w.p.Author = author
	return nil
}

// password, and the conflicts between a password and stickiness.
func (w *postWrite) password() error {
	c, old := w.c, w.old
	if c.Has("password") {
		pw := c.String("password")
		if pw != "" {
			if w.pt.Sticky && c.Bool("sticky") {
				return rest.NewError("rest_invalid_field", "A post can not be sticky and have a password.", http.StatusBadRequest)
			}
			if old != nil && old.Sticky {
				return rest.NewError("rest_invalid_field", "A sticky post can not be password protected.", http.StatusBadRequest)
			}
		}
		w.p.Password = pw
	}
	if w.pt.Sticky && c.Bool("sticky") && old != nil && old.Password != "" {
		return rest.NewError("rest_invalid_field", "A password protected post can not be set to sticky.", http.StatusBadRequest)
	}
	return nil
}

// parent must be a post of the same type; one that would make a loop
// becomes 0 (wp_check_post_hierarchy_for_loops).
func (w *postWrite) parent() error {
	c := w.c
	if !w.pt.Hierarchical || !c.Has("parent") {
		return nil
	}
	parent := c.Int("parent")
	if parent != 0 {
		pp, err := store.GetPost(c.Context(), w.tx, parent)
		if err != nil {
			return err
		}
		if pp == nil || pp.Type != w.pt.Name {
			return rest.NewError("rest_post_invalid_id", "Invalid post parent ID.", http.StatusBadRequest)
		}
		if w.old != nil {
			loop, err := store.IsAncestorOrSelf(c.Context(), w.tx, w.old.ID, parent)
			if err != nil {
				return err
			}
			if loop {
				parent = 0
			}
		}
	}
	w.p.Parent = parent
	return nil
}

// attributes are the plain fields: menu order, comment and ping status,
// format and template.
func (w *postWrite) attributes() error {
	c, p, pt := w.c, w.p, w.pt
	if pt.PageAttributes && c.Has("menu_order") {
		p.MenuOrder = int(c.Int("menu_order"))
	}
	if pt.Comments {
		if c.Has("comment_status") {
			p.CommentStatus = c.String("comment_status")
		}
		if c.Has("ping_status") {
			p.PingStatus = c.String("ping_status")
		}
	}
	if pt.Formats && c.Has("format") {
		p.Format = c.String("format")
	}
	if c.Has("template") {
		p.Template = c.String("template")
	}
	return nil
}

func (w *postWrite) meta() error {
	if meta, ok := w.c.Param("meta").(map[string]any); ok {
		return applyMeta(w.pt, w.p, meta)
	}
	return nil
}

// sticky: a create always sticks or unsticks, an update only when asked.
func (w *postWrite) sticky() error {
	if !w.pt.Sticky {
		return nil
	}
	if w.old == nil || w.c.Has("sticky") {
		w.p.Sticky = w.c.Bool("sticky")
	}
	return nil
}

// featuredMedia: 0 removes it; an id that is not an attachment is dropped
// as WordPress does (media.go).
func (w *postWrite) featuredMedia() error {
	if w.pt.Thumbnail && w.c.Has("featured_media") {
		w.p.FeaturedMedia = w.s.checkFeaturedMedia(w.c.Context(), w.c.Int("featured_media"))
	}
	return nil
}

// schedule settles the date and the status: publish with a future date is
// scheduled, future with a past date publishes.
func (w *postWrite) schedule() error {
	p, now := w.p, w.now
	if p.DateFloating && (p.Status != "draft" && p.Status != "pending" && p.Status != "auto-draft") {
		p.DateGMT, p.DateFloating = now, false
	}
	if p.DateFloating {
		p.DateGMT = now
	}
	// wp_insert_post: a date at least a minute ahead schedules, anything
	// sooner publishes
	if ahead := p.DateGMT.Sub(now) >= time.Minute; p.Status == "publish" && ahead {
		p.Status = "future"
	} else if p.Status == "future" && !ahead {
		p.Status = "publish"
	}
	p.ModifiedGMT = now
	return nil
}

// slug: explicit slugs are sanitised and made unique even for drafts;
// otherwise published posts derive theirs from the title. Every save of a
// non-draft runs the slug through wp_unique_post_slug (a restored post's
// slug may have been taken meanwhile, a page may move under a parent that
// has a child of that name); a draft without an explicit slug keeps none.
func (w *postWrite) slug() error {
	c, p := w.c, w.p
	id, stored := int64(0), ""
	if w.old != nil {
		id, stored = w.old.ID, w.old.Slug
	}
	draftish := p.Status == "draft" || p.Status == "pending" || p.Status == "auto-draft"
	switch {
	case c.Has("slug"):
		p.Slug = store.SanitizeTitle(c.String("slug"))
	case p.Slug == "" && !draftish:
		p.Slug = store.SanitizeTitle(p.Title)
		if w.slugAtInsert && w.old == nil && p.Slug != "" {
			w.slugAtInsertCandidates()
			return nil
		}
	case draftish:
		return nil
	}
	slug, err := store.UniqueSlug(c.Context(), w.tx, w.pt, p.Slug, id, p.Parent, stored)
	if err != nil {
		return err
	}
	p.Slug = slug
	return nil
}

// slugAtInsertCandidates answers from a batch's slugs read ahead when it
// can (p.Slug is then final), else sets the candidates the insert picks
// from: the first round of freeSlugs for a new post, in the same order.
func (w *postWrite) slugAtInsertCandidates() {
	want := store.SlugWant{Slug: w.p.Slug, Parent: w.p.Parent}
	if set := store.SlugSetFrom(w.c.Context()); set != nil {
		if free, ok := set.Free(w.pt, want); ok {
			w.p.Slug = free
			return
		}
	}
	w.slugCandidates = store.RoundCandidates(w.pt, want, 0, store.SlugProbe)
}

// applyMeta is WP_REST_Meta_Fields::update_value: each registered key that
// is present is validated against its schema with the parameter path
// meta.<key> (the error is the schema's own, with status 400, not
// rest_invalid_param); null deletes the value (back to its default "").
// Unregistered keys are ignored.
func applyMeta(pt *store.PostType, p *store.Post, meta map[string]any) error {
	for _, f := range metaFields(pt) {
		v, present := meta[f.Name]
		if !present {
			continue
		}
		value := ""
		if v != nil {
			if err := rest.Validate(v, f.Schema, "meta."+f.Name); err != nil {
				// add_data(status 400): the schema error's own data moves to additional_data
				out := &rest.Error{Code: err.Code, Message: err.Message,
					Data: rest.Object{{Key: "status", Value: http.StatusBadRequest}}}
				if err.Data != nil {
					out.AdditionalData = []any{err.Data}
				}
				return out
			}
			value = v.(string)
		}
		switch f.Name {
		case "footnotes":
			p.Footnotes = value
		case "cms_pattern_sync_status":
			p.SyncStatus = value
		}
	}
	return nil
}
