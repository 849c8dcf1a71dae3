package content

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// cms-block-editor/v1/navigation-fallback (WordPress's
// wp-block-editor/v1): the navigation menu a new Navigation block shows.
// WP_Navigation_Fallback: the most recently published wp_navigation post;
// else one made from the classic menu (the primary location's, else the
// one with slug "primary", else the newest); else a new "Navigation" post
// holding a page list. Creation runs under a lock, so concurrent first
// calls make one post.

// blockEditorNamespace is WordPress's wp-block-editor/v1, renamed as the
// seed renames brand stems.
const blockEditorNamespace = "cms-block-editor/v1"

func (s *Service) navigationFallbackRoutes() []rest.Route {
	sch := readonlyItemSchema("navigation-fallback", ctxAll, [3]string{"id", "The unique identifier for the Navigation Menu.", "integer"})
	return []rest.Route{{Namespace: blockEditorNamespace, Path: "/navigation-fallback", Schema: sch, Endpoints: []rest.Endpoint{{
		Methods: rest.Readable, Permission: navigationFallbackPermission, Handler: s.navigationFallback}}}}
}

// navigationFallbackPermission: the fallback may create a wp_navigation
// post, so the caller must be able to (and to edit posts); edit context
// needs the right to edit navigation menus.
func navigationFallbackPermission(r *rest.Request) error {
	who := caller(r)
	caps := store.TypeNavigation.Caps
	if !who.Can(caps.Create) || !who.Can("edit_theme_options") || !who.Can("edit_posts") {
		return rest.Denied(r, "rest_cannot_create", "Sorry, you are not allowed to create Navigation Menus as this user.")
	}
	if ctx, _ := r.QueryParams()["context"].(string); ctx == "edit" && !who.Can(caps.EditPosts) {
		return rest.Denied(r, "rest_forbidden_context", "Sorry, you are not allowed to edit Navigation Menus as this user.")
	}
	return nil
}

func (s *Service) navigationFallback(r *rest.Request) (*rest.Response, error) {
	ctx := r.Context()
	id, err := store.LatestNavigationID(ctx, s.db(ctx))
	if err != nil {
		return nil, err
	}
	if id == 0 {
		created := false
		err = s.inTx(ctx, func(tx pgx.Tx) error {
			if err := store.LockNavigationFallback(ctx, tx); err != nil {
				return err
			}
			if id, err = store.LatestNavigationID(ctx, tx); err != nil || id != 0 {
				return err
			}
			id, err = s.createFallbackNavigation(r, tx)
			created = err == nil
			return err
		})
		if err != nil {
			return nil, wrapErr("create the fallback navigation", err)
		}
		if created {
			s.commits.Committed()
		}
	}
	return rest.OK(rest.Item{Data: rest.Object{{Key: "id", Value: id}},
		Links: rest.Links{rest.EmbeddableLink("self", s.permalinks.PostREST(store.TypeNavigation, id))}}), nil
}

// createFallbackNavigation inserts the published wp_navigation post made
// from the classic menu, or the default one (a page list).
func (s *Service) createFallbackNavigation(r *rest.Request, tx pgx.Tx) (int64, error) {
	ctx := r.Context()
	title, slug, content := "Navigation", "navigation", "<!-- wp:page-list /-->"
	menu, err := store.FallbackClassicMenu(ctx, tx)
	if err != nil {
		return 0, err
	}
	if menu != nil {
		blocks, err := s.classicMenuBlocks(r, tx, menu.ID)
		if err != nil {
			return 0, err
		}
		if blocks != "" {
			title, slug, content = menu.Name, menu.Slug, blocks
		}
	}
	now := s.now()
	p := &store.Post{Type: store.TypeNavigation.Name, Status: "publish", Author: caller(r).UserID, CommentStatus: "closed", PingStatus: "closed",
		Format: "standard", DateGMT: now, ModifiedGMT: now, Title: title, Content: content}
	if p.Slug, err = store.UniqueSlug(ctx, tx, store.TypeNavigation, store.SanitizeTitle(slug), 0, 0, ""); err != nil {
		return 0, err
	}
	if err := store.InsertNewPost(ctx, tx, store.TypeNavigation, p, store.NewPostTerms{}, []string{p.Slug}, false); err != nil {
		return 0, err
	}
	return p.ID, nil
}

