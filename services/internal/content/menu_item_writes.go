package content

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// Menu item writes: create, update, delete and autosave, with the fields a
// request may set (applyMenuItem).

// applyMenuItem is prepare_item_for_database: the request's fields over m
// (the defaults on create, the stored item on update), then the checks of
// §7.3, collected into one error as WordPress collects them.
func (s *Service) applyMenuItem(c *rest.Request, tx pgx.Tx, m *store.MenuItem) error {
	w := &menuItemWrite{c: c, tx: tx, m: m}
	for _, step := range []func() error{w.fields, w.object, w.menu} {
		if err := step(); err != nil {
			return err
		}
	}
	if len(w.errs) > 0 {
		return w.errs[0].With(w.errs[1:]...)
	}
	return nil
}

// menuItemWrite is one menu item write in steps, as postWrite is a post's:
// the request's fields onto the item, then the checks of its object and
// menu. Their refusals are collected rather than ending the write, since
// WordPress reports them together; a failed read ends it.
type menuItemWrite struct {
	c    *rest.Request
	tx   pgx.Tx
	m    *store.MenuItem
	errs []*rest.Error
}

func (w *menuItemWrite) bad(code, msg string) {
	w.errs = append(w.errs, rest.NewError(code, msg, http.StatusBadRequest))
}

// fields copies what the request sets onto the item.
func (w *menuItemWrite) fields() error {
	c, m := w.c, w.m
	p := m.Post
	if t, ok := textValue(c, "title"); ok {
		p.Title = t
	}
	setIfGiven(c, "type", &m.ItemType, c.String)
	setIfGiven(c, "parent", &m.ItemParent, c.Int)
	setIfGiven(c, "attr_title", &p.Excerpt, c.String)
	setIfGiven(c, "description", &p.Content, c.String)
	classes := func(name string) []string { return htmlClasses(c.Strings(name)) }
	setIfGiven(c, "classes", &m.Classes, classes)
	setIfGiven(c, "xfn", &m.XFN, classes)
	setIfGiven(c, "object_id", &m.ObjectID, c.Int)
	setIfGiven(c, "target", &m.Target, c.String)
	setIfGiven(c, "url", &m.URL, c.String)
	if c.Has("status") {
		// stored as publish, or draft for anything else
		p.Status = "draft"
		if c.String("status") == "publish" {
			p.Status = "publish"
		}
	}
	if c.Has("menu_order") {
		p.MenuOrder = int(c.Int("menu_order"))
	}
	if c.Has("object") {
		m.Object = rest.SanitizeKey(c.String("object"))
	}
	if p.ID != 0 && m.ItemParent == p.ID {
		m.ItemParent = 0 // an item cannot be its own parent
	}
	return nil
}

// setIfGiven sets *dst to the request's name parameter, read by get, when
// the request has it: a write changes only the fields it names.
func setIfGiven[T any](c *rest.Request, name string, dst *T, get func(name string) T) {
	if c.Has(name) {
		*dst = get(name)
	}
}

// object checks the item's object by its type and fills in the object
// name from it.
func (w *menuItemWrite) object() error {
	c, m, tx, bad := w.c, w.m, w.tx, w.bad
	p := m.Post
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
	return nil
}

// menu checks the menu the request assigns (absint of menus) and records it.
func (w *menuItemWrite) menu() error {
	c, m := w.c, w.m
	if !c.Has("menus") {
		return nil
	}
	menu := c.Int("menus")
	if menu < 0 {
		menu = -menu // absint
	}
	if menu != 0 {
		t, err := store.GetTerm(c.Context(), w.tx, store.Menu, menu)
		if err != nil {
			return err
		}
		if t == nil {
			w.bad("invalid_menu_id", "Invalid menu ID.")
		}
	}
	m.SetMenu(menu)
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
		m, err := lockMenuItem(c, tx)
		if err != nil {
			return err
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

// lockMenuItem loads the request's menu item locked for a write; a missing
// one is an invalid post id, as for any post.
func lockMenuItem(c *rest.Request, tx pgx.Tx) (*store.MenuItem, error) {
	m, err := store.GetMenuItem(c.Context(), tx, c.Int("id"), true)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errInvalidPostID()
	}
	return m, nil
}

// deleteMenuItem is DELETE /cms/v2/menu-items/{id}: no trash.
func (s *Service) deleteMenuItem(c *rest.Request) (*rest.Response, error) {
	if !c.Bool("force") {
		return nil, rest.NewError("rest_trash_not_supported", "Menu items do not support trashing. Set 'force=true' to delete.", http.StatusNotImplemented)
	}
	var body any
	return s.answerInTx(c, &body, func(tx pgx.Tx) error {
		m, err := lockMenuItem(c, tx)
		if err != nil {
			return err
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
}

// createMenuItemAutosave is POST /cms/v2/menu-items/{id}/autosaves: the
// menu item's own checks, then an autosave of its title, description and
// attribute title (what a revision keeps), one per user.
func (s *Service) createMenuItemAutosave(c *rest.Request) (*rest.Response, error) {
	var body any
	return s.answerInTx(c, &body, func(tx pgx.Tx) error {
		m, err := lockMenuItem(c, tx)
		if err != nil {
			return err
		}
		old := *m.Post
		draft := *m.Post
		m.Post = &draft
		if err := s.applyMenuItem(c, tx, m); err != nil {
			return err
		}
		saved, err := saveAutosave(c, tx, &old, &draft, s.now())
		if err != nil {
			return err
		}
		body = s.prepareRevision(store.MenuItemType, &old, saved, "edit", true)
		return nil
	})
}
