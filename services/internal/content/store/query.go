package store

import (
	"slices"
	"strings"
	"time"

	"siteplane.dev/services/internal/platform/postgres"
)

// ListQuery is a validated posts-collection request (seed §4.6, §4.7).
type ListQuery struct {
	Type    *PostType
	Page    int
	PerPage int
	Offset  *int

	Search        string
	SearchColumns []string // post_title, post_content, post_excerpt; empty = all three
	Exact         bool     // search_semantics=exact
	// ExcludeProtected hides password-protected posts from searches by
	// anonymous callers, as WP_Query does.
	ExcludeProtected bool

	After, Before, ModifiedAfter, ModifiedBefore *time.Time

	Author, AuthorExclude []int64
	Include, Exclude      []int64
	Parent, ParentExclude []int64
	MenuOrder             *int
	Slugs                 []string
	Statuses              []string
	Order                 string // asc or desc
	OrderBy               string
	TaxRelation           string // AND (default) or OR
	Tax                   []TaxClause
	Sticky                *bool
	// StickyFirst is ignore_sticky=false on page 1 of a plain listing:
	// sticky posts go first and published sticky posts missing from the
	// page are added after them (WP_Query's sticky handling).
	StickyFirst bool
	Formats     []string
}

// TaxClause is one term filter: Operator is IN, AND or NOT IN.
type TaxClause struct {
	Tax             *Taxonomy
	Terms           []int64
	IncludeChildren bool
	Operator        string
}

// SQLBuilder collects positional arguments.
type SQLBuilder struct {
	Args  []any
	Where []string
	// candidates are the conditions a trigram search narrows posts by
	// (searchClause); from reads the posts through them first
	candidates []string
	// offParam is the parameter the page's offset was passed as
	// (offsetParam), "" when it is written as a number
	offParam string
}

// From is the FROM item of a posts query, aliased p: the posts table, or,
// for a search the trigram index serves, the posts containing the search's
// words, behind an OFFSET 0 fence. The fence keeps the type and status
// (applied outside) from joining the index scan: the plan is then the same
// whatever the words (see searchClause), so PostgreSQL keeps one generic
// plan per connection instead of planning each search anew.
func (b *SQLBuilder) From() string {
	if len(b.candidates) == 0 {
		return "posts p"
	}
	return "(SELECT * FROM posts p WHERE " + strings.Join(b.candidates, " AND ") + " OFFSET 0) p"
}

// Arg adds v as the next positional argument and returns its placeholder.
func (b *SQLBuilder) Arg(v any) string {
	b.Args = append(b.Args, v)
	return "$" + Itoa(int64(len(b.Args)))
}

// Add adds a condition to the WHERE clause.
func (b *SQLBuilder) Add(cond string) { b.Where = append(b.Where, cond) }

// anyOf keeps the rows whose col is one of list; an empty list (a filter
// the client did not send) keeps every row.
func anyOf[T any](b *SQLBuilder, col string, list []T) {
	if len(list) > 0 {
		b.Add(col + " = ANY(" + b.Arg(list) + ")")
	}
}

// noneOf drops the rows whose col is one of list; an empty list drops none.
func noneOf[T any](b *SQLBuilder, col string, list []T) {
	if len(list) > 0 {
		b.Add(col + " <> ALL(" + b.Arg(list) + ")")
	}
}

// LikeEscape escapes LIKE wildcards (backslash is PostgreSQL's default escape).
func LikeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// SearchWords splits a search like WP_Query::parse_search: quoted phrases
// stay whole, other words are separate terms; more than maxSearchTerms
// make the whole search one term.
func SearchWords(search string) []string {
	var terms []string
	s := search
	for len(s) > 0 {
		s = strings.TrimLeft(s, " \t\n\r,+")
		if s == "" {
			break
		}
		neg := ""
		if s[0] == '-' {
			neg, s = "-", s[1:]
		}
		if len(s) > 0 && s[0] == '"' {
			if end := strings.IndexByte(s[1:], '"'); end >= 0 {
				terms = append(terms, neg+s[1:1+end])
				s = s[2+end:]
				continue
			}
		}
		end := strings.IndexAny(s, " \t\n\r,+")
		if end < 0 {
			end = len(s)
		}
		if w := s[:end]; w != "" {
			terms = append(terms, neg+w)
		}
		s = s[end:]
	}
	if len(terms) > maxSearchTerms {
		return []string{search}
	}
	return terms
}

// searchDocSQL is the expression of the posts_search_trgm index.
const searchDocSQL = "(p.title || ' ' || p.excerpt || ' ' || p.content)"