// classicMenuBlocks is WP_Classic_To_Block_Menu_Converter: the menu's
// published items that still point at something, as navigation-link
// blocks (navigation-submenu for an item with children), serialized.
func (s *Service) classicMenuBlocks(r *rest.Request, q store.Querier, menu int64) (string, error) {
	ctx := r.Context()
	posts, _, err := store.ListPosts(ctx, q, &store.ListQuery{Type: store.MenuItemType, Page: 1, PerPage: 500, Statuses: []string{"publish"},
		Tax: []store.TaxClause{{Tax: store.Menu, Terms: []int64{menu}, Operator: "IN"}}, Order: "asc", OrderBy: "menu_order"})
	if err != nil {
		return "", err
	}
	items, err := store.MenuItemsOf(ctx, q, posts)
	if err != nil {
		return "", err
	}
	objs, err := store.LoadMenuObjects(ctx, q, items)
	if err != nil {
		return "", err
	}
	byParent := map[int64][]*store.MenuItem{}
	resolvedOf := map[int64]resolved{}
	for _, m := range items {
		res := s.resolveMenuItem(m, objs)
		if res.invalid {
			continue // _is_valid_nav_menu_item: outside the admin, gone objects are dropped
		}
		resolvedOf[m.Post.ID] = res
		byParent[m.ItemParent] = append(byParent[m.ItemParent], m)
	}
	var sb strings.Builder
	writeMenuBlocks(&sb, byParent[0], byParent, resolvedOf)
	return sb.String(), nil
}

// writeMenuBlocks serializes items as serialize_blocks does: void blocks,
// a submenu wrapping its children's markup, no whitespace between.
func writeMenuBlocks(sb *strings.Builder, items []*store.MenuItem, byParent map[int64][]*store.MenuItem, res map[int64]resolved) {
	for _, m := range items {
		name := "navigation-link"
		children := byParent[m.Post.ID]
		if len(children) > 0 {
			name = "navigation-submenu"
		}
		sb.WriteString("<!-- wp:" + name + " " + menuItemAttrs(m, res[m.Post.ID]))
		if len(children) == 0 {
			sb.WriteString(" /-->")
			continue
		}
		sb.WriteString(" -->")
		writeMenuBlocks(sb, children, byParent, res)
		sb.WriteString("<!-- /wp:" + name + " -->")
	}
}

// menuItemAttrs are the converter's attributes, in its order, encoded as
// serialize_block_attributes encodes them.
func menuItemAttrs(m *store.MenuItem, res resolved) string {
	var id, rel any
	if m.Object != "custom" {
		id = m.ObjectID
	}
	if x := strings.Join(m.XFN, " "); x != "" {
		rel = x
	}
	attrs := rest.Object{
		{Key: "className", Value: strings.Join(m.Classes, " ")},
		{Key: "description", Value: m.Post.Content},
		{Key: "id", Value: id},
		{Key: "kind", Value: strings.ReplaceAll(m.ItemType, "_", "-")},
		{Key: "label", Value: res.title},
		{Key: "opensInNewTab", Value: m.Target == "_blank"},
		{Key: "rel", Value: rel},
		{Key: "title", Value: m.Post.Excerpt},
		{Key: "type", Value: m.Object},
		{Key: "url", Value: res.url},
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, a := range attrs {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONNoHTML(&b, a.Key)
		b.WriteByte(':')
		writeJSONNoHTML(&b, a.Value)
	}
	b.WriteByte('}')
	return blockAttributeEscapes.Replace(b.String())
}

func writeJSONNoHTML(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)       // strings, numbers, booleans and nil always encode
	b.Truncate(b.Len() - 1) // Encode's newline
}

// blockAttributeEscapes are serialize_block_attributes' replacements, which
// keep the JSON from closing the comment or being read as HTML.
var blockAttributeEscapes = strings.NewReplacer("--", `\u002d\u002d`, "<", `\u003c`, ">", `\u003e`, "&", `\u0026`, `\"`, `\u0022`)
