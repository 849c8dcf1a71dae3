package content

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// Messages of the posts controller (§1.3, §4.3).
const (
	msgForbidden        = "Sorry, you are not allowed to do that."
	msgForbiddenCtxList = "Sorry, you are not allowed to edit posts in this post type."
	msgForbiddenCtxItem = "Sorry, you are not allowed to edit this post."
	msgCannotCreate     = "Sorry, you are not allowed to create posts as this user."
	msgCannotEdit       = "Sorry, you are not allowed to edit this post."
	msgCannotDelete     = "Sorry, you are not allowed to delete this post."
)

// statusGuard implements sanitize_post_statuses' permission rule: a status
// other than publish needs edit_posts, or read_private_posts for private;
// the failure surfaces as 400 rest_invalid_param with rest_forbidden_status.
func statusGuard(pt *store.PostType) func(identity.Identity, any) *rest.Error {
	return func(who identity.Identity, v any) *rest.Error {
		var statuses []string
		switch x := v.(type) {
		case string:
			statuses = []string{x}
		case []any:
			for _, e := range x {
				if s, ok := e.(string); ok {
					statuses = append(statuses, s)
				}
			}
		}
		for _, st := range statuses {
			if st == "publish" || who.Can(pt.Caps.EditPosts) || (st == "private" && who.Can(pt.Caps.ReadPrivate)) {
				continue
			}
			return rest.NewError("rest_forbidden_status", "Status is forbidden.", rest.AuthStatus(who))
		}
		return nil
	}
}

// taxClauses turns the term-query parameters into clauses.
func taxClauses(c *rest.Request, pt *store.PostType) []store.TaxClause {
	var out []store.TaxClause
	for _, tax := range pt.Taxonomies {
		for _, exclude := range []bool{false, true} {
			name := tax.Base
			if exclude {
				name += "_exclude"
			}
			v := c.Param(name)
			if v == nil {
				continue
			}
			cl := store.TaxClause{Tax: tax, Operator: "IN"}
			switch x := v.(type) {
			case []any:
				cl.Terms = int64s(x)
			case map[string]any:
				cl.Terms = int64s(x["terms"])
				cl.IncludeChildren, _ = x["include_children"].(bool)
				if op, _ := x["operator"].(string); op == "AND" {
					cl.Operator = "AND"
				}
			}
			if exclude {
				cl.Operator = "NOT IN"
			}
			if len(cl.Terms) > 0 {
				out = append(out, cl)
			}
		}
	}
	return out
}

func timeParam(c *rest.Request, name string, loc *time.Location) *time.Time {
	if s := c.String(name); s != "" {
		if t, ok := store.ParseDate(s, loc); ok {
			return &t
		}
	}
	return nil
}

// statusesParam is the sanitised status list (a single value is a list of one).
func statusesParam(c *rest.Request) []string {
	if s, ok := c.Param("status").(string); ok {
		return []string{s}
	}
	if st := c.Strings("status"); len(st) > 0 {
		return st
	}
	return []string{"publish"}
}

// listQuery reads the collection parameters of a posts-like collection
// (posts, pages, blocks, navigation, menu items) into a ListQuery.
func (s *Service) listQuery(c *rest.Request, pt *store.PostType) (*store.ListQuery, error) {
	statuses := statusesParam(c)
	q := &store.ListQuery{Type: pt, Page: int(c.Int("page")), PerPage: int(c.Int("per_page")), Statuses: statuses,
		Search: strings.TrimSpace(c.String("search")), SearchColumns: c.Strings("search_columns"),
		Exact: c.String("search_semantics") == "exact", ExcludeProtected: !caller(c).LoggedIn(),
		Author: c.Ints("author"), AuthorExclude: c.Ints("author_exclude"), Include: c.Ints("include"),
		Exclude: c.Ints("exclude"), Parent: c.Ints("parent"), ParentExclude: c.Ints("parent_exclude"),
		Slugs: c.Strings("slug"), Order: c.String("order"), OrderBy: c.String("orderby"), TaxRelation: c.String("tax_relation"),
		Formats: c.Strings("format")}
	if q.Page < 1 {
		q.Page = 1
	}
	if q.PerPage < 1 {
		q.PerPage = 10
	}
	if c.Has("offset") {
		o := int(c.Int("offset"))
		q.Offset = &o
	}
	if c.Has("menu_order") {
		m := int(c.Int("menu_order"))
		q.MenuOrder = &m
	}
	q.After, q.Before = timeParam(c, "after", s.location()), timeParam(c, "before", s.location())
	q.ModifiedAfter, q.ModifiedBefore = timeParam(c, "modified_after", s.location()), timeParam(c, "modified_before", s.location())
	q.Tax = taxClauses(c, pt)
	if pt.Sticky && c.Has("sticky") {
		st := c.Bool("sticky")
		q.Sticky = &st
	}
	if pt.Sticky && c.Has("ignore_sticky") && !c.Bool("ignore_sticky") && q.Page == 1 && q.Sticky == nil &&
		q.Search == "" && len(q.Tax) == 0 && len(q.Author) == 0 && len(q.Include) == 0 && q.Offset == nil {
		q.StickyFirst = true
	}
	if q.OrderBy == "relevance" && q.Search == "" {
		return nil, rest.NewError("rest_no_search_term_defined", "You need to define a search term to order by relevance.", http.StatusBadRequest)
	}
	if q.OrderBy == "include" && len(q.Include) == 0 {
		return nil, rest.NewError("rest_orderby_include_missing_include", "You need to define an include parameter to order by include.", http.StatusBadRequest)
	}
	return q, nil
}

