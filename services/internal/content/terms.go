package content

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/kses"
	"siteplane.dev/services/internal/platform/rest"
)

// Terms of the four taxonomies (WP_REST_Terms_Controller and, for nav_menu,
// WP_REST_Menus_Controller).

func errTermInvalid() *rest.Error {
	return rest.NewError("rest_term_invalid", "Term does not exist.", http.StatusNotFound)
}

// termCollectionArgs are the terms collection parameters.
func termCollectionArgs(tax *store.Taxonomy) rest.Props {
	args := rest.Props{
		contextArg(),
		{Name: "page", Schema: &rest.Schema{Type: "integer", Default: 1, Minimum: rest.Ptr(1.0)}},
		{Name: "per_page", Schema: &rest.Schema{Type: "integer", Default: 10, Minimum: rest.Ptr(1.0), Maximum: rest.Ptr(100.0)}},
		{Name: "search", Schema: &rest.Schema{Type: "string"}},
		{Name: "exclude", Schema: intArray()},
		{Name: "include", Schema: intArray()},
	}
	if !tax.Hierarchical {
		args = append(args, rest.Prop{Name: "offset", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(0.0)}})
	}
	args = append(args,
		rest.Prop{Name: "order", Schema: &rest.Schema{Type: "string", Enum: strEnum("asc", "desc"), Default: "asc"}},
		rest.Prop{Name: "orderby", Schema: &rest.Schema{Type: "string", Enum: strEnum("id", "include", "name", "slug", "include_slugs", "term_group", "description", "count"), Default: "name"}},
		rest.Prop{Name: "hide_empty", Schema: &rest.Schema{Type: "boolean", Default: false}})
	if tax.Hierarchical {
		args = append(args, rest.Prop{Name: "parent", Schema: &rest.Schema{Type: "integer"}})
	}
	args = append(args, rest.Prop{Name: "post", Schema: &rest.Schema{Type: "integer", Default: nil}}, rest.Prop{Name: "slug", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string"}}})
	return args
}

func termWriteArgs(tax *store.Taxonomy, create bool) rest.Props {
	args := rest.Props{{Name: "description", Schema: &rest.Schema{Type: "string"}}, {Name: "name", Schema: &rest.Schema{Type: "string", Required: create}}, {Name: "slug", Schema: &rest.Schema{Type: "string"}}}
	if tax.Hierarchical {
		args = append(args, rest.Prop{Name: "parent", Schema: &rest.Schema{Type: "integer"}})
	}
	args = append(args, rest.Prop{Name: "meta", Schema: &rest.Schema{Type: "object"}})
	if tax == store.Menu {
		args = append(args, menuSettingsArgs()...)
	}
	return args
}

// canReadTerms: menus are private to users who can edit content.
func canReadTerms(c *rest.Request, tax *store.Taxonomy) error {
	if tax != store.Menu {
		return nil
	}
	if caller(c).Can("edit_theme_options") || caller(c).Can("edit_posts") || caller(c).Can("edit_pages") {
		return nil
	}
	return rest.Denied(c, "rest_cannot_view", "Sorry, you are not allowed to view menus.")
}

// prepareTerm renders a term in WordPress's order with the fields of every
// context; the route kit removes what context must not show, by termSchema's
// per-field contexts. context only lets it skip boxing values the context
// hides (rest.ContextShows, as get_fields_for_response).
func (s *Service) prepareTerm(tax *store.Taxonomy, t *store.Term, context string) rest.Item {
	schema := s.termSchema(tax)
	shows := func(field string) bool { return rest.ContextShows(schema, context, field) }
	out := make(rest.Object, 0, 12)
	add := func(k string, v any) { out = append(out, rest.Member{Key: k, Value: v}) }
	add("id", t.ID)
	if tax == store.Menu {
		if shows("description") {
			add("description", t.Description)
		}
		add("name", t.Name)
		add("slug", t.Slug)
		if shows("meta") {
			add("meta", []any{})
		}
		if shows("locations") {
			add("locations", store.NonNil(t.Locations))
		}
		add("auto_add", t.AutoAdd)
	} else {
		if shows("count") {
			add("count", t.Count)
		}
		if shows("description") {
			add("description", t.Description)
		}
		add("link", s.permalinks.Term(tax, t))
		add("name", t.Name)
		add("slug", t.Slug)
		add("taxonomy", tax.Name)
		if tax.Hierarchical {
			add("parent", t.Parent)
		}
		if shows("meta") {
			add("meta", []any{})
		}
	}
	id := strconv.FormatInt(t.ID, 10)
	links := rest.Object{
		{Key: "self", Value: []any{href(s.restRoot + "/cms/v2/" + tax.Base + "/" + id)}},
		{Key: "collection", Value: []any{href(s.restRoot + "/cms/v2/" + tax.Base)}},
		{Key: "about", Value: []any{href(s.restRoot + "/cms/v2/taxonomies/" + tax.Name)}},
	}
	if tax.Hierarchical && t.Parent != 0 {
		links = append(links, rest.Member{Key: "up", Value: []any{href(s.restRoot+"/cms/v2/"+tax.Base+"/"+strconv.FormatInt(t.Parent, 10), "embeddable", true)}})
	}
	var postTypes []any
	for _, pt := range store.PostTypes {
		if hasTaxonomy(pt, tax) {
			postTypes = append(postTypes, href(s.restRoot+"/cms/v2/"+pt.Base+"?"+tax.Base+"="+id))
		}
	}
	if tax == store.Menu {
		postTypes = append(postTypes, href(s.restRoot+"/cms/v2/menu-items?menus="+id))
	}
	links = append(links, rest.Member{Key: "wp:post_type", Value: postTypes}, rest.Member{Key: "curies", Value: curies})
	add("_links", links)
	return rest.Item{Data: out}
}

// termSchema returns termSchema(tax), built once per taxonomy.
func (s *Service) termSchema(tax *store.Taxonomy) *rest.Schema {
	if sc, ok := s.termSchemas.Load(tax); ok {
		return sc.(*rest.Schema)
	}
	sc := termSchema(tax)
	s.termSchemas.Store(tax, sc)
	return sc
}

// listTerms is GET /cms/v2/{tax base}.
func (s *Service) listTerms(tax *store.Taxonomy) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		tq := &store.TermQuery{Tax: tax, Search: strings.TrimSpace(c.String("search")), Include: c.Ints("include"),
			Exclude: c.Ints("exclude"), Slugs: c.Strings("slug"), HideEmpty: c.Bool("hide_empty"),
			Order: c.String("order"), OrderBy: c.String("orderby")}
		if postID, ok := termPostFilter(c); ok {
			tq.Post = postID // checked by listTermsPermission
		}
		if tax.Hierarchical && c.Has("parent") {
			parent := c.Int("parent")
			tq.Parent = &parent
		}
		page, perPage := int(c.Int("page")), int(c.Int("per_page"))
		if page < 1 {
			page = 1
		}
		if perPage < 1 {
			perPage = 10
		}
		tq.Limit, tq.Offset = perPage, rest.Offset(page, perPage)
		if c.Has("offset") {
			// Hierarchical taxonomies declare no offset, yet WordPress reads
			// a raw one through absint (WP_Term_Query).
			tq.Offset = int(c.Int("offset"))
			if tq.Offset < 0 {
				tq.Offset = -tq.Offset
			}
		}
		terms, total, ok := aheadTerms(c.Context(), tq)
		if !ok {
			var err error
			if terms, total, err = store.ListTermRows(c.Context(), s.db(c.Context()), tq); err != nil {
				return nil, err
			}
		}
		viewCtx := c.String("context")
		items := make([]any, 0, len(terms))
		for _, t := range terms {
			if b, ok := s.termJSON(c, tax, t, viewCtx); ok {
				items = append(items, b)
				continue
			}
			items = append(items, s.prepareTerm(tax, t, viewCtx))
		}
		res := rest.OK(items)
		rest.Paginate(c, res, int64(total), page, perPage)
		return res, nil
	}
}

