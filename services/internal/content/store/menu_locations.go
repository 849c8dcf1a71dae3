package store

import (
	"context"
	"fmt"
)

// MenuLocationAssignments maps each theme location to the menu assigned to
// it (a location belongs to one menu at most).
func MenuLocationAssignments(ctx context.Context, q Querier) (map[string]int64, error) {
	rows, err := q.Query(ctx, `SELECT loc, term_id FROM menu_settings, unnest(locations) AS loc`)
	if err != nil {
		return nil, fmt.Errorf("read menu locations: %w", err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var loc string
		var id int64
		if err := rows.Scan(&loc, &id); err != nil {
			return nil, fmt.Errorf("read menu locations: %w", err)
		}
		out[loc] = id
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read menu locations: %w", err)
	}
	return out, nil
}
