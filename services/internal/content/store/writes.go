package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Writes the REST handlers make apart from the posts', terms' and
// templates' own statements.

// PublishDue publishes the scheduled posts whose date is at or before now
// and gives each its first revision when it has none (wp_publish_post);
// it returns how many it published.
func PublishDue(ctx context.Context, q Querier, now time.Time) (int64, error) {
	var n int64
	if err := q.QueryRow(ctx, `WITH pub AS (
		UPDATE posts SET status = 'publish' WHERE status = 'future' AND date_gmt <= $1
		RETURNING id, modified_gmt, title, content, excerpt, footnotes),
	rev AS (
		INSERT INTO posts (type, status, author, date_gmt, date_floating, modified_gmt, slug, title, content, excerpt,
			password, parent, menu_order, comment_status, ping_status, format, sticky, template, featured_media,
			footnotes, sync_status, autosave, trash_status)
		SELECT 'revision', 'inherit', 0, pub.modified_gmt, false, pub.modified_gmt, pub.id || '-revision-v1', pub.title,
			pub.content, pub.excerpt, '', pub.id, 0, 'closed', 'closed', 'standard', false, '', 0, pub.footnotes, '', false, ''
		FROM pub WHERE NOT EXISTS (
			SELECT 1 FROM posts r WHERE r.parent = pub.id AND r.type = 'revision' AND NOT r.autosave))
	SELECT count(*) FROM pub`, now).Scan(&n); err != nil {
		return 0, fmt.Errorf("update scheduled posts: %w", err)
	}
	return n, nil
}

// MoveMenuItemChildren moves the children of menu item id up to parent
// (_wp_delete_post_menu_item).
func MoveMenuItemChildren(ctx context.Context, q Querier, id, parent int64) error {
	if _, err := q.Exec(ctx, `UPDATE menu_items SET item_parent = $2 WHERE item_parent = $1`, id, parent); err != nil {
		return fmt.Errorf("move children of menu item %d: %w", id, err)
	}
	return nil
}

// DeleteAutosaves deletes author's autosaves of post parent.
func DeleteAutosaves(ctx context.Context, q Querier, parent, author int64) error {
	if _, err := q.Exec(ctx, `DELETE FROM posts WHERE parent = $1 AND type = 'revision' AND autosave AND author = $2`, parent, author); err != nil {
		return fmt.Errorf("replace autosave: %w", err)
	}
	return nil
}

// NextPostID draws a post id ahead of its insert.
func NextPostID(ctx context.Context, q Querier) (int64, error) {
	var id int64
	if err := q.QueryRow(ctx, `SELECT nextval('posts_id_seq')`).Scan(&id); err != nil {
		return 0, fmt.Errorf("draw a post id: %w", err)
	}
	return id, nil
}

// GlobalStylesID is the id of the theme's global styles post; 0 when it
// has none.
func GlobalStylesID(ctx context.Context, q Querier, stylesheet string) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, `SELECT id FROM posts WHERE type = $1 AND theme = $2 AND status = 'publish' ORDER BY id LIMIT 1`,
		GlobalStylesType, stylesheet).Scan(&id)
	if err == pgx.ErrNoRows {
		return 0, nil
	}
	return id, err
}

// LockGlobalStyles takes the transaction's lock on creating the theme's
// global styles post (so two first uses create one).
func LockGlobalStyles(ctx context.Context, q Querier, stylesheet string) error {
	_, err := q.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('wp_global_styles:' || $1))`, stylesheet)
	return err
}

// TakeMenuLocations removes locs from every menu but menu (a location
// belongs to one menu).
func TakeMenuLocations(ctx context.Context, q Querier, menu int64, locs []string) error {
	if _, err := q.Exec(ctx, `UPDATE menu_settings SET locations = ARRAY(SELECT unnest(locations) EXCEPT SELECT unnest($2::text[]))
			WHERE term_id <> $1 AND locations && $2::text[]`, menu, locs); err != nil {
		return fmt.Errorf("move menu locations: %w", err)
	}
	return nil
}

// SaveMenuSettings writes menu t's locations and auto_add.
func SaveMenuSettings(ctx context.Context, q Querier, t *Term) error {
	_, err := q.Exec(ctx, `INSERT INTO menu_settings (term_id, locations, auto_add) VALUES ($1, $2, $3)
		ON CONFLICT (term_id) DO UPDATE SET locations = $2, auto_add = $3`, t.ID, NonNil(t.Locations), t.AutoAdd)
	if err != nil {
		return fmt.Errorf("save settings of menu %d: %w", t.ID, err)
	}
	return nil
}

// ResetSetting deletes the stored value of setting name (its default
// shows again).
func ResetSetting(ctx context.Context, q Querier, name string) error {
	if _, err := q.Exec(ctx, `DELETE FROM settings WHERE name = $1`, name); err != nil {
		return fmt.Errorf("reset setting %s: %w", name, err)
	}
	return nil
}

// SaveSetting stores setting name's JSON value.
func SaveSetting(ctx context.Context, q Querier, name string, raw []byte) error {
	if _, err := q.Exec(ctx, `INSERT INTO settings (name, value) VALUES ($1, $2)
				ON CONFLICT (name) DO UPDATE SET value = $2`, name, raw); err != nil {
		return fmt.Errorf("save setting %s: %w", name, err)
	}
	return nil
}

// ReadSettings reads every stored setting: name → JSON value.
func ReadSettings(ctx context.Context, q Querier) (map[string][]byte, error) {
	rows, err := q.Query(ctx, `SELECT name, value FROM settings`)
	if err != nil {
		return nil, fmt.Errorf("select settings: %w", err)
	}
	defer rows.Close()
	out := map[string][]byte{}
	for rows.Next() {
		var name string
		var raw []byte
		if err := rows.Scan(&name, &raw); err != nil {
			return nil, fmt.Errorf("select settings: %w", err)
		}
		out[name] = raw
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("select settings: %w", err)
	}
	return out, nil
}
