package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/postgres"
)

// Comment is one row of the comments table.
type Comment struct {
	ID, Post, Parent, Author           int64
	AuthorName, AuthorEmail, AuthorURL string
	AuthorIP, AuthorUserAgent          string
	DateGMT                            time.Time
	Content, Status, TrashStatus, Type string
	Children                           bool
}

// commentColumns: whether a comment has replies is read from the partial
// index comments_parent (parent <> 0), which the planner uses only when the
// condition says parent <> 0 itself (c.id is never 0): without it, every
// comment listed scanned all comments (0.65 s for 10 of 750,000).
const commentColumns = `c.id, c.post, c.parent, c.author, c.author_name, c.author_email, c.author_url, c.author_ip,
 c.author_user_agent, c.date_gmt, c.content, c.status, c.trash_status, c.type,
 EXISTS (SELECT 1 FROM comments k WHERE k.parent = c.id AND k.parent <> 0)`

func scanComment(row pgx.Row, extra ...any) (*Comment, error) {
	m := &Comment{}
	err := row.Scan(append([]any{&m.ID, &m.Post, &m.Parent, &m.Author, &m.AuthorName, &m.AuthorEmail, &m.AuthorURL,
		&m.AuthorIP, &m.AuthorUserAgent, &m.DateGMT, &m.Content, &m.Status, &m.TrashStatus, &m.Type, &m.Children}, extra...)...)
	return m, err
}

// GetComment reads comment id; nil when there is none.
func GetComment(ctx context.Context, q Querier, id int64) (*Comment, error) {
	m, err := scanComment(q.QueryRow(ctx, "SELECT "+commentColumns+" FROM comments c WHERE c.id = $1", id))
	return one(m, err, "select comment", id)
}

// recountComments rewrites the post's count of approved comments.
func recountComments(ctx context.Context, q Querier, post int64) error {
	if _, err := q.Exec(ctx, `UPDATE posts SET comment_count = (SELECT count(*) FROM comments
		WHERE post = $1 AND status = 'approved') WHERE id = $1`, post); err != nil {
		return fmt.Errorf("count comments of post %d: %w", post, err)
	}
	return nil
}

const commentInsertSQL = `INSERT INTO comments (post, parent, author, author_name, author_email, author_url, author_ip,
 author_user_agent, date_gmt, content, status, type) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) RETURNING id`

const commentUpdateSQL = `UPDATE comments SET parent=$2, author=$3, author_name=$4, author_email=$5, author_url=$6,
 author_ip=$7, author_user_agent=$8, date_gmt=$9, content=$10, status=$11, trash_status=$12 WHERE id=$1`

// SaveComment writes an edited comment and recounts its post's comments.
func SaveComment(ctx context.Context, tx Querier, m *Comment) error {
	if _, err := tx.Exec(ctx, commentUpdateSQL, m.ID, m.Parent, m.Author, m.AuthorName, m.AuthorEmail, m.AuthorURL,
		m.AuthorIP, m.AuthorUserAgent, m.DateGMT, m.Content, m.Status, m.TrashStatus); err != nil {
		return fmt.Errorf("update comment %d: %w", m.ID, err)
	}
	return recountComments(ctx, tx, m.Post)
}

// CommentQuery is a comments collection query: the filters of
// GET /cms/v2/comments, already read from the request.
type CommentQuery struct {
	Statuses                                []string // stored statuses, any of
	Type                                    string
	Post, Parent, ParentExclude             []int64
	Include, Exclude, Author, AuthorExclude []int64
	AuthorEmail, Search                     string
	After, Before                           *time.Time
	Desc                                    bool
	OrderBy                                 string // id, include, post, parent, type; else by date
	Page, PerPage, Offset                   int
}