var searchColumnSQL = map[string]string{"post_title": "p.title", "post_excerpt": "p.excerpt", "post_content": "p.content"}

// maxSearchTerms is WP_Query's: a search of more words is one phrase, so a
// search of 70,000 words is one LIKE pattern, not 70,000 of them (more bind
// parameters than PostgreSQL takes).
const maxSearchTerms = 9

// SearchClause adds q's search condition (WP_Query::parse_search).
func (b *SQLBuilder) SearchClause(q *ListQuery) {
	terms := SearchWords(q.Search)
	if len(terms) == 0 {
		return
	}

	cols := q.SearchColumns
	if len(cols) == 0 {
		cols = []string{"post_title", "post_excerpt", "post_content"}
	}
	for _, term := range terms {
		neg := strings.HasPrefix(term, "-") && len(term) > 1
		if neg {
			term = term[1:]
		}
		pattern := LikeEscape(term)
		if !q.Exact {
			pattern = "%" + pattern + "%"
		}
		a := b.Arg(pattern)
		if !neg && !q.Exact {
			// Narrows the candidates through the trigram index (migration
			// 0201): a match in any column is a match in the three together.
			// The pattern is read through a sub-select, which the planner
			// cannot see into: a custom plan would estimate each pattern
			// against the columns' statistics (ILIKE over their histograms,
			// ~2 ms at 100,000 posts, more than running the search), and
			// being cheaper on paper than the generic plan it would be made
			// anew for every search. Unseen, every plan costs the same and
			// the generic one is kept.
			hidden := "(SELECT " + a + "::text)"
			var parts []string
			for _, c := range cols {
				parts = append(parts, searchColumnSQL[c]+" ILIKE "+hidden)
			}
			b.candidates = append(b.candidates, searchDocSQL+" ILIKE "+hidden, "("+strings.Join(parts, " OR ")+")")
			continue
		}
		var parts []string
		for _, c := range cols {
			if neg {
				parts = append(parts, searchColumnSQL[c]+" NOT ILIKE "+a)
			} else {
				parts = append(parts, searchColumnSQL[c]+" ILIKE "+a)
			}
		}
		if neg {
			b.Add("(" + strings.Join(parts, " AND ") + ")")
		} else {
			b.Add("(" + strings.Join(parts, " OR ") + ")")
		}
	}
	if q.ExcludeProtected {
		b.Add("p.password = ''")
	}
}

// termSet is SQL for the ids of terms (of one taxonomy), optionally with
// all their descendants.
func (b *SQLBuilder) termSet(c TaxClause) string {
	ids, tax := b.Arg(c.Terms), b.Arg(c.Tax.Name)
	if c.IncludeChildren {
		return "(WITH RECURSIVE d AS (SELECT id FROM terms WHERE id = ANY(" + ids + ") AND taxonomy = " + tax +
			" UNION SELECT t.id FROM terms t JOIN d ON t.parent = d.id) SELECT id FROM d)"
	}
	return "(SELECT id FROM terms WHERE id = ANY(" + ids + ") AND taxonomy = " + tax + ")"
}

// taxClauseSQL follows WP_Tax_Query: IN matches any term (no valid term →
// no result), AND needs every term, NOT IN excludes posts with any term.
func (b *SQLBuilder) taxClauseSQL(c TaxClause) string {
	set := b.termSet(c)
	switch c.Operator {
	case "AND":
		return "((SELECT count(*) FROM term_relationships r WHERE r.post_id = p.id AND r.term_id IN " + set +
			") = (SELECT count(*) FROM " + set + " s))"
	case "NOT IN":
		return "p.id NOT IN (SELECT r.post_id FROM term_relationships r WHERE r.term_id IN " + set + ")"
	default:
		return "p.id IN (SELECT r.post_id FROM term_relationships r WHERE r.term_id IN " + set + ")"
	}
}

