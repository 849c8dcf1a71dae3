package accounts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Preferences returns the block editor's preferences stored for the user
// (WordPress's persisted_preferences user meta); nil when none were.
func (s *Store) Preferences(ctx context.Context, userID int64) (json.RawMessage, error) {
	var data []byte
	err := s.pool.QueryRow(ctx, `SELECT data FROM user_preferences WHERE user_id = $1`, userID).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the preferences of user %d: %w", userID, err)
	}
	return data, nil
}

// SetPreferences replaces the user's preferences with data, a JSON object.
func (s *Store) SetPreferences(ctx context.Context, userID int64, data json.RawMessage) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO user_preferences (user_id, data) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET data = EXCLUDED.data`, userID, []byte(data))
	if err != nil {
		return fmt.Errorf("store the preferences of user %d: %w", userID, err)
	}
	return nil
}
