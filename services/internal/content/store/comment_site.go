package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// The website's comments: the discussion settings, a post's comments as a
// page shows them, and the look-ups of the comment form's rules (flood,
// per-address throttle, duplicates, "previously approved").

// Discussion is WordPress's discussion settings (options-discussion.php).
// They are rows of the settings table like the REST settings, but, as in
// WordPress, the settings route does not expose them: a missing row is
// WordPress's default.
type Discussion struct {
	ThreadComments     bool   // thread_comments (1)
	ThreadDepth        int    // thread_comments_depth (5)
	PageComments       bool   // page_comments (0)
	PerPage            int    // comments_per_page (50)
	DefaultPage        string // default_comments_page: newest or oldest
	Order              string // comment_order: asc or desc
	Registration       bool   // comment_registration (0)
	RequireNameEmail   bool   // require_name_email (1)
	Moderation         bool   // comment_moderation (0)
	PreviouslyApproved bool   // comment_previously_approved (1)
	MaxLinks           int    // comment_max_links (2)
	ModerationKeys     string // moderation_keys, one word or phrase a line
	DisallowedKeys     string // disallowed_keys, one a line
	// CookiesOptIn is show_comments_cookies_opt_in (1 in every install
	// since 4.9.6): the anonymous form's "Save my name…" box
	CookiesOptIn bool
}

// DefaultDiscussion is WordPress's defaults (wp-admin/includes/schema.php).
func DefaultDiscussion() Discussion {
	return Discussion{ThreadComments: true, ThreadDepth: 5, PerPage: 50, DefaultPage: "newest", Order: "asc",
		RequireNameEmail: true, PreviouslyApproved: true, MaxLinks: 2, CookiesOptIn: true}
}

// DiscussionSettings are the names ReadDiscussion reads.
var DiscussionSettings = []string{"thread_comments", "thread_comments_depth", "page_comments", "comments_per_page",
	"default_comments_page", "comment_order", "comment_registration", "require_name_email", "comment_moderation",
	"comment_previously_approved", "comment_max_links", "moderation_keys", "disallowed_keys", "show_comments_cookies_opt_in"}

// ReadDiscussion reads the discussion settings (one statement).
func ReadDiscussion(ctx context.Context, q Querier) (Discussion, error) {
	d := DefaultDiscussion()
	rows, err := q.Query(ctx, `SELECT name, value FROM settings WHERE name = ANY($1)`, DiscussionSettings)
	if err != nil {
		return d, fmt.Errorf("select discussion settings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var raw []byte
		if err := rows.Scan(&name, &raw); err != nil {
			return d, fmt.Errorf("select discussion settings: %w", err)
		}
		d.set(name, raw)
	}
	if err := rows.Err(); err != nil {
		return d, fmt.Errorf("select discussion settings: %w", err)
	}
	return d, nil
}

// set applies one stored value; a value of the wrong shape keeps the
// default (options are loosely typed in WordPress: "1", 1 and true).
func (d *Discussion) set(name string, raw []byte) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	text := strings.TrimSpace(fmt.Sprint(v))
	n, nerr := strconv.Atoi(text)
	if f, ok := v.(float64); ok {
		n, nerr = int(f), nil
	}
	flag := text == "1" || text == "true"
	flags := map[string]*bool{"thread_comments": &d.ThreadComments, "page_comments": &d.PageComments,
		"comment_registration": &d.Registration, "require_name_email": &d.RequireNameEmail,
		"comment_moderation": &d.Moderation, "comment_previously_approved": &d.PreviouslyApproved,
		"show_comments_cookies_opt_in": &d.CookiesOptIn}
	if p, ok := flags[name]; ok {
		*p = flag
		return
	}
	switch name {
	case "thread_comments_depth":
		if nerr == nil && n >= 1 {
			d.ThreadDepth = min(n, 10)
		}
	case "comments_per_page":
		if nerr == nil && n >= 1 {
			d.PerPage = n
		}
	case "comment_max_links":
		if nerr == nil && n >= 0 {
			d.MaxLinks = n
		}
	case "default_comments_page":
		if text == "oldest" || text == "newest" {
			d.DefaultPage = text
		}
	case "comment_order":
		if text == "asc" || text == "desc" {
			d.Order = text
		}
	case "moderation_keys":
		d.ModerationKeys, _ = v.(string)
	case "disallowed_keys":
		d.DisallowedKeys, _ = v.(string)
	}
}