// where builds the filter of a collection query.
func (b *SQLBuilder) filters(q *ListQuery) {
	b.Add("p.type = " + b.Arg(q.Type.Name))
	anyStatus := slices.Contains(q.Statuses, "any")
	switch {
	case anyStatus:
		b.Add("p.status NOT IN ('trash', 'auto-draft')")
	case len(q.Statuses) == 1:
		// an equality, not = ANY: only then can an index on (type, status,
		// order) hand the rows over in order (PostgreSQL before 17)
		b.Add("p.status = " + b.Arg(q.Statuses[0]))
	default:
		b.Add("p.status = ANY(" + b.Arg(q.Statuses) + ")")
	}
	if q.Search != "" {
		b.SearchClause(q)
	}
	if q.After != nil {
		b.Add("p.date_gmt > " + b.Arg(*q.After))
	}
	if q.Before != nil {
		b.Add("p.date_gmt < " + b.Arg(*q.Before))
	}
	if q.ModifiedAfter != nil {
		b.Add("p.modified_gmt > " + b.Arg(*q.ModifiedAfter))
	}
	if q.ModifiedBefore != nil {
		b.Add("p.modified_gmt < " + b.Arg(*q.ModifiedBefore))
	}
	anyOf(b, "p.author", q.Author)
	noneOf(b, "p.author", q.AuthorExclude)
	anyOf(b, "p.id", q.Include)
	noneOf(b, "p.id", q.Exclude)
	anyOf(b, "p.parent", q.Parent)
	noneOf(b, "p.parent", q.ParentExclude)
	if q.MenuOrder != nil {
		// Compared as bigint: a menu_order beyond the column's int4 matches
		// nothing instead of failing to encode.
		b.Add("p.menu_order = " + b.Arg(int64(*q.MenuOrder)) + "::bigint")
	}
	anyOf(b, "p.slug", q.Slugs)
	if len(q.Tax) > 0 {
		var parts []string
		for _, c := range q.Tax {
			parts = append(parts, b.taxClauseSQL(c))
		}
		rel := " AND "
		if q.TaxRelation == "OR" {
			rel = " OR "
		}
		b.Add("(" + strings.Join(parts, rel) + ")")
	}
	anyOf(b, "p.format", q.Formats)
	if q.Sticky != nil {
		if *q.Sticky {
			b.Add("p.sticky")
		} else {
			b.Add("NOT p.sticky")
		}
	}
}

// orderBy renders ORDER BY for q; ids break ties so pages are stable.
func (b *SQLBuilder) orderBy(q *ListQuery) string {
	dir := " DESC"
	if q.Order == "asc" {
		dir = " ASC"
	}
	var key string
	switch q.OrderBy {
	case "author":
		key = "p.author" + dir
	case "id":
		return "p.id" + dir
	case "include":
		return "array_position(" + b.Arg(q.Include) + "::bigint[], p.id)"
	case "include_slugs":
		return "array_position(" + b.Arg(q.Slugs) + "::text[], p.slug), p.id"
	case "modified":
		key = "p.modified_gmt" + dir
	case "parent":
		key = "p.parent" + dir
	case "slug":
		key = "p.slug" + dir
	case "title":
		key = "p.title" + dir
	case "menu_order":
		key = "p.menu_order" + dir
	case "relevance":
		key = b.Relevance(q) + ", p.date_gmt DESC"
	default:
		key = "p.date_gmt" + dir
	}
	return key + ", p.id" + dir
}

// Relevance follows WP_Query::parse_search_order: whole search in the title
// first, then all words in the title, any word in the title, the whole
// search in the excerpt, then in the content.
func (b *SQLBuilder) Relevance(q *ListQuery) string {
	terms := SearchWords(q.Search)
	var pos []string
	for _, t := range terms {
		if !strings.HasPrefix(t, "-") {
			pos = append(pos, t)
		}
	}
	if len(pos) == 0 {
		return "0::int" // a constant expression; a bare 0 would be an ORDER BY position
	}
	whole := b.Arg("%" + LikeEscape(strings.Join(pos, " ")) + "%")
	if len(pos) == 1 {
		return "(CASE WHEN p.title ILIKE " + whole + " THEN 1 ELSE 2 END)"
	}
	var all, anyw []string
	for _, t := range pos {
		a := b.Arg("%" + LikeEscape(t) + "%")
		all = append(all, "p.title ILIKE "+a)
		anyw = append(anyw, "p.title ILIKE "+a)
	}
	s := "(CASE WHEN p.title ILIKE " + whole + " THEN 1"
	if len(pos) < 7 {
		s += " WHEN " + strings.Join(all, " AND ") + " THEN 2 WHEN " + strings.Join(anyw, " OR ") + " THEN 3"
	}
	return s + " WHEN p.excerpt ILIKE " + whole + " THEN 4 WHEN p.content ILIKE " + whole + " THEN 5 ELSE 6 END)"
}