// termPostFilter is the ?post= filter as WordPress's `! empty(
// $request['post'] )` sees it: absent, 0 and "" filter nothing; a value
// the client sent as a non-integer (left raw by a failed validation) names
// no post (get_post refuses non-numeric ids), so it reads as 0.
func termPostFilter(c *rest.Request) (int64, bool) {
	switch v := c.Param("post").(type) {
	case nil, bool:
		return 0, v == true
	case string:
		if v == "" || v == "0" {
			return 0, false
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, true
		}
		return n, true
	default:
		if n, ok := v.(int64); ok {
			return n, n != 0
		}
		return 0, true
	}
}

// checkTermPost is the post filter's check: the post must exist, have the
// taxonomy and be readable by the caller.
func (s *Service) checkTermPost(c *rest.Request, tax *store.Taxonomy, postID int64) error {
	if postID <= 0 {
		return rest.NewError("rest_post_invalid_id", "Invalid post ID.", http.StatusBadRequest)
	}
	p, ok := aheadPost(c.Context(), postID)
	if !ok {
		var err error
		if p, err = store.GetPost(c.Context(), s.db(c.Context()), postID); err != nil {
			return err
		}
	}
	if p == nil {
		return rest.NewError("rest_post_invalid_id", "Invalid post ID.", http.StatusBadRequest)
	}
	pt := store.TypeByName(p.Type)
	if p.Type == store.MenuItemType.Name {
		pt = store.MenuItemType
	}
	if pt == nil || !hasTaxonomy(pt, tax) || !store.CanRead(caller(c), pt, p) {
		return rest.Denied(c, "rest_forbidden_context", "Sorry, you are not allowed to view terms for this post.")
	}
	return nil
}