// SiteComment is a comment as a page shows it.
type SiteComment struct {
	ID, Parent, Author             int64
	AuthorName, AuthorURL, Content string
	DateGMT                        time.Time
	Held                           bool
	// Preview: held, shown to its anonymous author by the moderation hash
	Preview bool
	// AvatarHash is Gravatar's hash of the author's e-mail (get_avatar_data:
	// SHA-256 of it trimmed and lowercased); the e-mail itself is not read
	AvatarHash string
}

// PostComments reads the comments a page of post shows, oldest first: the
// approved ones (viewer and held 0, email ""), or only the held ones a
// viewer sees — a signed-in viewer's (viewer ≠ 0) own (the "awaiting
// moderation" preview), comment held (an anonymous commenter's preview),
// and the anonymous comments written with email (the commenter's cookie,
// WordPress's include_unapproved; a user's held comments are not shown by
// an e-mail anyone could type).
func PostComments(ctx context.Context, q Querier, post, viewer, held int64, email string) ([]*SiteComment, error) {
	rows, err := q.Query(ctx, `SELECT id, parent, author, author_name, author_url, content, date_gmt, status = 'hold',
		encode(sha256(convert_to(lower(btrim(author_email)), 'UTF8')), 'hex')
		FROM comments WHERE post = $1 AND type = 'comment'
		AND CASE WHEN $2 = 0 AND $3 = 0 AND $4::text = '' THEN status = 'approved'
			ELSE status = 'hold' AND (($2 <> 0 AND author = $2) OR id = $3
				OR ($4::text <> '' AND author = 0 AND lower(btrim(author_email)) = lower(btrim($4::text)))) END
		ORDER BY date_gmt, id`, post, viewer, held, email)
	if err != nil {
		return nil, fmt.Errorf("select comments of post %d: %w", post, err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*SiteComment, error) {
		c := &SiteComment{}
		if err := row.Scan(&c.ID, &c.Parent, &c.Author, &c.AuthorName, &c.AuthorURL, &c.Content, &c.DateGMT, &c.Held, &c.AvatarHash); err != nil {
			return nil, err
		}
		return c, nil
	})
	if err != nil {
		return nil, fmt.Errorf("select comments of post %d: %w", post, err)
	}
	return out, nil
}

