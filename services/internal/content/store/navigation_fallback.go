package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// LatestNavigationID is the most recently published wp_navigation post
// (WP_Navigation_Fallback's get_most_recently_published_navigation); 0
// when there is none.
func LatestNavigationID(ctx context.Context, q Querier) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, `SELECT id FROM posts WHERE type = 'wp_navigation' AND status = 'publish' ORDER BY date_gmt DESC, id DESC LIMIT 1`).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read latest navigation: %w", err)
	}
	return id, nil
}

// LockNavigationFallback takes the transaction's lock on creating the
// fallback navigation (so two first uses create one).
func LockNavigationFallback(ctx context.Context, q Querier) error {
	if _, err := q.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('wp_navigation:fallback'))`); err != nil {
		return fmt.Errorf("lock navigation fallback: %w", err)
	}
	return nil
}

// FallbackClassicMenu is the classic menu the navigation fallback converts:
// the one at the primary location, else the one with the slug "primary",
// else the most recently created; nil when the site has no menu.
func FallbackClassicMenu(ctx context.Context, q Querier) (*Term, error) {
	var id int64
	err := q.QueryRow(ctx, `SELECT t.id FROM terms t LEFT JOIN menu_settings ms ON ms.term_id = t.id
		WHERE t.taxonomy = 'nav_menu'
		ORDER BY COALESCE('primary' = ANY(ms.locations), false) DESC, t.slug = 'primary' DESC, t.id DESC LIMIT 1`).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read fallback menu: %w", err)
	}
	return TermByID(ctx, q, id)
}
