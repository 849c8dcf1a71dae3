package content

import (
	"net/http"
	"strconv"
	"strings"

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
			{Methods: rest.Creatable, Args: menuItemWriteArgs(true), AllowBatch: batchV1, Permission: s.createPostPermission(pt), Handler: s.createMenuItem},
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
		// a string or an object with raw, as the controller declares it
		{Name: "title", Schema: &rest.Schema{Types: []string{"string", "object"}, Validate: acceptAny, Sanitize: keepValue}},
		{Name: "type", Schema: &rest.Schema{Type: "string", Enum: strEnum(menuItemTypes...), Default: def("custom")}},
		{Name: "status", Schema: &rest.Schema{Type: "string", Enum: strEnum(store.WriteStatuses...), Default: def("publish")}},
		{Name: "parent", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(0.0), Default: def(0)}},
		{Name: "attr_title", Schema: &rest.Schema{Type: "string", Format: "text-field"}},
		{Name: "classes", Schema: strs()},
		{Name: "description", Schema: &rest.Schema{Type: "string", Format: "text-field"}},
		{Name: "menu_order", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(1.0), Default: def(1), Int32: true}},
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
