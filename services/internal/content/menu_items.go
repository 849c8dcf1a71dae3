package content

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// Menu items (WP_REST_Menu_Items_Controller, seed §2.5, §4.7, §4.9): posts
// of type nav_menu_item with their _menu_item_* values in menu_items, the
// menu as a nav_menu term. Every capability maps to edit_theme_options;
// reading needs edit_theme_options or edit_posts/edit_pages.

var menuItemTypes = []string{"taxonomy", "post_type", "post_type_archive", "custom"}

const (
	msgCannotViewMenuItems = "Sorry, you are not allowed to view menu items."
	menuItemBase           = "/cms/v2/menu-items"
)

// menuItemRoutes declares the menu-item routes: collection, item (all
// batchable), autosaves.
func (s *Service) menuItemRoutes() []rest.Route {
	pt := store.MenuItemType
	idArg := rest.Prop{Name: "id", Schema: &rest.Schema{Type: "integer"}}
	parentArg := rest.Prop{Name: "parent", Schema: &rest.Schema{Type: "integer"}}
	return []rest.Route{
		{Namespace: Namespace, Path: menuItemBase[len("/"+Namespace):], Schema: menuItemSchema(), Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: menuItemCollectionArgs(), AllowBatch: batchV1, Permission: listMenuItemsPermission, Handler: s.listMenuItems},
			{Methods: rest.Creatable, Args: menuItemWriteArgs(true), AllowBatch: batchV1, Permission: createPostPermission(pt), Handler: s.createMenuItem},
		}},
		{Namespace: Namespace, Path: menuItemBase[len("/"+Namespace):] + `/(?P<id>[\d]+)`, Schema: menuItemSchema(), Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{idArg, contextArg()}, AllowBatch: batchV1, Permission: s.getMenuItemPermission, Handler: s.getMenuItem},
			{Methods: rest.Editable, Args: append(rest.Props{idArg}, menuItemWriteArgs(false)...), AllowBatch: batchV1, Permission: s.updateMenuItemPermission, Handler: s.updateMenuItem},
			{Methods: rest.Deletable, Args: deleteArgs(), AllowBatch: batchV1, Permission: s.deleteMenuItemPermission, Handler: s.deleteMenuItem},
		}},
		{Namespace: Namespace, Path: menuItemBase[len("/"+Namespace):] + `/(?P<id>[\d]+)/autosaves`, Schema: revisionSchema(pt, true), Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{idArg, contextArg()}, Permission: s.revisionsPermission(pt, "id", "autosaves"), Handler: s.listAutosaves(pt)},
			{Methods: rest.Creatable, Args: append(rest.Props{idArg}, menuItemWriteArgs(false)...), Permission: s.createMenuItemAutosavePermission, Handler: s.createMenuItemAutosave},
		}},
		{Namespace: Namespace, Path: menuItemBase[len("/"+Namespace):] + `/(?P<parent>[\d]+)/autosaves/(?P<id>[\d]+)`, Schema: revisionSchema(pt, true), Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{parentArg, idArg, contextArg()}, Permission: s.revisionsPermission(pt, "parent", "revisions"), Handler: s.getAutosave(pt)},
		}},
	}
}

