package store

import (
	"context"
	"fmt"
)

// LatestRevision returns the newest revision (or autosave, of author when
// non-zero) of parent; nil when none.
func LatestRevision(ctx context.Context, q Querier, parent int64, autosave bool, author int64) (*Post, error) {
	sql := "SELECT " + PostColumns + " FROM posts p" + LateralsFor(&PostType{}) + ` WHERE p.parent = $1 AND p.type = 'revision' AND p.autosave = $2
		AND ($3 = 0 OR p.author = $3) ORDER BY p.date_gmt DESC, p.id DESC LIMIT 1`
	rows, err := q.Query(ctx, sql, parent, autosave, author)
	if err != nil {
		return nil, fmt.Errorf("select the latest revision of post %d: %w", parent, err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("select the latest revision of post %d: %w", parent, err)
		}
		return nil, nil
	}
	p, err := ScanPost(rows)
	if err != nil {
		return nil, fmt.Errorf("select the latest revision of post %d: %w", parent, err)
	}
	return p, nil
}

// DefaultCategory is the default_category setting (WordPress's 1 when unset).
func DefaultCategory(ctx context.Context, q Querier) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, `SELECT COALESCE((SELECT (value #>> '{}')::bigint FROM settings WHERE name = 'default_category'), $1)`,
		int64(DefaultCategoryID)).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("read default_category: %w", err)
	}
	return id, nil
}
