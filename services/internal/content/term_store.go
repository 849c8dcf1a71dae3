package content

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// The SQL of the term collections, apart from the handlers (terms.go), as
// store.go and query.go are for posts. Every error says which statement
// failed.

const termColumns = `t.id, t.taxonomy, t.name, t.slug, t.description, t.parent,
 (SELECT count(*)::int FROM term_relationships r JOIN posts p ON p.id = r.post_id
   WHERE r.term_id = t.id AND p.status = 'publish')`

func scanTerm(row pgx.Row, extra ...any) (*Term, error) {
	t := &Term{}
	err := row.Scan(append([]any{&t.ID, &t.Taxonomy, &t.Name, &t.Slug, &t.Description, &t.Parent, &t.Count}, extra...)...)
	return t, err
}

// getTerm reads one term of tax; nil when absent.
func getTerm(ctx context.Context, q querier, tax *Taxonomy, id int64) (*Term, error) {
	t, err := scanTerm(q.QueryRow(ctx, "SELECT "+termColumns+" FROM terms t WHERE t.id = $1 AND t.taxonomy = $2", id, tax.Name))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("select %s %d: %w", tax.Name, id, err)
	}
	return t, nil
}

// TermQuery is a term collection request with its parameters resolved.
type TermQuery struct {
	Tax           *Taxonomy
	Post          int64 // only the terms of this post; 0 for all
	Search        string
	Include       []int64
	Exclude       []int64
	Slugs         []string
	Parent        *int64
	HideEmpty     bool
	Order         string // asc, desc
	OrderBy       string
	Limit, Offset int
}

// termListSQL builds the page statement (the total with count(*) OVER ())
// and the count statement of the same filter, with their arguments.
func termListSQL(tq *TermQuery) (page string, pageArgs []any, count string, countArgs []any) {
	b := &sqlBuilder{}
	b.add("t.taxonomy = " + b.arg(tq.Tax.Name))
	if tq.Post != 0 {
		b.add("t.id IN (SELECT term_id FROM term_relationships WHERE post_id = " + b.arg(tq.Post) + ")")
	}
	if tq.Search != "" {
		a := b.arg("%" + likeEscape(tq.Search) + "%")
		b.add("(t.name ILIKE " + a + " OR t.slug ILIKE " + a + ")")
	}
	anyOf(b, "t.id", tq.Include)
	noneOf(b, "t.id", tq.Exclude)
	anyOf(b, "t.slug", tq.Slugs)
	if tq.Parent != nil {
		b.add("t.parent = " + b.arg(*tq.Parent))
	}
	where := strings.Join(b.where, " AND ")
	if tq.HideEmpty {
		where = "(" + where + ") AND EXISTS (SELECT 1 FROM term_relationships r JOIN posts p ON p.id = r.post_id WHERE r.term_id = t.id AND p.status = 'publish')"
	}
	countArgs = b.args[:len(b.args):len(b.args)]
	dir := " ASC"
	if tq.Order == "desc" {
		dir = " DESC"
	}
	var order string
	switch tq.OrderBy {
	case "id", "term_group":
		order = "t.id" + dir
	case "include":
		order = "array_position(" + b.arg(tq.Include) + "::bigint[], t.id)"
	case "include_slugs":
		order = "array_position(" + b.arg(tq.Slugs) + "::text[], t.slug)"
	case "slug":
		order = "t.slug" + dir
	case "description":
		order = "t.description" + dir
	case "count":
		order = "7" + dir
	default:
		order = "lower(t.name)" + dir
	}
	page = "SELECT " + termColumns + ", count(*) OVER () FROM terms t WHERE " + where + " ORDER BY " + order +
		", t.id" + dir + " LIMIT " + b.arg(tq.Limit) + " OFFSET " + b.arg(tq.Offset)
	return page, b.args, "SELECT count(*) FROM terms t WHERE " + where, countArgs
}