// listPosts is GET /cms/v2/{base}.
func (s *Service) listPosts(pt *store.PostType) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		context := c.String("context")
		q, err := s.listQuery(c, pt)
		if err != nil {
			return nil, err
		}
		posts, total, err := s.readList(c, q, view{context: context, who: caller(c), excerptLength: rawPositiveInt(c, "excerpt_length")})
		if err != nil {
			return nil, err
		}
		pages := int(math.Ceil(float64(total) / float64(q.PerPage)))
		if q.Page > pages && total > 0 {
			return nil, rest.NewError("rest_post_invalid_page_number", "The page number requested is larger than the number of pages available.", http.StatusBadRequest)
		}
		// excerpt_length is no collection parameter, but prepare_item_for_response
		// reads $request['excerpt_length'] whatever the route: a raw one applies
		v, err := s.withGenerated(c, s.db(c.Context()), pt, view{context: context, who: caller(c), excerptLength: rawPositiveInt(c, "excerpt_length"),
			passwordUnlocked: context == "edit"}, posts...)
		if err != nil {
			return nil, err
		}
		items := make([]any, 0, len(posts))
		for _, p := range posts {
			if !store.CanRead(caller(c), pt, p) || (context == "edit" && !store.CanEdit(caller(c), pt, p)) {
				continue // dropped without adjusting the counts, as WordPress does
			}
			if b, ok := s.preparedJSON(c, pt, p, v); ok {
				items = append(items, b)
				continue
			}
			items = append(items, s.prepare(pt, p, v))
		}
		res := rest.OK(items)
		rest.Paginate(c, res, int64(total), q.Page, q.PerPage)
		return res, nil
	}
}

// readList reads the page of q: by version (listPostsByVersion) when the
// answer may come from the encoded posts, else whole.
func (s *Service) readList(c *rest.Request, q *store.ListQuery, v view) ([]*store.Post, int, error) {
	ctx := c.Context()
	if cacheable(v) && !c.ShapesItems() && !inBatchTx(ctx) {
		posts, total, err := s.listPostsByVersion(ctx, s.db(ctx), q)
		if !errors.Is(err, store.ErrVersionMoved) {
			return posts, total, err
		}
	}
	return store.ListPosts(ctx, s.db(ctx), q)
}

// rawPositiveInt reads an undeclared parameter as a positive integer (0
// when absent or not one).
func rawPositiveInt(c *rest.Request, name string) int {
	if n := c.Int(name); n > 0 {
		return int(n)
	}
	return 0
}

// lockPostFor loads the request's post locked for a write and re-checks
// the caller's permission (can) on the locked row, since the route's
// permission check read the row before the transaction; a refusal is
// code with msg.
func (s *Service) lockPostFor(c *rest.Request, tx pgx.Tx, pt *store.PostType, can func(identity.Identity, *store.PostType, *store.Post) bool, code, msg string) (*store.Post, error) {
	p, err := s.loadPost(c, tx, pt, true)
	if err != nil {
		return nil, err
	}
	if !can(caller(c), pt, p) {
		return nil, rest.Denied(c, code, msg)
	}
	return p, nil
}