// menuItemSchema is the item schema, in WordPress's field order.
func menuItemSchema() *rest.Schema {
	str := func(ctx []string) *rest.Schema { return &rest.Schema{Type: "string", Context: ctx} }
	strs := func() *rest.Schema {
		return &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string"}, Context: ctxAll}
	}
	return &rest.Schema{Title: "nav_menu_item", Type: "object", Properties: rest.Props{
		{Name: "title", Schema: rendered(ctxEdit, ctxAll)},
		{Name: "id", Schema: &rest.Schema{Type: "integer", Context: ctxAll, Readonly: true}},
		{Name: "type_label", Schema: &rest.Schema{Type: "string", Context: ctxAll, Readonly: true}},
		{Name: "type", Schema: &rest.Schema{Type: "string", Enum: strEnum(menuItemTypes...), Context: ctxAll, Default: "custom"}},
		{Name: "status", Schema: &rest.Schema{Type: "string", Enum: strEnum(store.WriteStatuses...), Context: ctxAll, Default: "publish"}},
		{Name: "parent", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(0.0), Context: ctxAll, Default: 0}},
		{Name: "attr_title", Schema: str(ctxAll)},
		{Name: "classes", Schema: strs()},
		{Name: "description", Schema: str(ctxAll)},
		{Name: "menu_order", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(1.0), Context: ctxAll, Default: 1}},
		{Name: "object", Schema: str(ctxAll)},
		{Name: "object_id", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(0.0), Context: ctxAll, Default: 0}},
		{Name: "target", Schema: &rest.Schema{Type: "string", Enum: strEnum("_blank", ""), Context: ctxAll}},
		{Name: "url", Schema: &rest.Schema{Type: "string", Format: "uri", Context: ctxAll}},
		{Name: "xfn", Schema: strs()},
		{Name: "invalid", Schema: &rest.Schema{Type: "boolean", Context: ctxAll, Readonly: true}},
		{Name: "menus", Schema: &rest.Schema{Type: "integer", Context: ctxView}},
		{Name: "meta", Schema: &rest.Schema{Type: "object", Context: ctxView}},
	}}
}

// menuItemCollectionArgs are the posts' collection parameters that apply,
// with the menu items' defaults (per_page 100, order asc, orderby
// menu_order) and the menus term query.
func menuItemCollectionArgs() rest.Props {
	args := collectionArgs(store.MenuItemType)
	for _, a := range args {
		switch a.Name {
		case "per_page":
			a.Schema.Default = 100
		case "order":
			a.Schema.Default = "asc"
		case "orderby":
			a.Schema.Default = "menu_order"
		}
	}
	return args
}

// urlArg is the url argument: a URI, or the empty string.
func urlArg() *rest.Schema {
	plain := &rest.Schema{Type: "string", Format: "uri"}
	return &rest.Schema{Type: "string", Format: "uri",
		Validate: func(_ *rest.Request, v any, param string) error {
			if s, ok := v.(string); ok && s == "" {
				return nil
			}
			_, err := rest.ParseArg(v, plain, param)
			if err != nil {
				return err
			}
			if s, _ := v.(string); !looksLikeURL(s) {
				return &rest.Error{Code: "rest_invalid_url", Message: "Invalid URL."}
			}
			return nil
		},
		Sanitize: func(_ *rest.Request, v any, _ string) (any, error) {
			s, _ := v.(string)
			return strings.TrimSpace(s), nil
		}}
}

// looksLikeURL accepts what esc_url_raw keeps: a scheme URL, a path, a
// fragment or a query.
func looksLikeURL(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, " <>\"") {
		return false
	}
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "?") {
		return true
	}
	i := strings.Index(s, ":")
	if i <= 0 {
		return strings.Contains(s, ".")
	}
	switch strings.ToLower(s[:i]) {
	case "http", "https", "ftp", "ftps", "mailto", "news", "irc", "gopher", "nntp", "feed", "telnet", "mms",
		"rtsp", "sms", "svn", "tel", "fax", "xmpp", "webcal", "urn":
		return true
	}
	return false
}

// menuItemWriteArgs are the schema-derived write arguments; the defaults
// apply on create only.
func menuItemWriteArgs(create bool) rest.Props {
	def := func(v any) any {
		if create {
			return v
		}
		return nil
	}
	strs := func() *rest.Schema { return &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string"}} }
	return rest.Props{
		{Name: "title", Schema: textArg()},
		{Name: "type", Schema: &rest.Schema{Type: "string", Enum: strEnum(menuItemTypes...), Default: def("custom")}},
		{Name: "status", Schema: &rest.Schema{Type: "string", Enum: strEnum(store.WriteStatuses...), Default: def("publish")}},
		{Name: "parent", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(0.0), Default: def(0)}},
		{Name: "attr_title", Schema: &rest.Schema{Type: "string", Format: "text-field"}},
		{Name: "classes", Schema: strs()},
		{Name: "description", Schema: &rest.Schema{Type: "string", Format: "text-field"}},
		{Name: "menu_order", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(1.0), Default: def(1)}},
		{Name: "object", Schema: &rest.Schema{Type: "string"}},
		{Name: "object_id", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(0.0), Default: def(0)}},
		{Name: "target", Schema: &rest.Schema{Type: "string", Enum: strEnum("_blank", "")}},
		{Name: "url", Schema: urlArg()},
		{Name: "xfn", Schema: strs()},
		{Name: "menus", Schema: &rest.Schema{Type: "integer"}},
		{Name: "meta", Schema: metaArg(nil)},
	}
}