// listTermRows runs a term collection query: the page and the total in one
// round trip; a second count only when the page is empty past an offset.
func listTermRows(ctx context.Context, q querier, tq *TermQuery) ([]*Term, int, error) {
	page, args, count, countArgs := termListSQL(tq)
	rows, err := q.Query(ctx, page, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list %s: %w", tq.Tax.Name, err)
	}
	defer rows.Close()
	var terms []*Term
	total := 0
	for rows.Next() {
		t, err := scanTerm(rows, &total)
		if err != nil {
			return nil, 0, fmt.Errorf("list %s: %w", tq.Tax.Name, err)
		}
		terms = append(terms, t)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("list %s: %w", tq.Tax.Name, err)
	}
	if len(terms) == 0 && tq.Offset > 0 {
		if err := q.QueryRow(ctx, count, countArgs...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("count %s: %w", tq.Tax.Name, err)
		}
	}
	return terms, total, nil
}

// uniqueTermSlug is wp_unique_term_slug: slug, slug-2, slug-3, …
func uniqueTermSlug(ctx context.Context, q querier, tax *Taxonomy, slug string, id int64) (string, error) {
	rows, err := q.Query(ctx, `SELECT slug FROM terms WHERE taxonomy = $1 AND id <> $2 AND (slug = $3 OR slug LIKE $4)`,
		tax.Name, id, slug, likeEscape(slug)+"-%")
	if err != nil {
		return "", fmt.Errorf("select %s slugs like %q: %w", tax.Name, slug, err)
	}
	taken, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return "", fmt.Errorf("select %s slugs like %q: %w", tax.Name, slug, err)
	}
	used := map[string]bool{}
	for _, t := range taken {
		used[t] = true
	}
	if !used[slug] {
		return slug, nil
	}
	for n := 2; ; n++ {
		if cand := slug + "-" + strconv.Itoa(n); !used[cand] {
			return cand, nil
		}
	}
}

// termNamed returns the id of the term of tax named name (case-insensitive)
// under parent (any parent in a flat taxonomy); 0 when there is none.
func termNamed(ctx context.Context, q querier, tax *Taxonomy, name string, parent int64) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, `SELECT id FROM terms WHERE taxonomy = $1 AND lower(name) = lower($2)
		AND ($3 OR parent = $4) LIMIT 1`, tax.Name, name, !tax.Hierarchical, parent).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("look up %s %q: %w", tax.Name, name, err)
	}
	return id, nil
}

// insertTerm stores a new term of tax and sets t.ID.
func insertTerm(ctx context.Context, q querier, tax *Taxonomy, t *Term) error {
	err := q.QueryRow(ctx, `INSERT INTO terms (taxonomy, name, slug, description, parent) VALUES ($1,$2,$3,$4,$5) RETURNING id`,
		tax.Name, t.Name, t.Slug, t.Description, t.Parent).Scan(&t.ID)
	if err != nil {
		return fmt.Errorf("insert %s: %w", tax.Name, err)
	}
	return nil
}

// updateTermRow stores a term's name, slug, description and parent.
func updateTermRow(ctx context.Context, q querier, t *Term) error {
	if _, err := q.Exec(ctx, `UPDATE terms SET name=$2, slug=$3, description=$4, parent=$5 WHERE id=$1`,
		t.ID, t.Name, t.Slug, t.Description, t.Parent); err != nil {
		return fmt.Errorf("update term %d: %w", t.ID, err)
	}
	return nil
}

// deleteTermRow removes a term; its children move up to its parent, as
// wp_delete_term does, and its post links go by cascade.
func deleteTermRow(ctx context.Context, q querier, tax *Taxonomy, t *Term) error {
	if _, err := q.Exec(ctx, `UPDATE terms SET parent = $2 WHERE parent = $1 AND taxonomy = $3`, t.ID, t.Parent, tax.Name); err != nil {
		return fmt.Errorf("move children of term %d: %w", t.ID, err)
	}
	if _, err := q.Exec(ctx, `DELETE FROM terms WHERE id = $1`, t.ID); err != nil {
		return fmt.Errorf("delete term %d: %w", t.ID, err)
	}
	return nil
}
