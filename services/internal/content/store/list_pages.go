package store

import (
	"math"
	"slices"
	"strings"
)

// The parts of a post listing's statement for deep pages and totals: the
// counts the writes maintain, the term and date-bucket jumps, the sticky
// order and the plain count.

// countedOnly reports whether q filters by nothing but type, status and
// (optionally) one term, without its children or a category with them:
// what the maintained counts record (a category's subtree: migration 0440).
func countedOnly(q *ListQuery) bool {
	if q.Search != "" || q.After != nil || q.Before != nil || q.ModifiedAfter != nil || q.ModifiedBefore != nil ||
		len(q.Author) > 0 || len(q.AuthorExclude) > 0 || len(q.Include) > 0 || len(q.Exclude) > 0 ||
		len(q.Parent) > 0 || len(q.ParentExclude) > 0 || q.MenuOrder != nil || len(q.Slugs) > 0 ||
		len(q.Formats) > 0 || q.Sticky != nil || len(q.Tax) > 1 {
		return false
	}
	if len(q.Tax) == 1 {
		c := q.Tax[0]
		return c.Operator == "IN" && len(c.Terms) == 1 && (!c.IncludeChildren || subtree(c))
	}
	return true
}

// statusSQL restricts col to q's statuses as filters does.
func (b *SQLBuilder) statusSQL(q *ListQuery, col string) string {
	switch {
	case slices.Contains(q.Statuses, "any"):
		return col + " NOT IN ('trash', 'auto-draft')"
	case len(q.Statuses) == 1:
		return col + " = " + b.Arg(q.Statuses[0])
	default:
		return col + " = ANY(" + b.Arg(q.Statuses) + ")"
	}
}

// dateRangeOnly reports whether q filters by one type, one status and a
// date range (after, before or both) and nothing else: what the date
// buckets' counts answer (migration 0350).
func dateRangeOnly(q *ListQuery) bool {
	if q.After == nil && q.Before == nil || len(q.Tax) > 0 || len(q.Statuses) != 1 || q.Statuses[0] == "any" {
		return false
	}
	rest := *q
	rest.After, rest.Before = nil, nil
	return countedOnly(&rest)
}

// authorOnly reports whether q filters by one author, type and status
// and nothing else: what post_author_counts records (migration 0420).
func authorOnly(q *ListQuery) bool {
	if len(q.Author) != 1 || len(q.Tax) > 0 {
		return false
	}
	rest := *q
	rest.Author = nil
	return countedOnly(&rest)
}

// countedTotal is SQL for the number of matches of q read from the
// maintained counts (post_counts, term_post_counts, post_date_counts,
// post_author_counts), or "" when q filters by more than they record.
func (b *SQLBuilder) countedTotal(q *ListQuery) string {
	if authorOnly(q) {
		return "(SELECT COALESCE(sum(n), 0)::bigint FROM post_author_counts WHERE author = " + b.Arg(q.Author[0]) +
			" AND type = " + b.Arg(q.Type.Name) + " AND " + b.statusSQL(q, "status") + ")"
	}
	if dateRangeOnly(q) {
		var after, before any
		if q.After != nil {
			after = *q.After
		}
		if q.Before != nil {
			before = *q.Before
		}
		return "(SELECT post_count_between(" + b.Arg(q.Type.Name) + ", " + b.Arg(q.Statuses[0]) + ", " + b.Arg(after) +
			"::timestamp, " + b.Arg(before) + "::timestamp))"
	}
	if !countedOnly(q) {
		return ""
	}
	if len(q.Tax) == 0 {
		return "(SELECT COALESCE(sum(n), 0)::bigint FROM post_counts WHERE type = " + b.Arg(q.Type.Name) + " AND " +
			b.statusSQL(q, "status") + ")"
	}
	c := q.Tax[0]
	term := b.Arg(c.Terms[0])
	// a subtree's total is its coarsest buckets' sum (a row per ~194 days
	// and slot), where a term's is term_post_counts'
	from := "term_post_counts WHERE term_id = " + term
	if subtree(c) {
		from = "term_date_counts WHERE term_id = " + term + " AND subtree AND level = 24"
	}
	return "(SELECT COALESCE(sum(n), 0)::bigint FROM " + from + " AND type = " + b.Arg(q.Type.Name) +
		" AND " + b.statusSQL(q, "status") + " AND EXISTS (SELECT 1 FROM terms WHERE id = " + term +
		" AND taxonomy = " + b.Arg(c.Tax.Name) + "))"
}

