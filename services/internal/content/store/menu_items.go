package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// MenuItem is a nav_menu_item post with what WordPress keeps in its
// _menu_item_* meta (the menu_items table).
type MenuItem struct {
	Post       *Post
	ItemType   string // taxonomy, post_type, post_type_archive, custom
	Object     string
	ObjectID   int64
	ItemParent int64
	Target     string
	URL        string
	Classes    []string
	XFN        []string
}

// MenuID is the item's nav_menu term (0 when unassigned).
func (m *MenuItem) MenuID() int64 {
	if ids := m.Post.TermsOf(Menu); len(ids) > 0 {
		return ids[0]
	}
	return 0
}

const menuItemColumns = `item_type, object, object_id, item_parent, target, url, classes, xfn`

func scanMenuExtras(row pgx.Row, m *MenuItem, id *int64) error {
	dest := []any{&m.ItemType, &m.Object, &m.ObjectID, &m.ItemParent, &m.Target, &m.URL, &m.Classes, &m.XFN}
	if id != nil {
		dest = append([]any{id}, dest...)
	}
	return row.Scan(dest...)
}

// GetMenuItem reads a menu item; nil when id is no menu item. lock takes
// the row for an update.
func GetMenuItem(ctx context.Context, q Querier, id int64, lock bool) (*MenuItem, error) {
	p, err := GetPostAs(ctx, q, id, lock, MenuItemType)
	if err != nil || p == nil || p.Type != MenuItemType.Name {
		return nil, err
	}
	m := &MenuItem{Post: p}
	err = scanMenuExtras(q.QueryRow(ctx, "SELECT "+menuItemColumns+" FROM menu_items WHERE post_id = $1", id), m, nil)
	if errors.Is(err, pgx.ErrNoRows) {
		return &MenuItem{Post: p, ItemType: "custom", Object: "custom"}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("select menu item %d: %w", id, err)
	}
	return m, nil
}

// MenuItemsOf adds the menu_items rows to a page of posts, in one query.
func MenuItemsOf(ctx context.Context, q Querier, posts []*Post) ([]*MenuItem, error) {
	out := make([]*MenuItem, len(posts))
	idx := make(map[int64]int, len(posts))
	ids := make([]int64, len(posts))
	for i, p := range posts {
		out[i] = &MenuItem{Post: p, ItemType: "custom", Object: "custom"}
		idx[p.ID], ids[i] = i, p.ID
	}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.Query(ctx, "SELECT post_id, "+menuItemColumns+" FROM menu_items WHERE post_id = ANY($1)", ids)
	if err != nil {
		return nil, fmt.Errorf("select menu items: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		m := &MenuItem{}
		if err := scanMenuExtras(rows, m, &id); err != nil {
			return nil, fmt.Errorf("select menu items: %w", err)
		}
		m.Post = out[idx[id]].Post
		out[idx[id]] = m
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("select menu items: %w", err)
	}
	return out, nil
}

// SaveMenuItem writes the item's menu_items row (insert or replace).
func SaveMenuItem(ctx context.Context, q Querier, m *MenuItem) error {
	_, err := q.Exec(ctx, `INSERT INTO menu_items (post_id, `+menuItemColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)
		ON CONFLICT (post_id) DO UPDATE SET item_type=$2, object=$3, object_id=$4, item_parent=$5, target=$6, url=$7,
		classes=$8, xfn=$9`, m.Post.ID, m.ItemType, m.Object, m.ObjectID, m.ItemParent, m.Target, m.URL,
		NonNil(m.Classes), NonNil(m.XFN))
	if err != nil {
		return fmt.Errorf("save menu item %d: %w", m.Post.ID, err)
	}
	return nil
}

// NonNil is s, or an empty slice for nil (a column that is NOT NULL).
func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// MenuObjects is what menu items reference, loaded for a page of items in
// two queries: the posts (with what their permalink needs) and the terms.
type MenuObjects struct {
	Posts map[int64]*Post
	Terms map[int64]*Term
}

// LoadMenuObjects reads what the items reference: posts and terms, one
// statement each.
func LoadMenuObjects(ctx context.Context, q Querier, items []*MenuItem) (*MenuObjects, error) {
	objs := &MenuObjects{Posts: map[int64]*Post{}, Terms: map[int64]*Term{}}
	var postIDs, termIDs []int64
	for _, m := range items {
		switch m.ItemType {
		case "post_type":
			postIDs = append(postIDs, m.ObjectID)
		case "taxonomy":
			termIDs = append(termIDs, m.ObjectID)
		}
	}
	if len(postIDs) > 0 {
		rows, err := q.Query(ctx, "SELECT "+PostColumns+PostFrom+" WHERE p.id = ANY($1)", postIDs)
		if err != nil {
			return nil, fmt.Errorf("select menu item objects: %w", err)
		}
		for rows.Next() {
			p, err := ScanPost(rows)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("select menu item objects: %w", err)
			}
			objs.Posts[p.ID] = p
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("select menu item objects: %w", err)
		}
	}
	if len(termIDs) > 0 {
		rows, err := q.Query(ctx, "SELECT "+termColumns+" FROM terms t WHERE t.id = ANY($1)", termIDs)
		if err != nil {
			return nil, fmt.Errorf("select menu item terms: %w", err)
		}
		for rows.Next() {
			t, err := scanTerm(rows)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("select menu item terms: %w", err)
			}
			objs.Terms[t.ID] = t
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("select menu item terms: %w", err)
		}
	}
	return objs, nil
}

// TermByID reads a term of any taxonomy; nil when absent.
func TermByID(ctx context.Context, q Querier, id int64) (*Term, error) {
	t, err := scanTerm(q.QueryRow(ctx, "SELECT "+termColumns+" FROM terms t WHERE t.id = $1", id))
	return one(t, err, "select term", id)
}

// DeleteMenuItems removes the items of a menu (and their autosaves), as
// wp_delete_nav_menu does before the menu term goes.
func DeleteMenuItems(ctx context.Context, q Querier, menu int64) error {
	_, err := q.Exec(ctx, `WITH items AS (
		SELECT p.id FROM posts p JOIN term_relationships r ON r.post_id = p.id
		WHERE r.term_id = $1 AND p.type = 'nav_menu_item')
		DELETE FROM posts WHERE id IN (SELECT id FROM items) OR (type = 'revision' AND parent IN (SELECT id FROM items))`, menu)
	if err != nil {
		return fmt.Errorf("delete items of menu %d: %w", menu, err)
	}
	return nil
}

// SetMenu records the menu the write assigns (written by saveMenuItemAll).
func (m *MenuItem) SetMenu(id int64) {
	var ids []int64
	var taxes, slugs []string
	for i, t := range m.Post.TermIDs {
		if m.Post.TermTaxonomies[i] != Menu.Name {
			ids, taxes, slugs = append(ids, t), append(taxes, m.Post.TermTaxonomies[i]), append(slugs, m.Post.TermSlugs[i])
		}
	}
	if id != 0 {
		ids, taxes, slugs = append(ids, id), append(taxes, Menu.Name), append(slugs, "")
	}
	m.Post.TermIDs, m.Post.TermTaxonomies, m.Post.TermSlugs = ids, taxes, slugs
}