func hasTaxonomy(pt *store.PostType, tax *store.Taxonomy) bool {
	for _, t := range pt.Taxonomies {
		if t == tax {
			return true
		}
	}
	return false
}

func (s *Service) loadTerm(c *rest.Request, q store.Querier, tax *store.Taxonomy) (*store.Term, error) {
	id := c.Int("id")
	if id <= 0 {
		return nil, errTermInvalid()
	}
	t, err := store.GetTerm(c.Context(), q, tax, id)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, errTermInvalid()
	}
	return t, nil
}

// getTermItem is GET /cms/v2/{tax base}/{id}.
func (s *Service) getTermItem(tax *store.Taxonomy) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		t, err := s.cachedTerm(c, tax) // loaded by the permission check
		if err != nil {
			return nil, err
		}
		return rest.OK(s.prepareTerm(tax, t, c.String("context"))), nil
	}
}

// checkTermParent validates the parent argument.
func checkTermParent(c *rest.Request, q store.Querier, tax *store.Taxonomy) error {
	if !c.Has("parent") {
		return nil
	}
	if !tax.Hierarchical {
		return rest.NewError("rest_taxonomy_not_hierarchical", "Cannot set parent term, taxonomy is not hierarchical.", http.StatusBadRequest)
	}
	if pid := c.Int("parent"); pid != 0 {
		p, err := store.GetTerm(c.Context(), q, tax, pid)
		if err != nil {
			return err
		}
		if p == nil {
			return rest.NewError("rest_term_invalid", "Parent term does not exist.", http.StatusBadRequest)
		}
	}
	return nil
}

// writeTerm runs save, which stores the term's row, and then the term's
// extras (meta) in one transaction, and returns the term as stored; the
// caller answers in the edit context, as WordPress's write answers are.
func (s *Service) writeTerm(c *rest.Request, tax *store.Taxonomy, save func(tx pgx.Tx) (*store.Term, error)) (*store.Term, error) {
	var out *store.Term
	err := s.inTx(c.Context(), func(tx pgx.Tx) error {
		t, err := save(tx)
		if err != nil {
			return err
		}
		out, err = saveTermExtras(c, tx, tax, t)
		return err
	})
	if err != nil {
		return nil, err
	}
	c.Set("context", "edit") // write answers are in the edit context
	return out, nil
}

// createTerm is POST /cms/v2/{tax base}.
func (s *Service) createTerm(tax *store.Taxonomy) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		out, err := s.writeTerm(c, tax, func(tx pgx.Tx) (*store.Term, error) {
			if err := checkTermParent(c, tx, tax); err != nil {
				return nil, err
			}
			// pre_term_name and pre_term_description filter every caller's
			// input in WordPress, unfiltered_html or not.
			name := strings.TrimSpace(kses.Text(c.String("name")))
			if name == "" {
				return nil, rest.NewError("empty_term_name", "A name is required for this term.", http.StatusBadRequest)
			}
			t := &store.Term{Name: name, Description: kses.Filter(c.String("description"), kses.Data), Parent: c.Int("parent")}
			existing, err := store.TermNamed(c.Context(), tx, tax, name, t.Parent)
			if err != nil {
				return nil, err
			}
			if existing != 0 {
				msg := "A term with the name provided already exists in this taxonomy."
				if tax.Hierarchical {
					msg = "A term with the name provided already exists with this parent."
				}
				// wp_insert_term's data is the existing id; the controller
				// adds it again, then {status, term_id}: WP_Error keeps the
				// earlier payloads as additional_data
				return nil, &rest.Error{Code: "term_exists", Message: msg,
					Data:           rest.Object{{Key: "status", Value: http.StatusBadRequest}, {Key: "term_id", Value: existing}},
					AdditionalData: []any{existing, existing}}
			}
			slug := store.SanitizeTitle(c.String("slug"))
			if slug == "" {
				slug = store.SanitizeTitle(name)
			}
			if t.Slug, err = store.UniqueTermSlug(c.Context(), tx, tax, slug, 0); err != nil {
				return nil, err
			}
			if err := store.InsertTerm(c.Context(), tx, tax, t); err != nil {
				return nil, err
			}
			return t, nil
		})
		if err != nil {
			return nil, err
		}
		res := &rest.Response{Status: http.StatusCreated, Data: s.prepareTerm(tax, out, "edit"), Header: http.Header{}}
		res.Header.Set("Location", s.restRoot+"/cms/v2/"+tax.Base+"/"+strconv.FormatInt(out.ID, 10))
		return res, nil
	}
}