// RecentComments reads the newest approved comments on published posts
// that are not password protected (post = 0) or of one post: the comment
// feeds. Each comes with its post's id and title.
func RecentComments(ctx context.Context, q Querier, post int64, limit int) ([]*FeedComment, error) {
	rows, err := q.Query(ctx, `SELECT c.id, c.post, p.title, c.author_name, c.author_url, c.content, c.date_gmt,
		c.parent, coalesce(pc.author_name, '')
		FROM comments c JOIN posts p ON p.id = c.post LEFT JOIN comments pc ON pc.id = c.parent
		WHERE c.status = 'approved' AND c.type = 'comment' AND p.status = 'publish' AND p.password = ''
		AND ($1 = 0 OR c.post = $1)
		ORDER BY c.date_gmt DESC, c.id DESC LIMIT $2`, post, limit)
	if err != nil {
		return nil, fmt.Errorf("select recent comments: %w", err)
	}
	defer rows.Close()
	var out []*FeedComment
	for rows.Next() {
		var c FeedComment
		if err := rows.Scan(&c.ID, &c.Post, &c.PostTitle, &c.AuthorName, &c.AuthorURL, &c.Content, &c.DateGMT, &c.Parent, &c.ParentName); err != nil {
			return nil, fmt.Errorf("select recent comments: %w", err)
		}
		out = append(out, &c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("select recent comments: %w", err)
	}
	return out, nil
}

// FeedComment is a comment as a comment feed shows it.
type FeedComment struct {
	ID, Post, Parent                                      int64
	PostTitle, AuthorName, AuthorURL, Content, ParentName string
	DateGMT                                               time.Time
}

// CommentGate is what the comment form's rules look up about a new
// comment's author before it is stored (wp_allow_comment, check_comment).
type CommentGate struct {
	// Duplicate: the same author said the same on the same post and parent
	Duplicate bool
	// Last is the author's newest comment within the hour (zero: none),
	// for the flood interval
	Last time.Time
	// FromAddress counts the anonymous comments of the address within the
	// hour (the per-address throttle)
	FromAddress int
	// Approved: the author has an approved comment (comment_previously_approved)
	Approved bool
}

// LockCommenter serialises the comment writes of one author (the user,
// else the address) until tx ends, so that two posts at once cannot both
// pass the flood and duplicate checks.
func LockCommenter(ctx context.Context, tx Querier, user int64, ip string) error {
	key := "comment-user:" + strconv.FormatInt(user, 10)
	if user == 0 {
		key = "comment-ip:" + ip
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, key); err != nil {
		return fmt.Errorf("lock commenter: %w", err)
	}
	return nil
}

// GateComment answers CommentGate for m (its post, parent, author, name,
// e-mail, address, content and date set), in one statement.
func GateComment(ctx context.Context, q Querier, m *Comment) (CommentGate, error) {
	var g CommentGate
	var last *time.Time
	hourAgo := m.DateGMT.Add(-time.Hour)
	// the duplicate: the user's, or (anonymous) the same name and, when
	// given, e-mail; the flood: the user's, or the address's, or the
	// e-mail's; "previously approved": the user's, or the same name and
	// e-mail (check_comment)
	err := q.QueryRow(ctx, `SELECT
		EXISTS (SELECT 1 FROM comments WHERE post = $1 AND parent = $2 AND status <> 'trash' AND content = $7
			AND (CASE WHEN $3 <> 0 THEN author = $3 ELSE author_name = $4 AND ($5 = '' OR author_email = $5) END)),
		(SELECT max(date_gmt) FROM comments WHERE date_gmt >= $8
			AND (CASE WHEN $3 <> 0 THEN author = $3 ELSE author_ip = $6 END OR ($5 <> '' AND author_email = $5))),
		(SELECT count(*) FROM comments WHERE $3 = 0 AND author = 0 AND author_ip = $6 AND date_gmt >= $8),
		EXISTS (SELECT 1 FROM comments WHERE status = 'approved'
			AND (CASE WHEN $3 <> 0 THEN author = $3 ELSE author = 0 AND author_name = $4 AND author_email = $5 AND $5 <> '' END))`,
		m.Post, m.Parent, m.Author, m.AuthorName, m.AuthorEmail, m.AuthorIP, m.Content, hourAgo).
		Scan(&g.Duplicate, &last, &g.FromAddress, &g.Approved)
	if err != nil {
		return g, fmt.Errorf("check the new comment: %w", err)
	}
	if last != nil {
		g.Last = *last
	}
	return g, nil
}

// CommentPreviewKey reads the site's key of moderation hashes.
func CommentPreviewKey(ctx context.Context, q Querier) ([]byte, error) {
	var key []byte
	if err := q.QueryRow(ctx, `SELECT key FROM comment_preview_key WHERE id = 1`).Scan(&key); err != nil {
		return nil, fmt.Errorf("select comment preview key: %w", err)
	}
	return key, nil
}

// CommentPosition is where comment id stands among its post's comment
// pages (get_page_of_comment): how many approved threads (top-level
// comments; every comment when not threaded) come before its thread in
// comment_order, and how many there are.
func CommentPosition(ctx context.Context, q Querier, id int64, threaded, desc bool) (before, total int, err error) {
	err = q.QueryRow(ctx, `WITH RECURSIVE up AS (
			SELECT id, parent, post, date_gmt, 0 AS depth FROM comments WHERE id = $1
			UNION ALL
			SELECT c.id, c.parent, c.post, c.date_gmt, up.depth + 1 FROM comments c JOIN up ON c.id = up.parent
			WHERE $2 AND up.depth < 64),
		top AS (SELECT id, post, date_gmt FROM up WHERE parent = 0 OR NOT $2 ORDER BY depth LIMIT 1),
		threads AS (SELECT k.id, k.date_gmt FROM comments k, top WHERE k.post = top.post AND k.status = 'approved'
			AND k.type = 'comment' AND (k.parent = 0 OR NOT $2))
		SELECT (SELECT count(*) FROM threads, top WHERE CASE WHEN $3
				THEN (threads.date_gmt, threads.id) > (top.date_gmt, top.id)
				ELSE (threads.date_gmt, threads.id) < (top.date_gmt, top.id) END),
			(SELECT count(*) FROM threads)`, id, threaded, desc).Scan(&before, &total)
	if err != nil {
		return 0, 0, fmt.Errorf("place comment %d: %w", id, err)
	}
	return before, total, nil
}