// ListSQL returns one statement that yields the requested page, each row
// carrying the total number of matches (X-WP-Total) in its last column.
//
// Neither part depends on how many posts match in the common cases: the
// page's ids come from an index in the requested order (LIMIT/OFFSET; a
// late page of a type and status in date order jumps near its offset
// through the date buckets' counts, jumpPageSQL, others walk their offset),
// and the total is offset + rows when the page is the last one, else read
// from the counts the writes maintain (migration 0201) when q filters by no
// more than type, status and one term, else counted (O(matches): searches
// and the rarer filters).
func ListSQL(q *ListQuery) (string, []any) { return ListSQLOf(q, PostColumns, LateralsFor(q.Type)) }

// ListSQLOf is listSQL reading cols of each post through laterals
// (postColumns and lateralsFor, or versionColumns and versionLaterals): the
// same statement but for its select list.
func ListSQLOf(q *ListQuery, cols, laterals string) (string, []any) {
	b := &SQLBuilder{}
	offset := postgres.Offset(q.Page, q.PerPage)
	if q.Offset != nil {
		offset = *q.Offset
	}
	// LIMIT and OFFSET are written as numbers, not parameters: with
	// parameters PostgreSQL's generic plan guesses a tenth of the table,
	// which at 100,000 posts looks far costlier than the custom plans, so it
	// planned every execution anew (0.5 ms each); with numbers the cached
	// generic plan wins after a few runs (the jumps and a term's early pages
	// pass the offset as a parameter where the plan cannot depend on it:
	// offsetParam)
	limit, off := Itoa(int64(q.PerPage)), Itoa(int64(offset))
	// the filter's arguments are added only when it is used: PostgreSQL
	// refuses a parameter the statement never mentions
	where := ""
	filter := func() string {
		if where == "" {
			b.filters(q)
			where = strings.Join(b.Where, " AND ")
		}
		return where
	}
	with := "WITH "
	inner := b.termPageSQL(q, limit, offset)
	if inner == "" && q.Search != "" {
		// A search has no count kept ahead and its order seldom an index:
		// its matches are found once, numbered in order and counted, and
		// PostgreSQL plans the filter once rather than twice.
		w := filter()
		with += "m AS MATERIALIZED (SELECT p.id, row_number() OVER (ORDER BY " + b.orderBy(q) + ") AS rn FROM " + b.From() + " WHERE " +
			w + "), "
		inner = "SELECT id FROM m ORDER BY rn LIMIT " + limit + " OFFSET " + off
	}
	if inner == "" {
		inner = b.JumpPageSQL(q, limit, offset)
	}
	if inner == "" {
		inner = b.statusesPageSQL(q, limit, off, offset)
	}
	if inner == "" {
		w := filter()
		inner = "SELECT p.id FROM " + b.From() + " WHERE " + w + " ORDER BY " + b.orderBy(q) + " LIMIT " + limit + " OFFSET " + off
	}
	total := b.countedTotal(q)
	if total == "" && q.Search != "" {
		total = "(SELECT count(*) FROM m)"
	}
	if total == "" {
		w := filter()
		total = "(SELECT count(*) FROM " + b.From() + " WHERE " + w + ")"
	}
	// the total: a short (or empty first) page is the last one, so its
	// offset and length give it without counting
	if b.offParam != "" {
		off = b.offParam
	}
	total = "(SELECT CASE WHEN n < " + limit + " AND (n > 0 OR " + off + " = 0) THEN " + off + "::bigint + n ELSE " +
		total + " END FROM (SELECT count(*) AS n FROM pg) c)"
	pg := with + "pg AS (SELECT x.id, x.rn FROM unnest(ARRAY(" + inner + ")) WITH ORDINALITY AS x(id, rn))"
	if !q.StickyFirst {
		sql := pg + " SELECT " + cols + ", " + total + ", pg.rn FROM pg JOIN posts p ON p.id = pg.id" +
			laterals + " ORDER BY pg.rn"
		return sql, b.Args
	}
	// the page plus the published sticky posts it lacks, in one statement;
	// extra rows have a NULL total and rn (stickyOrder arranges them)
	extra := "SELECT " + cols + ", NULL::bigint, NULL::bigint FROM posts p" + laterals +
		" WHERE p.type = " + b.Arg(q.Type.Name) + " AND p.status = 'publish' AND p.sticky AND p.id NOT IN (SELECT id FROM pg)"
	if len(q.Exclude) > 0 {
		extra += " AND p.id <> ALL(" + b.Arg(q.Exclude) + ")"
	}
	sql := pg + " SELECT * FROM (SELECT " + cols + ", " + total + " AS total, pg.rn AS rn FROM pg JOIN posts p ON p.id = pg.id" +
		laterals + " UNION ALL " + extra + ") u ORDER BY u.rn NULLS LAST, u.date_gmt DESC, u.id DESC"
	return sql, b.Args
}
