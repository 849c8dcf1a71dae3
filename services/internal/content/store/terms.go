package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/postgres"
)

// The SQL of the term collections, apart from the handlers (content/terms.go), as
// store.go and query.go are for posts. Every error says which statement
// failed.

// termCountSQL is a term's count, its published posts (of any type, as
// the links WordPress counts), read from the counts the writes maintain
// (term_post_counts, migration 0201, a count spread over slots since 0310)
// instead of joining every link of the term with its post: a term's read
// then costs the same with 10 or 1,000,000 posts in it.
const termCountSQL = `(SELECT COALESCE(sum(c.n), 0)::int FROM term_post_counts c WHERE c.term_id = t.id AND c.status = 'publish')`

const termColumns = `t.id, t.taxonomy, t.name, t.slug, t.description, t.parent, ` + termCountSQL + `,
 COALESCE((SELECT ms.locations FROM menu_settings ms WHERE ms.term_id = t.id), '{}'),
 COALESCE((SELECT ms.auto_add FROM menu_settings ms WHERE ms.term_id = t.id), false)`

func scanTerm(row pgx.Row, extra ...any) (*Term, error) {
	t := &Term{}
	err := row.Scan(append([]any{&t.ID, &t.Taxonomy, &t.Name, &t.Slug, &t.Description, &t.Parent, &t.Count, &t.Locations, &t.AutoAdd}, extra...)...)
	return t, err
}

// GetTerm reads one term of tax; nil when absent.
func GetTerm(ctx context.Context, q Querier, tax *Taxonomy, id int64) (*Term, error) {
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
	b := &SQLBuilder{}
	b.Add("t.taxonomy = " + b.Arg(tq.Tax.Name))
	if tq.Post != 0 {
		b.Add("t.id IN (SELECT term_id FROM term_relationships WHERE post_id = " + b.Arg(tq.Post) + ")")
	}
	if tq.Search != "" {
		a := b.Arg("%" + LikeEscape(tq.Search) + "%")
		b.Add("(t.name ILIKE " + a + " OR t.slug ILIKE " + a + ")")
	}
	anyOf(b, "t.id", tq.Include)
	noneOf(b, "t.id", tq.Exclude)
	anyOf(b, "t.slug", tq.Slugs)
	if tq.Parent != nil {
		b.Add("t.parent = " + b.Arg(*tq.Parent))
	}
	where := strings.Join(b.Where, " AND ")
	if tq.HideEmpty {
		where = "(" + where + ") AND " + termCountSQL + " > 0"
	}
	countArgs = b.Args[:len(b.Args):len(b.Args)]
	dir := " ASC"
	if tq.Order == "desc" {
		dir = " DESC"
	}
	var order string
	switch tq.OrderBy {
	case "id", "term_group":
		order = "t.id" + dir
	case "include":
		order = "array_position(" + b.Arg(tq.Include) + "::bigint[], t.id)"
	case "include_slugs":
		order = "array_position(" + b.Arg(tq.Slugs) + "::text[], t.slug)"
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
		", t.id" + dir + " LIMIT " + b.Arg(tq.Limit) + " OFFSET " + b.Arg(tq.Offset)
	return page, b.Args, "SELECT count(*) FROM terms t WHERE " + where, countArgs
}

// ListTermRows runs a term collection query: the page and the total in one
// round trip; a second count only when the page is empty past an offset.
func ListTermRows(ctx context.Context, q Querier, tq *TermQuery) ([]*Term, int, error) {
	page, args, count, countArgs := termListSQL(tq)
	return postgres.QueryPage(ctx, q, postgres.Page{Name: tq.Tax.Name, Select: page, Args: args,
		Count: func() (string, []any) { return count, countArgs }, PastStart: tq.Offset > 0},
		func(rows pgx.Rows, total *int64) (*Term, error) { return scanTerm(rows, total) })
}

// UniqueTermSlug is wp_unique_term_slug: slug, slug-2, slug-3, …
func UniqueTermSlug(ctx context.Context, q Querier, tax *Taxonomy, slug string, id int64) (string, error) {
	rows, err := q.Query(ctx, `SELECT slug FROM terms WHERE taxonomy = $1 AND id <> $2 AND (slug = $3 OR slug LIKE $4)`,
		tax.Name, id, slug, LikeEscape(slug)+"-%")
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

// TermNamed returns the id of the term of tax named name (case-insensitive)
// under parent (any parent in a flat taxonomy); 0 when there is none.
func TermNamed(ctx context.Context, q Querier, tax *Taxonomy, name string, parent int64) (int64, error) {
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

// InsertTerm stores a new term of tax and sets t.ID.
func InsertTerm(ctx context.Context, q Querier, tax *Taxonomy, t *Term) error {
	err := q.QueryRow(ctx, `INSERT INTO terms (taxonomy, name, slug, description, parent) VALUES ($1,$2,$3,$4,$5) RETURNING id`,
		tax.Name, t.Name, t.Slug, t.Description, t.Parent).Scan(&t.ID)
	if err != nil {
		return fmt.Errorf("insert %s: %w", tax.Name, err)
	}
	return nil
}

// UpdateTermRow stores a term's name, slug, description and parent.
func UpdateTermRow(ctx context.Context, q Querier, t *Term) error {
	if _, err := q.Exec(ctx, `UPDATE terms SET name=$2, slug=$3, description=$4, parent=$5 WHERE id=$1`,
		t.ID, t.Name, t.Slug, t.Description, t.Parent); err != nil {
		return fmt.Errorf("update term %d: %w", t.ID, err)
	}
	return nil
}

// DeleteTermRow removes a term; its children move up to its parent, as
// wp_delete_term does, and its post links go by cascade.
func DeleteTermRow(ctx context.Context, q Querier, tax *Taxonomy, t *Term) error {
	if _, err := q.Exec(ctx, `UPDATE terms SET parent = $2 WHERE parent = $1 AND taxonomy = $3`, t.ID, t.Parent, tax.Name); err != nil {
		return fmt.Errorf("move children of term %d: %w", t.ID, err)
	}
	if _, err := q.Exec(ctx, `DELETE FROM terms WHERE id = $1`, t.ID); err != nil {
		return fmt.Errorf("delete term %d: %w", t.ID, err)
	}
	return nil
}

// TermsOfPosts reads the terms of each post of ids in the taxonomies
// taxes, in one statement: taxonomy → post → its terms in a term
// collection's default order (lower(name), then id, as termListSQL orders
// a ?post= lookup). A post without terms of a taxonomy has no entry.
func TermsOfPosts(ctx context.Context, q Querier, taxes []string, ids []int64) (map[string]map[int64][]*Term, error) {
	rows, err := q.Query(ctx, "SELECT "+termColumns+", r.post_id FROM term_relationships r JOIN terms t ON t.id = r.term_id"+
		" WHERE r.post_id = ANY($1) AND t.taxonomy = ANY($2) ORDER BY r.post_id, t.taxonomy, lower(t.name), t.id", ids, taxes)
	if err != nil {
		return nil, fmt.Errorf("select terms of %d posts: %w", len(ids), err)
	}
	defer rows.Close()
	out := map[string]map[int64][]*Term{}
	for rows.Next() {
		var post int64
		t, err := scanTerm(rows, &post)
		if err != nil {
			return nil, fmt.Errorf("scan terms of %d posts: %w", len(ids), err)
		}
		if out[t.Taxonomy] == nil {
			out[t.Taxonomy] = map[int64][]*Term{}
		}
		out[t.Taxonomy][post] = append(out[t.Taxonomy][post], t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("select terms of %d posts: %w", len(ids), err)
	}
	return out, nil
}
