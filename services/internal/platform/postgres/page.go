package postgres

import (
	"context"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"
)

// Page is one page of a collection and the total of its matches, read in
// one round trip: Select lists the row's columns followed by
// count(*) OVER () and ends in its LIMIT and OFFSET. When that page is empty
// past the start, the window count has no row to ride on, so the statement
// Count returns (the same filter, counted, with its own arguments) is run
// to tell "past the end" from "no matches". Count is a function because
// most pages never need it and building it is not free on hot lists.
type Page struct {
	Name      string // what is listed, for errors: "list comments: …"
	Select    string
	Args      []any
	Count     func() (sql string, args []any)
	PastStart bool // the page is not the first (page > 1 or offset > 0)
}

// Rows is what a Page is read through: a pool, a connection or a
// transaction.
type Rows interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// QueryPage runs p: scan reads one row's columns and stores the window
// count in total. It returns the rows and the total of matches.
func QueryPage[T any](ctx context.Context, q Rows, p Page, scan func(rows pgx.Rows, total *int64) (T, error)) ([]T, int, error) {
	rows, err := q.Query(ctx, p.Select, p.Args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list %s: %w", p.Name, err)
	}
	defer rows.Close()
	var out []T
	var total int64
	for rows.Next() {
		v, err := scan(rows, &total)
		if err != nil {
			return nil, 0, fmt.Errorf("list %s: %w", p.Name, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("list %s: %w", p.Name, err)
	}
	rows.Close()
	if len(out) == 0 && p.PastStart && p.Count != nil {
		sql, args := p.Count()
		if err := q.QueryRow(ctx, sql, args...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("count %s: %w", p.Name, err)
		}
	}
	return out, int(total), nil
}

// Offset is the OFFSET of page (from 1) at perPage rows a page, saturating
// instead of overflowing for absurd page numbers.
func Offset(page, perPage int) int {
	if page <= 1 || perPage <= 0 {
		return 0
	}
	if page-1 > math.MaxInt64/perPage {
		return math.MaxInt64
	}
	return (page - 1) * perPage
}