// loadPost fetches a post of type pt or answers rest_post_invalid_id.
func (s *Service) loadPost(c *rest.Request, q store.Querier, pt *store.PostType, lock bool) (*store.Post, error) {
	id := c.Int("id")
	if id <= 0 {
		return nil, errInvalidPostID()
	}
	var p *store.Post
	var err error
	versioned := !lock && q == s.db(c.Context()) && !inBatchTx(c.Context())
	if versioned && s.hasCachedRow(pt, id) {
		// a post read before: its version tells whether that row is current
		p, err = s.postByVersion(c.Context(), q, pt, id)
		if errors.Is(err, store.ErrNoPost) {
			return nil, errInvalidPostID()
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case p != nil:
	case versioned: // with what a version read compares it to, once cached
		p, err = store.GetPostWithGen(c.Context(), q, pt, id)
	default:
		p, err = store.GetPostAs(c.Context(), q, id, lock, pt)
	}
	if err != nil {
		return nil, err
	}
	if p == nil || p.Type != pt.Name {
		return nil, errInvalidPostID()
	}
	return p, nil
}

// getPostItem is GET /cms/v2/{base}/{id}.
func (s *Service) getPostItem(pt *store.PostType) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		p, err := s.cachedPost(c, pt) // loaded by the permission check
		if err != nil {
			return nil, err
		}
		context, pw := c.String("context"), c.String("password")
		v, err := s.withGenerated(c, s.db(c.Context()), pt, view{context: context, who: caller(c), password: pw, excerptLength: int(c.Int("excerpt_length")),
			passwordUnlocked: context == "edit"}, p)
		if err != nil {
			return nil, err
		}
		var res *rest.Response
		if b, ok := s.preparedJSON(c, pt, p, v); ok {
			res = rest.OK(b)
		} else {
			res = rest.OK(s.prepare(pt, p, v))
		}
		if pt.Public {
			res.Header = http.Header{}
			res.Header.Set("Link", "<"+s.permalinks.Post(pt, p)+`>; rel="alternate"; type=text/html`)
		}
		return res, nil
	}
}

// assignTermsAllowed is check_assign_terms_permission: existing terms the
// caller may not assign refuse the request; unknown ids are skipped.
func assignTermsAllowed(c *rest.Request, pt *store.PostType) bool {
	for _, tax := range pt.Taxonomies {
		if len(c.Ints(tax.Base)) > 0 && !caller(c).Can(tax.AssignCap) {
			return false
		}
	}
	return true
}

// writePermission is the shared part of create and update permission checks.
func writePermission(c *rest.Request, pt *store.PostType, create bool) error {
	// WordPress tests these with empty(): 0 and [] (a GET's author filter,
	// when the Allow header asks every endpoint) do not count.
	if a := c.Int("author"); pt.Author && a != 0 && a != caller(c).UserID && !caller(c).Can(pt.Caps.EditOthers) {
		msg := "Sorry, you are not allowed to update posts as this user."
		if create {
			msg = "Sorry, you are not allowed to create posts as this user."
		}
		return rest.Denied(c, "rest_cannot_edit_others", msg)
	}
	if pt.Sticky && c.Bool("sticky") && !caller(c).Can(pt.Caps.EditOthers) && !caller(c).Can(pt.Caps.Publish) {
		return rest.Denied(c, "rest_cannot_assign_sticky", "Sorry, you are not allowed to make posts sticky.")
	}
	return nil
}

// savePost writes the request's fields into p (applyWrite), stores it — an
// insert when old is nil, an update otherwise — with its terms, slug and
// revision (afterWrite), and reads it back as stored.
func (s *Service) savePost(c *rest.Request, tx pgx.Tx, pt *store.PostType, p, old *store.Post, now time.Time) (*store.Post, error) {
	if err := s.applyWrite(c, tx, pt, p, old, now); err != nil {
		return nil, err
	}
	write := store.InsertPost
	if old != nil {
		write = store.UpdatePost
	}
	if err := write(c.Context(), tx, p); err != nil {
		return nil, err
	}
	if err := s.afterWrite(c, tx, pt, p, old == nil); err != nil {
		return nil, err
	}
	return store.GetPost(c.Context(), tx, p.ID)
}