// canReadMenuItems is check_has_read_only_access.
func canReadMenuItems(c *rest.Request) error {
	who := caller(c)
	if who.Can("edit_theme_options") || who.Can("edit_posts") || who.Can("edit_pages") {
		return nil
	}
	return rest.Denied(c, "rest_cannot_view", msgCannotViewMenuItems)
}

func listMenuItemsPermission(c *rest.Request) error {
	if err := listPostsPermission(store.MenuItemType)(c); err != nil {
		return err
	}
	return canReadMenuItems(c)
}

func (s *Service) cachedMenuItem(c *rest.Request) (*store.MenuItem, error) {
	v, err := c.Memo(memoKey("menu-item"), func() (any, error) {
		id := c.Int("id")
		if id <= 0 {
			return nil, errInvalidPostID()
		}
		m, err := store.GetMenuItem(c.Context(), s.db(c.Context()), id, false)
		if err != nil {
			return nil, err
		}
		if m == nil {
			return nil, errInvalidPostID()
		}
		return m, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*store.MenuItem), nil
}

func (s *Service) getMenuItemPermission(c *rest.Request) error {
	m, err := s.cachedMenuItem(c)
	if err != nil {
		return err
	}
	if c.String("context") == "edit" && !store.CanEdit(caller(c), store.MenuItemType, m.Post) {
		return rest.Denied(c, "rest_forbidden_context", msgForbiddenCtxItem)
	}
	if !store.CanRead(caller(c), store.MenuItemType, m.Post) {
		return rest.Denied(c, "rest_forbidden", msgForbidden)
	}
	return canReadMenuItems(c)
}

// updateMenuItemPermission: an id that exists but is no menu item is
// wp_update_nav_menu_item's refusal (400), an unknown id the posts' 404.
func (s *Service) updateMenuItemPermission(c *rest.Request) error {
	m, err := s.cachedMenuItem(c)
	if err != nil {
		if p, perr := store.GetPost(c.Context(), s.db(c.Context()), c.Int("id")); perr == nil && p != nil {
			return rest.NewError("update_nav_menu_item_failed", "The given object ID is not that of a menu item.", http.StatusBadRequest)
		}
		return err
	}
	if !store.CanEdit(caller(c), store.MenuItemType, m.Post) {
		return rest.Denied(c, "rest_cannot_edit", msgCannotEdit)
	}
	return nil
}

func (s *Service) createMenuItemAutosavePermission(c *rest.Request) error {
	if c.Int("id") == 0 {
		return rest.NewError("rest_post_invalid_id", "Invalid item ID.", http.StatusNotFound)
	}
	return s.updateMenuItemPermission(c)
}

func (s *Service) deleteMenuItemPermission(c *rest.Request) error {
	m, err := s.cachedMenuItem(c)
	if err != nil {
		return err
	}
	if !store.CanDelete(caller(c), store.MenuItemType, m.Post) {
		return rest.Denied(c, "rest_cannot_delete", msgCannotDelete)
	}
	return nil
}

// listMenuItems is GET /cms/v2/menu-items.
func (s *Service) listMenuItems(c *rest.Request) (*rest.Response, error) {
	q, err := s.listQuery(c, store.MenuItemType)
	if err != nil {
		return nil, err
	}
	if !c.Has("per_page") {
		q.PerPage = 100
	}
	db := s.db(c.Context())
	posts, total, err := store.ListPosts(c.Context(), db, q)
	if err != nil {
		return nil, err
	}
	if pages := (total + q.PerPage - 1) / q.PerPage; q.Page > pages && total > 0 {
		return nil, rest.NewError("rest_post_invalid_page_number", "The page number requested is larger than the number of pages available.", http.StatusBadRequest)
	}
	items, err := store.MenuItemsOf(c.Context(), db, posts)
	if err != nil {
		return nil, err
	}
	objs, err := store.LoadMenuObjects(c.Context(), db, items)
	if err != nil {
		return nil, err
	}
	context := c.String("context")
	out := make([]any, 0, len(items))
	for _, m := range items {
		if !store.CanRead(caller(c), store.MenuItemType, m.Post) || (context == "edit" && !store.CanEdit(caller(c), store.MenuItemType, m.Post)) {
			continue
		}
		out = append(out, s.prepareMenuItem(m, objs, context))
	}
	res := rest.OK(out)
	rest.Paginate(c, res, int64(total), q.Page, q.PerPage)
	return res, nil
}

// getMenuItem is GET /cms/v2/menu-items/{id}.
func (s *Service) getMenuItem(c *rest.Request) (*rest.Response, error) {
	m, err := s.cachedMenuItem(c)
	if err != nil {
		return nil, err
	}
	return s.renderMenuItem(c, s.db(c.Context()), m, c.String("context"))
}

func (s *Service) renderMenuItem(c *rest.Request, q store.Querier, m *store.MenuItem, context string) (*rest.Response, error) {
	objs, err := store.LoadMenuObjects(c.Context(), q, []*store.MenuItem{m})
	if err != nil {
		return nil, err
	}
	return rest.OK(s.prepareMenuItem(m, objs, context)), nil
}

// applyMenuItem is prepare_item_for_database: the request's fields over m
// (the defaults on create, the stored item on update), then the checks of
// §7.3, collected into one error as WordPress collects them.
func (s *Service) applyMenuItem(c *rest.Request, tx pgx.Tx, m *store.MenuItem) error {
	p := m.Post
	if t, ok := textValue(c, "title"); ok {
		p.Title = t
	}
	if c.Has("type") {
		m.ItemType = c.String("type")
	}
	if c.Has("status") {
		// stored as publish, or draft for anything else
		p.Status = "draft"
		if c.String("status") == "publish" {
			p.Status = "publish"
		}
	}
	if c.Has("parent") {
		m.ItemParent = c.Int("parent")
	}
	if c.Has("attr_title") {
		p.Excerpt = c.String("attr_title")
	}
	if c.Has("description") {
		p.Content = c.String("description")
	}
	if c.Has("classes") {
		m.Classes = htmlClasses(c.Strings("classes"))
	}
	if c.Has("xfn") {
		m.XFN = htmlClasses(c.Strings("xfn"))
	}
	if c.Has("menu_order") {
		p.MenuOrder = int(c.Int("menu_order"))
	}
	if c.Has("object") {
		m.Object = sanitizeKey(c.String("object"))
	}
	if c.Has("object_id") {
		m.ObjectID = c.Int("object_id")
	}
	if c.Has("target") {
		m.Target = c.String("target")
	}
	if c.Has("url") {
		m.URL = c.String("url")
	}
	if p.ID != 0 && m.ItemParent == p.ID {
		m.ItemParent = 0 // an item cannot be its own parent
	}
	var errs []*rest.Error
	bad := func(code, msg string) { errs = append(errs, rest.NewError(code, msg, http.StatusBadRequest)) }
	switch m.ItemType {
	case "taxonomy":
		t, err := store.TermByID(c.Context(), tx, m.ObjectID)
		if err != nil {
			return err
		}
		if t == nil || m.ObjectID == 0 || (m.Object != "" && m.Object != t.Taxonomy) {
			bad("rest_term_invalid_id", "Invalid term ID.")
		} else {
			m.Object = t.Taxonomy
		}
	case "post_type":
		var obj *store.Post
		if m.ObjectID > 0 {
			var err error
			if obj, err = store.GetPost(c.Context(), tx, m.ObjectID); err != nil {
				return err
			}
		}
		if obj == nil || store.TypeByName(obj.Type) == nil || (m.Object != "" && m.Object != obj.Type) {
			bad("rest_post_invalid_id", "Invalid post ID.")
		} else {
			m.Object = obj.Type
		}
	case "post_type_archive":
		if pt := store.TypeByName(m.Object); pt == nil || !pt.Public {
			bad("rest_post_invalid_type", "Invalid post type.")
		}
		m.ObjectID = 0
	case "custom":
		m.Object = "custom"
		if strings.TrimSpace(p.Title) == "" {
			bad("rest_title_required", "The title is required when using a custom menu item type.")
		}
		if strings.TrimSpace(m.URL) == "" {
			bad("rest_url_required", "The url is required when using a custom menu item type.")
		}
	}
	if m.ItemType != "custom" {
		m.URL = "" // derived from the object when rendered
	}
	if c.Has("menus") {
		menu := c.Int("menus")
		if menu < 0 {
			menu = -menu // absint
		}
		if menu != 0 {
			t, err := store.GetTerm(c.Context(), tx, store.Menu, menu)
			if err != nil {
				return err
			}
			if t == nil {
				bad("invalid_menu_id", "Invalid menu ID.")
			}
		}
		m.SetMenu(menu)
	}
	if len(errs) > 0 {
		return errs[0].With(errs[1:]...)
	}
	return nil
}

// htmlClasses sanitises class names (sanitize_html_class), splitting
// space-separated values and dropping empty ones.
func htmlClasses(in []string) []string {
	out := []string{}
	for _, v := range in {
		for _, f := range strings.Fields(v) {
			if c := sanitizeHTMLClass(f); c != "" {
				out = append(out, c)
			}
		}
	}
	return out
}

// sanitizeKey is sanitize_key: lower-case letters, digits, _ and -.
func sanitizeKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// saveMenuItemAll writes the post row, the menu_items row and the menu.
func saveMenuItemAll(c *rest.Request, tx pgx.Tx, m *store.MenuItem, create bool) error {
	ctx := c.Context()
	if create {
		if err := store.InsertPost(ctx, tx, m.Post); err != nil {
			return err
		}
		// a menu item's slug is its id (wp_insert_post names it so)
		m.Post.Slug = strconv.FormatInt(m.Post.ID, 10)
		if err := store.SetPostSlug(ctx, tx, m.Post.ID, m.Post.Slug); err != nil {
			return err
		}
	} else if err := store.UpdatePost(ctx, tx, m.Post); err != nil {
		return err
	}
	if err := store.SaveMenuItem(ctx, tx, m); err != nil {
		return err
	}
	if c.Has("menus") {
		return store.SetTerms(ctx, tx, m.Post.ID, store.Menu, m.Post.TermsOf(store.Menu))
	}
	return nil
}

// createMenuItem is POST /cms/v2/menu-items.
func (s *Service) createMenuItem(c *rest.Request) (*rest.Response, error) {
	now := s.now()
	m := &store.MenuItem{Post: &store.Post{Type: store.MenuItemType.Name, Status: "publish", Author: caller(c).UserID, DateGMT: now,
		ModifiedGMT: now, CommentStatus: "closed", PingStatus: "closed", Format: "standard", MenuOrder: 1}, ItemType: "custom"}
	var out *store.MenuItem
	err := s.inTx(c.Context(), func(tx pgx.Tx) error {
		if err := s.applyMenuItem(c, tx, m); err != nil {
			return err
		}
		if err := saveMenuItemAll(c, tx, m, true); err != nil {
			return err
		}
		var err error
		out, err = store.GetMenuItem(c.Context(), tx, m.Post.ID, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	res, err := s.renderMenuItem(c, s.db(c.Context()), out, "edit")
	if err != nil {
		return nil, err
	}
	res.Status = http.StatusCreated
	res.Header = http.Header{}
	res.Header.Set("Location", s.permalinks.PostREST(store.MenuItemType, out.Post.ID))
	return res, nil
}

// updateMenuItem is POST/PUT/PATCH /cms/v2/menu-items/{id}: unspecified
// fields keep their stored values.
func (s *Service) updateMenuItem(c *rest.Request) (*rest.Response, error) {
	var out *store.MenuItem
	err := s.inTx(c.Context(), func(tx pgx.Tx) error {
		m, err := store.GetMenuItem(c.Context(), tx, c.Int("id"), true)
		if err != nil {
			return err
		}
		if m == nil {
			return errInvalidPostID()
		}
		m.Post.ModifiedGMT = s.now()
		if err := s.applyMenuItem(c, tx, m); err != nil {
			return err
		}
		if err := saveMenuItemAll(c, tx, m, false); err != nil {
			return err
		}
		out, err = store.GetMenuItem(c.Context(), tx, m.Post.ID, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.renderMenuItem(c, s.db(c.Context()), out, "edit")
}

// deleteMenuItem is DELETE /cms/v2/menu-items/{id}: no trash.
func (s *Service) deleteMenuItem(c *rest.Request) (*rest.Response, error) {
	if !c.Bool("force") {
		return nil, rest.NewError("rest_trash_not_supported", "Menu items do not support trashing. Set 'force=true' to delete.", http.StatusNotImplemented)
	}
	var body any
	err := s.inTx(c.Context(), func(tx pgx.Tx) error {
		m, err := store.GetMenuItem(c.Context(), tx, c.Int("id"), true)
		if err != nil {
			return err
		}
		if m == nil {
			return errInvalidPostID()
		}
		objs, err := store.LoadMenuObjects(c.Context(), tx, []*store.MenuItem{m})
		if err != nil {
			return err
		}
		previous := s.prepareMenuItem(m, objs, "edit")
		if err := store.DeletePost(c.Context(), tx, m.Post); err != nil {
			return err
		}
		// children move up to the deleted item's parent, as
		// _wp_delete_post_menu_item does
		if err := store.MoveMenuItemChildren(c.Context(), tx, m.Post.ID, m.ItemParent); err != nil {
			return err
		}
		body = rest.Object{{Key: "deleted", Value: true}, {Key: "previous", Value: previous}}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rest.OK(body), nil
}

// createMenuItemAutosave is POST /cms/v2/menu-items/{id}/autosaves: the
// menu item's own checks, then an autosave of its title, description and
// attribute title (what a revision keeps), one per user.
func (s *Service) createMenuItemAutosave(c *rest.Request) (*rest.Response, error) {
	var body any
	err := s.inTx(c.Context(), func(tx pgx.Tx) error {
		m, err := store.GetMenuItem(c.Context(), tx, c.Int("id"), true)
		if err != nil {
			return err
		}
		if m == nil {
			return errInvalidPostID()
		}
		old := *m.Post
		draft := *m.Post
		m.Post = &draft
		if err := s.applyMenuItem(c, tx, m); err != nil {
			return err
		}
		now := s.now()
		existing, err := store.LatestRevision(c.Context(), tx, old.ID, true, caller(c).UserID)
		if err != nil {
			return err
		}
		var saved *store.Post
		switch {
		case existing != nil && !revisionDiffers(&draft, &old):
			saved = existing
		case existing != nil:
			rev := newRevision(&draft, caller(c).UserID, true)
			rev.ID, rev.DateGMT, rev.ModifiedGMT = existing.ID, now, now
			if err := store.UpdateAutosave(c.Context(), tx, rev); err != nil {
				return err
			}
			saved = rev
		default:
			rev := newRevision(&draft, caller(c).UserID, true)
			rev.DateGMT, rev.ModifiedGMT = now, now
			if err := store.InsertPost(c.Context(), tx, rev); err != nil {
				return err
			}
			saved = rev
		}
		body = s.prepareRevision(store.MenuItemType, &old, saved, "edit", true)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rest.OK(body), nil
}

// typeLabels are the singular labels of the types and taxonomies a menu
// item can point to (type_label).
var typeLabels = map[string]string{"post": "Post", "page": "Page", "wp_block": "Pattern",
	"wp_navigation": "Navigation Menu", "category": "Category", "post_tag": "Tag",
	"cms_pattern_category": "Pattern Category", "nav_menu": "Navigation Menu"}

// resolved is what the item shows of its object: title, url, label,
// whether it is gone, and its REST route (for wp:menu-item-object).
type resolved struct {
	title, url, label, route string
	invalid                  bool
}

func (s *Service) resolveMenuItem(m *store.MenuItem, objs *store.MenuObjects) resolved {
	r := resolved{title: m.Post.Title, url: m.URL}
	switch m.ItemType {
	case "post_type":
		r.label = typeLabels[m.Object]
		p := objs.Posts[m.ObjectID]
		pt := (*store.PostType)(nil)
		if p != nil {
			pt = store.TypeByName(p.Type)
		}
		if p == nil || pt == nil || p.Status == "trash" {
			r.invalid = true
			return r
		}
		if r.title == "" {
			r.title = p.Title
		}
		r.url = s.permalinks.Post(pt, p)
		r.route = s.permalinks.PostREST(pt, p.ID)
	case "taxonomy":
		r.label = typeLabels[m.Object]
		t := objs.Terms[m.ObjectID]
		if t == nil {
			r.invalid = true
			return r
		}
		if r.title == "" {
			r.title = t.Name
		}
		for _, tax := range store.Taxonomies {
			if tax.Name == t.Taxonomy {
				r.url = s.permalinks.Term(tax, t)
				r.route = s.restRoot + "/cms/v2/" + tax.Base + "/" + strconv.FormatInt(t.ID, 10)
			}
		}
	case "post_type_archive":
		r.label = "Post Type Archive"
		pt := store.TypeByName(m.Object)
		if pt == nil {
			r.invalid = true
			return r
		}
		r.url = s.site.URL + "/?post_type=" + pt.Name
		if pt == store.TypePost {
			r.url = s.site.URL + "/"
		}
	default:
		r.label = "Custom Link"
	}
	return r
}

// prepareMenuItem renders a menu item for context, in WordPress's order.
func (s *Service) prepareMenuItem(m *store.MenuItem, objs *store.MenuObjects, context string) rest.Object {
	r := s.resolveMenuItem(m, objs)
	p := m.Post
	out := make(rest.Object, 0, 20)
	add := func(k string, v any) { out = append(out, rest.Member{Key: k, Value: v}) }
	add("id", p.ID)
	title := rest.Object{}
	if context == "edit" {
		title = append(title, rest.Member{Key: "raw", Value: p.Title})
	}
	add("title", append(title, rest.Member{Key: "rendered", Value: r.title}))
	add("status", p.Status)
	add("url", r.url)
	add("attr_title", p.Excerpt)
	add("description", p.Content)
	add("type", m.ItemType)
	add("type_label", r.label)
	add("object", m.Object)
	objectID := m.ObjectID
	if m.ItemType == "custom" {
		objectID = p.ID // WordPress stores a custom link's own id
	}
	add("object_id", objectID)
	add("parent", m.ItemParent)
	add("menu_order", p.MenuOrder)
	add("target", m.Target)
	add("classes", store.NonNil(m.Classes))
	add("xfn", store.NonNil(m.XFN))
	add("invalid", r.invalid)
	if context != "embed" {
		add("meta", []any{})
		add("menus", m.MenuID())
	}
	self := s.permalinks.PostREST(store.MenuItemType, p.ID)
	links := rest.Object{
		{Key: "self", Value: []any{href(self)}},
		{Key: "collection", Value: []any{href(s.restRoot + menuItemBase)}},
		{Key: "about", Value: []any{href(s.restRoot + "/cms/v2/types/" + store.MenuItemType.Name)}},
		{Key: "wp:term", Value: []any{rest.Object{{Key: "taxonomy", Value: store.Menu.Name}, {Key: "embeddable", Value: true},
			{Key: "href", Value: s.restRoot + "/cms/v2/" + store.Menu.Base + "?post=" + strconv.FormatInt(p.ID, 10)}}}},
	}
	if r.route != "" {
		kind := "post_type"
		if m.ItemType == "taxonomy" {
			kind = "taxonomy"
		}
		links = append(links, rest.Member{Key: "wp:menu-item-object", Value: []any{href(r.route, kind, m.Object, "embeddable", true)}})
	}
	links = append(links, rest.Member{Key: "curies", Value: curies})
	add("_links", links)
	return out
}