// ListComments reads a page of comments and the total of matches.
func ListComments(ctx context.Context, q Querier, cq *CommentQuery) ([]*Comment, int, error) {
	b := &SQLBuilder{}
	if len(cq.Statuses) == 1 {
		// an equality, not = ANY: only then can the (status, type, date)
		// index hand the rows over in order (PostgreSQL before 17)
		b.Add("c.status = " + b.Arg(cq.Statuses[0]))
	} else {
		b.Add("c.status = ANY(" + b.Arg(cq.Statuses) + ")")
	}
	b.Add("c.type = " + b.Arg(cq.Type))
	for _, f := range []struct {
		ids     []int64
		col, op string
	}{{cq.Post, "c.post", "= ANY"}, {cq.Parent, "c.parent", "= ANY"}, {cq.ParentExclude, "c.parent", "<> ALL"},
		{cq.Include, "c.id", "= ANY"}, {cq.Exclude, "c.id", "<> ALL"}, {cq.Author, "c.author", "= ANY"},
		{cq.AuthorExclude, "c.author", "<> ALL"}} {
		if len(f.ids) > 0 {
			b.Add(f.col + " " + f.op + "(" + b.Arg(f.ids) + ")")
		}
	}
	if cq.AuthorEmail != "" {
		b.Add("lower(c.author_email) = lower(" + b.Arg(cq.AuthorEmail) + ")")
	}
	if cq.Search != "" {
		a := b.Arg("%" + LikeEscape(cq.Search) + "%")
		b.Add("(c.author_name ILIKE " + a + " OR c.author_email ILIKE " + a + " OR c.author_url ILIKE " + a +
			" OR c.author_ip ILIKE " + a + " OR c.content ILIKE " + a + ")")
	}
	if cq.After != nil {
		b.Add("c.date_gmt > " + b.Arg(*cq.After))
	}
	if cq.Before != nil {
		b.Add("c.date_gmt < " + b.Arg(*cq.Before))
	}
	where := strings.Join(b.Where, " AND ")
	filterArgs := b.Args[:len(b.Args):len(b.Args)]
	total := "count(*) OVER ()"
	if countedComments(cq) {
		// statuses and type only: the total from the maintained counts
		total = "(SELECT COALESCE(sum(k.n), 0)::bigint FROM comment_counts k WHERE k.type = " + b.Arg(cq.Type) +
			" AND k.status = ANY(" + b.Arg(cq.Statuses) + "))"
	}
	// LIMIT and OFFSET as numbers, as the post lists have them: as
	// parameters, the generic plan PostgreSQL keeps after five executions
	// guesses a tenth of the matches and sorted every approved comment
	// The page is chosen first and its columns (the replies' EXISTS among
	// them) read for its rows only: over the whole filter, PostgreSQL's
	// generic plan hashed every reply of the site for the EXISTS instead
	// (0.1 s at 750,000 comments).
	page := "SELECT c.*, " + total + " AS total_n FROM comments c WHERE " + where +
		" ORDER BY " + commentOrder(b, cq) + " LIMIT " + Itoa(int64(cq.PerPage)) + " OFFSET " + Itoa(int64(cq.Offset))
	sql := "SELECT " + commentColumns + ", c.total_n FROM (" + page + ") c ORDER BY " + commentOrder(b, cq)
	return postgres.QueryPage(ctx, q, postgres.Page{Name: "comments", Select: sql, Args: b.Args,
		Count:     func() (string, []any) { return "SELECT count(*) FROM comments c WHERE " + where, filterArgs },
		PastStart: cq.Page > 1 || cq.Offset > 0},
		func(rows pgx.Rows, total *int64) (*Comment, error) { return scanComment(rows, total) })
}

// countedComments reports whether cq filters by nothing but statuses and
// type: what comment_counts (migration 0360) records.
func countedComments(cq *CommentQuery) bool {
	return len(cq.Post) == 0 && len(cq.Parent) == 0 && len(cq.ParentExclude) == 0 && len(cq.Include) == 0 &&
		len(cq.Exclude) == 0 && len(cq.Author) == 0 && len(cq.AuthorExclude) == 0 && cq.AuthorEmail == "" &&
		cq.Search == "" && cq.After == nil && cq.Before == nil
}

