package media

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/rest"
)

// listQuery is a validated collection request.
type listQuery struct {
	page, perPage, offset int
	search                string
	exact                 bool
	searchColumns         []string
	after, before         *time.Time
	modAfter, modBefore   *time.Time
	authors, authorsEx    []int64
	include, exclude      []int64
	parents, parentsEx    []int64
	slugs                 []string
	statuses              []string
	mediaTypes, mimeTypes []string
	orderby               string
	desc                  bool
}

func listQueryOf(r *rest.Request) (*listQuery, error) {
	q := &listQuery{page: int(r.Int("page")), perPage: int(r.Int("per_page")), search: r.String("search"),
		exact: r.String("search_semantics") == "exact", searchColumns: r.Strings("search_columns"),
		authors: r.Ints("author"), authorsEx: r.Ints("author_exclude"), include: r.Ints("include"), exclude: r.Ints("exclude"),
		parents: r.Ints("parent"), parentsEx: r.Ints("parent_exclude"), slugs: r.Strings("slug"), statuses: r.Strings("status"),
		mediaTypes: r.Strings("media_type"), mimeTypes: r.Strings("mime_type"), orderby: r.String("orderby"),
		desc: r.String("order") != "asc"}
	q.offset = rest.Offset(q.page, q.perPage)
	if r.Has("offset") {
		q.offset = int(r.Int("offset"))
	}
	for _, d := range []struct {
		name string
		dst  **time.Time
	}{{"after", &q.after}, {"before", &q.before}, {"modified_after", &q.modAfter}, {"modified_before", &q.modBefore}} {
		if !r.Has(d.name) {
			continue
		}
		t, err := parseQueryDate(r.String(d.name))
		if err != nil {
			return nil, rest.NewError("rest_invalid_date", "Invalid date.", http.StatusBadRequest)
		}
		*d.dst = &t
	}
	if q.orderby == "relevance" && q.search == "" {
		return nil, rest.NewError("rest_no_search_term_defined", "You need to define a search term to order by relevance.", http.StatusBadRequest)
	}
	if q.orderby == "include" && len(q.include) == 0 {
		return nil, rest.NewError("rest_orderby_include_missing_include", "You need to define an include parameter to order by include.", http.StatusBadRequest)
	}
	return q, nil
}

func parseQueryDate(v string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t.UTC(), nil
	}
	t, err := time.Parse(wpDate, v)
	return t.UTC(), err
}

// query returns the page of attachments and the total matching rows, in
// one statement.
func (s *Service) query(ctx context.Context, q *listQuery) ([]*Attachment, int64, error) {
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	// trash is never stored (media has no trash): asking for it finds nothing
	where = append(where, "status = ANY("+arg(q.statuses)+")")
	if q.search != "" {
		cols := q.searchColumns
		if len(cols) == 0 {
			cols = []string{"post_title", "post_excerpt", "post_content", "file"}
		}
		var ors []string
		for _, c := range cols {
			col := map[string]string{"post_title": "title", "post_excerpt": "caption", "post_content": "description", "file": "file"}[c]
			if q.exact {
				ors = append(ors, fmt.Sprintf("lower(%s) = lower(%s)", col, arg(q.search)))
			} else {
				ors = append(ors, fmt.Sprintf("%s ILIKE %s", col, arg("%"+likeEscape(q.search)+"%")))
			}
		}
		where = append(where, "("+strings.Join(ors, " OR ")+")")
	}
	cmp := func(col, op string, t *time.Time) {
		if t != nil {
			where = append(where, fmt.Sprintf("%s %s %s", col, op, arg(*t)))
		}
	}
	// after/before are site-local dates in WordPress (post_date)
	cmp("date_gmt", ">", q.after)
	cmp("date_gmt", "<", q.before)
	cmp("modified_gmt", ">", q.modAfter)
	cmp("modified_gmt", "<", q.modBefore)
	in := func(col string, ids []int64, not bool) {
		if len(ids) == 0 {
			return
		}
		if not {
			where = append(where, fmt.Sprintf("NOT (%s = ANY(%s))", col, arg(ids)))
		} else {
			where = append(where, fmt.Sprintf("%s = ANY(%s)", col, arg(ids)))
		}
	}
	in("author", q.authors, false)
	in("author", q.authorsEx, true)
	in("id", q.include, false)
	in("id", q.exclude, true)
	in("post", q.parents, false)
	in("post", q.parentsEx, true)
	if len(q.slugs) > 0 {
		where = append(where, "slug = ANY("+arg(q.slugs)+")")
	}
	if len(q.mediaTypes) > 0 || len(q.mimeTypes) > 0 {
		var ors []string
		if len(q.mediaTypes) > 0 {
			ors = append(ors, "split_part(mime_type, '/', 1) = ANY("+arg(q.mediaTypes)+")")
		}
		if len(q.mimeTypes) > 0 {
			ors = append(ors, "mime_type = ANY("+arg(q.mimeTypes)+")")
		}
		where = append(where, "("+strings.Join(ors, " OR ")+")")
	}
	filterArgs := len(args) // what the count statement takes; ORDER BY and LIMIT add more
	order := orderBy(q, arg)
	sql := `SELECT ` + columns + `, count(*) OVER () FROM attachments WHERE ` + strings.Join(where, " AND ") +
		` ORDER BY ` + order + ` LIMIT ` + arg(q.perPage) + ` OFFSET ` + arg(max(q.offset, 0))
	out, total, err := postgres.QueryPage(ctx, s.reader(ctx), postgres.Page{Name: "attachments", Select: sql, Args: args,
		Count: func() (string, []any) {
			return `SELECT count(*) FROM attachments WHERE ` + strings.Join(where, " AND "), args[:filterArgs]
		}, PastStart: q.offset > 0},
		func(rows pgx.Rows, total *int64) (*Attachment, error) {
			return scanAttachment(countingRow{rows, total})
		})
	return out, int64(total), err
}

// countingRow scans the window count after the attachment's columns.
type countingRow struct {
	rows  pgx.Rows
	total *int64
}

func (c countingRow) Scan(dest ...any) error { return c.rows.Scan(append(dest, c.total)...) }