// subtree reports whether c is a category with its descendants, whose
// posts term_subtree_links holds (migration 0440; only the hierarchical
// taxonomy has rows there).
func subtree(c TaxClause) bool { return c.IncludeChildren && c.Tax == Category }

// termPageSQL reads the ids of a page of one term's posts, newest (or
// oldest) first, from term_relationships' listing index (a category's with
// its descendants' from term_subtree_links', migration 0440: one row per
// post under the category, so its archive is read as one term's), so that
// the page costs its offset rather than the term's posts; from
// JumpMinOffset on it jumps near its offset as JumpPageSQL does, through
// the term's (or subtree's) date buckets' counts (term_page_start,
// migrations 0430 and 0440), and walks the index
// from the edge of the bucket that holds the page's first post. Below
// JumpMinOffset the walk's OFFSET is a subquery of the offset parameter:
// the planner cannot read its value, so the custom and generic plans are
// the same index walk and every early page shares one cached statement (a
// number made each page number a statement of its own, parsed and planned
// anew: ~0.5 ms more of PostgreSQL a page at 100,000 posts). "" when q is
// not such a listing.
func (b *SQLBuilder) termPageSQL(q *ListQuery, limit string, offset int) string {
	if !countedOnly(q) || len(q.Tax) != 1 || len(q.Statuses) != 1 || q.Statuses[0] == "any" ||
		(q.OrderBy != "" && q.OrderBy != "date") {
		return ""
	}
	newest, cmp, dir := "true", " <= ", " DESC"
	if q.Order == "asc" {
		newest, cmp, dir = "false", " >= ", " ASC"
	}
	c := q.Tax[0]
	links, sub := "term_relationships", "false"
	if subtree(c) {
		links, sub = "term_subtree_links", "true"
	}
	term, typ, status := b.Arg(c.Terms[0]), b.Arg(q.Type.Name), b.Arg(q.Statuses[0])
	where := "r.term_id = " + term + " AND r.post_type = " + typ + " AND r.post_status = " + status +
		" AND EXISTS (SELECT 1 FROM terms WHERE id = " + term + " AND taxonomy = " + b.Arg(c.Tax.Name) + ")"
	order := " ORDER BY r.post_date" + dir + ", r.post_id" + dir + " LIMIT " + limit
	if offset < JumpMinOffset {
		return "SELECT r.post_id FROM " + links + " r WHERE " + where + order + " OFFSET (SELECT " + b.offsetParam(offset) + ")"
	}
	return "WITH j AS MATERIALIZED (SELECT * FROM term_page_start(" + term + ", " + typ + ", " + status + ", " +
		b.offsetParam(offset) + ", " + newest + ", " + sub + ")) SELECT r.post_id FROM " + links + " r WHERE " + where +
		" AND r.post_date" + cmp + "(SELECT bound FROM j)" + order + " OFFSET (SELECT rem FROM j)"
}

// offsetParam is the parameter the offset is passed as where the page's
// plan does not depend on it (one per statement: the total's CASE reads it
// too). A jump's OFFSET is the function's rem, an early term page's a
// subquery; with the offset a parameter rather than a number every page
// number shares one prepared statement and its cached plan instead of being
// parsed and planned anew.
func (b *SQLBuilder) offsetParam(offset int) string {
	if b.offParam == "" {
		b.offParam = b.Arg(int64(offset)) + "::bigint"
	}
	return b.offParam
}