// commentOrder is the ORDER BY of cq (wp_comment_query's orderby).
func commentOrder(b *SQLBuilder, cq *CommentQuery) string {
	dir := " ASC"
	if cq.Desc {
		dir = " DESC"
	}
	order := "c.date_gmt" + dir + ", c.id" + dir
	switch cq.OrderBy {
	case "id":
		order = "c.id" + dir
	case "include":
		if len(cq.Include) > 0 {
			order = "array_position(" + b.Arg(cq.Include) + "::bigint[], c.id)"
		}
	case "post":
		order = "c.post" + dir + ", " + order
	case "parent":
		order = "c.parent" + dir + ", " + order
	case "type":
		order = "c.type" + dir + ", " + order
	}
	return order
}

// HasApprovedComment tells whether user has an approved comment
// (check_comment's "previously approved" rule).
func HasApprovedComment(ctx context.Context, q Querier, user int64) (bool, error) {
	var prior bool
	if err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM comments WHERE author = $1 AND status = 'approved')`,
		user).Scan(&prior); err != nil {
		return false, fmt.Errorf("look for approved comments: %w", err)
	}
	return prior, nil
}

// IsDuplicateComment tells whether m's author already said the same on the
// same post and parent (and it is not in the trash).
func IsDuplicateComment(ctx context.Context, q Querier, m *Comment) (bool, error) {
	var dup bool
	if err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM comments WHERE post = $1 AND parent = $2
			AND author = $3 AND content = $4 AND status <> 'trash')`, m.Post, m.Parent, m.Author, m.Content).Scan(&dup); err != nil {
		return false, fmt.Errorf("look for a duplicate comment: %w", err)
	}
	return dup, nil
}

// InsertComment stores the new comment m (setting its id) and recounts
// its post's comments.
func InsertComment(ctx context.Context, q Querier, m *Comment) error {
	if err := q.QueryRow(ctx, commentInsertSQL, m.Post, m.Parent, m.Author, m.AuthorName, m.AuthorEmail,
		m.AuthorURL, m.AuthorIP, m.AuthorUserAgent, m.DateGMT, m.Content, m.Status, m.Type).Scan(&m.ID); err != nil {
		return fmt.Errorf("insert comment: %w", err)
	}
	return recountComments(ctx, q, m.Post)
}

// DeleteComment deletes m for good; its replies move up to its parent.
func DeleteComment(ctx context.Context, q Querier, m *Comment) error {
	if _, err := q.Exec(ctx, `UPDATE comments SET parent = $2 WHERE parent = $1`, m.ID, m.Parent); err != nil {
		return fmt.Errorf("move replies of comment %d: %w", m.ID, err)
	}
	if _, err := q.Exec(ctx, `DELETE FROM comments WHERE id = $1`, m.ID); err != nil {
		return fmt.Errorf("delete comment %d: %w", m.ID, err)
	}
	return recountComments(ctx, q, m.Post)
}

// RepliesOfPosts reads the approved comments (type comment) of each post of
// ids in one statement, each post's newest first as a comment collection's
// default order has them (date_gmt, then id, descending): what the replies
// links of a page of posts ask. A post without any has no entry.
func RepliesOfPosts(ctx context.Context, q Querier, ids []int64) (map[int64][]*Comment, error) {
	rows, err := q.Query(ctx, "SELECT "+commentColumns+" FROM comments c WHERE c.post = ANY($1) AND c.status = 'approved'"+
		" AND c.type = 'comment' ORDER BY c.post, c.date_gmt DESC, c.id DESC", ids)
	if err != nil {
		return nil, fmt.Errorf("select comments of %d posts: %w", len(ids), err)
	}
	defer rows.Close()
	out := map[int64][]*Comment{}
	for rows.Next() {
		m, err := scanComment(rows)
		if err != nil {
			return nil, fmt.Errorf("scan comments of %d posts: %w", len(ids), err)
		}
		out[m.Post] = append(out[m.Post], m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("select comments of %d posts: %w", len(ids), err)
	}
	return out, nil
}