// afterWrite sets terms, the id slug fallback, and (on update) the revision.
func (s *Service) afterWrite(c *rest.Request, tx pgx.Tx, pt *store.PostType, p *store.Post, create bool) error {
	for _, tax := range pt.Taxonomies {
		if c.Has(tax.Base) {
			if err := store.SetTerms(c.Context(), tx, p.ID, tax, c.Ints(tax.Base)); err != nil {
				return err
			}
		}
	}
	if pt == store.TypePost && !c.Has(store.Category.Base) && p.Status != "auto-draft" {
		// wp_insert_post gives a post without category the default one
		if err := store.AddDefaultCategory(c.Context(), tx, p.ID); err != nil {
			return err
		}
	}
	if p.Slug == "" && p.Status != "draft" && p.Status != "pending" && p.Status != "auto-draft" {
		// the reference (§4.6): the id itself, not run through the
		// date-archive / page-number rules of wp_unique_post_slug
		p.Slug = strconv.FormatInt(p.ID, 10)
		if err := store.SetPostSlug(c.Context(), tx, p.ID, p.Slug); err != nil {
			return err
		}
	}
	if !create {
		return s.saveRevision(c, tx, p)
	}
	return nil
}

// updatePostItem is POST/PUT/PATCH /cms/v2/{base}/{id}: a partial update.
func (s *Service) updatePostItem(pt *store.PostType) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		var out *store.Post
		err := s.inTx(c.Context(), func(tx pgx.Tx) error {
			old, err := s.loadPost(c, tx, pt, true)
			if err != nil {
				return err
			}
			if err := s.checkTemplate(c, pt, old.Template); err != nil {
				return err
			}
			// re-checked on the locked row: the permission check read it before the transaction
			if !store.CanEdit(caller(c), pt, old) {
				return rest.Denied(c, "rest_cannot_edit", msgCannotEdit)
			}
			p := *old
			out, err = s.savePost(c, tx, pt, &p, old, s.now())
			return err
		})
		if err != nil {
			return nil, err
		}
		body, err := s.editView(c, pt, out)
		if err != nil {
			return nil, err
		}
		return rest.OK(body), nil
	}
}

// deletePostItem is DELETE /cms/v2/{base}/{id}: trash, or remove with force.
func (s *Service) deletePostItem(pt *store.PostType) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		var body any
		return s.answerInTx(c, &body, func(tx pgx.Tx) error {
			p, err := s.lockPostFor(c, tx, pt, store.CanDelete, "rest_cannot_delete", msgCannotDelete)
			if err != nil {
				return err
			}
			c.Set("context", "edit") // the kit filters the answer by this context
			edit, err := s.withGenerated(c, tx, pt, view{context: "edit", who: caller(c)}, p)
			if err != nil {
				return err
			}
			if c.Bool("force") {
				previous := s.prepare(pt, p, edit)
				if err := store.DeletePost(c.Context(), tx, p); err != nil {
					return err
				}
				body = map[string]any{"deleted": true, "previous": previous}
				return nil
			}
			if p.Status == "trash" {
				return rest.NewError("rest_already_trashed", "The post has already been deleted.", http.StatusGone)
			}
			p.TrashStatus, p.Status, p.Slug = p.Status, "trash", store.TrashedSlug(p.Slug)
			p.ModifiedGMT = s.now()
			if err := store.UpdatePost(c.Context(), tx, p); err != nil {
				return err
			}
			// wp_trash_post goes through wp_update_post: an update, so the
			// revision rule applies (the first update always stores one)
			if err := s.saveRevision(c, tx, p); err != nil {
				return err
			}
			out, err := store.GetPost(c.Context(), tx, p.ID)
			if err != nil {
				return err
			}
			if edit, err = s.withGenerated(c, tx, pt, edit, out); err != nil {
				return err
			}
			body = s.prepare(pt, out, edit)
			return nil
		})
	}
}

// editView renders a post just written: write answers are always in the edit
// context (WordPress sets context=edit before preparing them).
func (s *Service) editView(c *rest.Request, pt *store.PostType, p *store.Post) (rest.Item, error) {
	c.Set("context", "edit") // the kit filters the item by this context
	v, err := s.withGenerated(c, s.db(c.Context()), pt, view{context: "edit", who: caller(c)}, p)
	if err != nil {
		return rest.Item{}, err
	}
	return s.prepare(pt, p, v), nil
}