// updateTerm is POST/PUT/PATCH /cms/v2/{tax base}/{id}.
func (s *Service) updateTerm(tax *store.Taxonomy) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		out, err := s.writeTerm(c, tax, func(tx pgx.Tx) (*store.Term, error) {
			t, err := s.loadTerm(c, tx, tax)
			if err != nil {
				return nil, err
			}
			if !caller(c).Can(tax.EditCap) {
				return nil, rest.Denied(c, "rest_cannot_update", "Sorry, you are not allowed to edit this term.")
			}
			if err := checkTermParent(c, tx, tax); err != nil {
				return nil, err
			}
			if c.Has("name") {
				t.Name = kses.Text(c.String("name"))
			}
			if c.Has("description") {
				t.Description = kses.Filter(c.String("description"), kses.Data)
			}
			parentChanged := false
			if c.Has("parent") {
				parentChanged = c.Int("parent") != t.Parent
				t.Parent = c.Int("parent")
			}
			if c.Has("slug") {
				slug := store.SanitizeTitle(c.String("slug"))
				emptySlug := slug == ""
				if emptySlug {
					slug = store.SanitizeTitle(t.Name)
				}
				unique, err := store.UniqueTermSlug(c.Context(), tx, tax, slug, t.ID)
				if err != nil {
					return nil, err
				}
				if unique != slug && !emptySlug && !parentChanged {
					return nil, rest.NewError("duplicate_term_slug", "The slug &#8220;"+slug+"&#8221; is already in use by another term.", http.StatusBadRequest)
				}
				t.Slug = unique
			}
			if err := store.UpdateTermRow(c.Context(), tx, t); err != nil {
				return nil, err
			}
			return t, nil
		})
		if err != nil {
			return nil, err
		}
		return rest.OK(s.prepareTerm(tax, out, "edit")), nil
	}
}

// deleteTerm is DELETE /cms/v2/{tax base}/{id}: terms are not trashable.
func (s *Service) deleteTerm(tax *store.Taxonomy) rest.HandlerFunc {
	return func(c *rest.Request) (*rest.Response, error) {
		var body any
		return s.answerInTx(c, &body, func(tx pgx.Tx) error {
			t, err := s.loadTerm(c, tx, tax)
			if err != nil {
				return err
			}
			if !caller(c).Can(tax.DeleteCap) {
				return rest.Denied(c, "rest_cannot_delete", "Sorry, you are not allowed to delete this term.")
			}
			if !c.Bool("force") {
				return rest.NewError("rest_trash_not_supported", "Terms do not support trashing. Set 'force=true' to delete.", http.StatusNotImplemented)
			}
			def, err := store.DefaultCategory(c.Context(), tx)
			if err != nil {
				return err
			}
			if tax == store.Category && t.ID == def {
				// wp_delete_term refuses the default category
				return rest.NewError("rest_cannot_delete", "The term cannot be deleted.", http.StatusInternalServerError)
			}
			previous := s.prepareTerm(tax, t, "view")
			if tax == store.Menu {
				// a menu's items go with it (wp_delete_nav_menu)
				if err := store.DeleteMenuItems(c.Context(), tx, t.ID); err != nil {
					return err
				}
			}
			if err := store.DeleteTermRow(c.Context(), tx, tax, t); err != nil {
				return err
			}
			body = map[string]any{"deleted": true, "previous": previous}
			return nil
		})
	}
}

// saveTermExtras finishes a term write: a menu's settings, then the term
// read back as stored.
func saveTermExtras(c *rest.Request, tx pgx.Tx, tax *store.Taxonomy, t *store.Term) (*store.Term, error) {
	if err := saveMenuSettings(c, tx, tax, t); err != nil {
		return nil, err
	}
	return store.GetTerm(c.Context(), tx, tax, t.ID)
}
