package media

import "fmt"

// orderBy is the ORDER BY clause of a collection query (arg adds a
// statement argument and returns its placeholder). Apart from query, whose
// length it keeps under the limit.
func orderBy(q *listQuery, arg func(any) string) string {
	dir := "DESC"
	if !q.desc {
		dir = "ASC"
	}
	switch q.orderby {
	case "author":
		return "author " + dir + ", id " + dir
	case "id":
		return "id " + dir
	case "include":
		return "array_position(" + arg(q.include) + "::bigint[], id)"
	case "include_slugs":
		if len(q.slugs) > 0 {
			return "array_position(" + arg(q.slugs) + "::text[], slug)"
		}
	case "modified":
		return "modified_gmt " + dir + ", id " + dir
	case "parent":
		return "post " + dir + ", id " + dir
	case "slug":
		return "slug " + dir
	case "title":
		return "lower(title) " + dir + ", id " + dir
	case "relevance":
		return fmt.Sprintf("(title ILIKE %s) DESC, date_gmt DESC, id DESC", arg("%"+likeEscape(q.search)+"%"))
	}
	return "date_gmt " + dir + ", id " + dir
}