// statusesPageSQL reads the ids of a page of several statuses (status=any,
// status=publish,draft, ...) of one type in date order with no other
// filter: each status's first offset+limit posts come from the (type,
// status, date_gmt, id) index and only those are merged and sorted, where
// the plain read sorted every match (a status=any listing sorted all
// published posts: ~40 ms at 100,000 posts). The page's posts are among
// the first offset+limit of their own status, so the page is the plain
// read's. The statuses are those post_counts has rows of (every status a
// post of the type has: the triggers insert them), restricted as the
// filter restricts p.status. "" when q is not such a listing.
func (b *SQLBuilder) statusesPageSQL(q *ListQuery, limit, off string, offset int) string {
	if !countedOnly(q) || len(q.Tax) != 0 || (len(q.Statuses) == 1 && q.Statuses[0] != "any") ||
		(q.OrderBy != "" && q.OrderBy != "date") {
		return ""
	}
	dir := " DESC"
	if q.Order == "asc" {
		dir = " ASC"
	}
	typ := b.Arg(q.Type.Name)
	// offset+limit, saturated: a huge page number must not overflow
	each := Itoa(int64(min(uint64(offset)+uint64(q.PerPage), math.MaxInt64)))
	return "SELECT x.id FROM (SELECT DISTINCT c.status FROM post_counts c WHERE c.type = " + typ + " AND " + b.statusSQL(q, "c.status") +
		") s CROSS JOIN LATERAL (SELECT p.id, p.date_gmt FROM posts p WHERE p.type = " + typ + " AND p.status = s.status ORDER BY p.date_gmt" +
		dir + ", p.id" + dir + " LIMIT " + each + ") x ORDER BY x.date_gmt" + dir + ", x.id" + dir + " LIMIT " + limit + " OFFSET " + off
}

// JumpMinOffset is the offset from which a date-ordered page jumps to its
// start through the date buckets' counts instead of walking the index from
// the first post: the jump costs about as much as walking ~1,000 index
// entries (docs/performance.md#late-pages).
const JumpMinOffset = 1000

// JumpPageSQL reads the ids of a late page of one type and status in date
// order (newest or oldest first) by jumping near its offset:
// post_page_start (migration 0330) sums the date buckets' counts, coarse to
// fine, down to the ~68-minute bucket that holds the page's first post, and
// the page is read from the type/status/date index starting at that
// bucket's edge, skipping only the posts of that bucket before it. The
// function is STABLE, so it sees this statement's snapshot: the counts it
// sums are exactly the posts the index walk sees (the triggers keep them in
// the writers' transactions), and the page equals the plain OFFSET read
// (ties on date stay in one bucket, ordered by id). "" when q is not such a
// listing or its offset is small.
func (b *SQLBuilder) JumpPageSQL(q *ListQuery, limit string, offset int) string {
	if offset < JumpMinOffset || !countedOnly(q) || len(q.Tax) != 0 || len(q.Statuses) != 1 || q.Statuses[0] == "any" ||
		(q.OrderBy != "" && q.OrderBy != "date") {
		return ""
	}
	typ, status := b.Arg(q.Type.Name), b.Arg(q.Statuses[0])
	newest, cmp, dir := "true", " <= ", " DESC"
	if q.Order == "asc" {
		newest, cmp, dir = "false", " >= ", " ASC"
	}
	return "WITH j AS MATERIALIZED (SELECT * FROM post_page_start(" + typ + ", " + status + ", " + b.offsetParam(offset) + ", " + newest + "))" +
		" SELECT p.id FROM posts p WHERE p.type = " + typ + " AND p.status = " + status +
		" AND p.date_gmt" + cmp + "(SELECT bound FROM j) ORDER BY p.date_gmt" + dir + ", p.id" + dir +
		" LIMIT " + limit + " OFFSET (SELECT rem FROM j)"
}

// stickyOrder puts the page's sticky posts first (in page order), then the
// extra sticky posts, then the rest of the page (WP_Query's relocation).
func stickyOrder(rows []*Post, inPage []bool) []*Post {
	out := make([]*Post, 0, len(rows))
	for i, p := range rows {
		if inPage[i] && p.Sticky {
			out = append(out, p)
		}
	}
	for i, p := range rows {
		if !inPage[i] {
			out = append(out, p)
		}
	}
	for i, p := range rows {
		if inPage[i] && !p.Sticky {
			out = append(out, p)
		}
	}
	return out
}

// countSQL counts the matches of q (used only when a page came back empty,
// to tell an empty collection from a page past the end).
func countSQL(q *ListQuery) (string, []any) {
	b := &SQLBuilder{}
	b.filters(q)
	return "SELECT count(*) FROM " + b.From() + " WHERE " + strings.Join(b.Where, " AND "), b.Args
}
