package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// TmplRow is a stored template, template part or global styles post: the
// site's customisation of (or addition to) the theme's files.
type TmplRow struct {
	ID          int64
	Type        string
	Theme       string
	Slug        string
	Status      string
	Title       string
	Content     string
	Description string // post excerpt, as WordPress keeps it
	Origin      string // "theme" when it customises a theme file
	Area        string
	Author      int64
	ModifiedGMT time.Time
	DateGMT     time.Time
	TrashStatus string
	Revisions   int64 // non-autosave revisions
	LastRev     int64 // id of the latest of them
}

const tmplColumns = `p.id, p.type, p.theme, p.slug, p.status, p.title, p.content, p.excerpt, p.template_origin, p.template_area,
 p.author, p.modified_gmt, p.date_gmt, p.trash_status,
 (SELECT count(*) FROM posts r WHERE r.parent = p.id AND r.type = 'revision' AND NOT r.autosave),
 COALESCE((SELECT max(r.id) FROM posts r WHERE r.parent = p.id AND r.type = 'revision' AND NOT r.autosave), 0)`

func scanTmpl(row pgx.Row) (*TmplRow, error) {
	t := &TmplRow{}
	err := row.Scan(&t.ID, &t.Type, &t.Theme, &t.Slug, &t.Status, &t.Title, &t.Content, &t.Description, &t.Origin, &t.Area,
		&t.Author, &t.ModifiedGMT, &t.DateGMT, &t.TrashStatus, &t.Revisions, &t.LastRev)
	return t, err
}

// ListTmplRows returns the stored items of a type for a theme, trash excluded.
func ListTmplRows(ctx context.Context, q Querier, typ, theme string) ([]*TmplRow, error) {
	rows, err := q.Query(ctx, `SELECT `+tmplColumns+` FROM posts p WHERE p.type = $1 AND p.theme = $2 AND p.status <> 'trash' ORDER BY p.id`, typ, theme)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", typ, err)
	}
	defer rows.Close()
	var out []*TmplRow
	for rows.Next() {
		t, err := scanTmpl(rows)
		if err != nil {
			return nil, fmt.Errorf("scan %s: %w", typ, err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// GetTmplRow returns the stored item of a type, theme and slug (the newest
// when several exist); trash only when withTrash. nil when none.
func GetTmplRow(ctx context.Context, q Querier, typ, theme, slug string, withTrash bool) (*TmplRow, error) {
	t, err := scanTmpl(q.QueryRow(ctx, `SELECT `+tmplColumns+` FROM posts p WHERE p.type = $1 AND p.theme = $2 AND p.slug = $3
 AND ($4 OR p.status <> 'trash') ORDER BY (p.status = 'trash'), p.id DESC LIMIT 1`, typ, theme, slug, withTrash))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get %s %s//%s: %w", typ, theme, slug, err)
	}
	return t, nil
}

// GetTmplRowByID returns the stored post id when it is of type typ, else nil.
func GetTmplRowByID(ctx context.Context, q Querier, typ string, id int64) (*TmplRow, error) {
	t, err := scanTmpl(q.QueryRow(ctx, `SELECT `+tmplColumns+` FROM posts p WHERE p.id = $1 AND p.type = $2`, id, typ))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get %s %d: %w", typ, id, err)
	}
	return t, nil
}

// UniqueTmplSlug returns slug, or slug-2, slug-3… when the theme already has
// an item of that type with the slug (uniqueness is per type and theme).
func UniqueTmplSlug(ctx context.Context, q Querier, typ, theme, slug string) (string, error) {
	rows, err := q.Query(ctx, `SELECT slug FROM posts WHERE type = $1 AND theme = $2 AND (slug = $3 OR slug LIKE $4)`, typ, theme, slug, LikeEscape(slug)+"-%")
	if err != nil {
		return "", fmt.Errorf("template slugs: %w", err)
	}
	used := map[string]bool{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return "", fmt.Errorf("template slugs: %w", err)
		}
		used[s] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("template slugs: %w", err)
	}
	if !used[slug] {
		return slug, nil
	}
	for n := 2; ; n++ {
		if s := fmt.Sprintf("%s-%d", slug, n); !used[s] {
			return s, nil
		}
	}
}

// InsertTmplRow stores a new item and sets its id.
func InsertTmplRow(ctx context.Context, q Querier, t *TmplRow) error {
	err := q.QueryRow(ctx, `INSERT INTO posts (type, status, author, date_gmt, modified_gmt, slug, title, content, excerpt,
 theme, template_origin, template_area, comment_status, ping_status)
 VALUES ($1,$2,$3,$4,$4,$5,$6,$7,$8,$9,$10,$11,'closed','closed') RETURNING id`,
		t.Type, t.Status, t.Author, t.ModifiedGMT, t.Slug, t.Title, t.Content, t.Description, t.Theme, t.Origin, t.Area).Scan(&t.ID)
	if err != nil {
		return fmt.Errorf("insert %s: %w", t.Type, err)
	}
	t.DateGMT = t.ModifiedGMT
	return nil
}

// SetTmplSlug names a just-inserted item whose slug and title were both
// empty after sanitising: WordPress then uses the post's id.
func SetTmplSlug(ctx context.Context, q Querier, id int64, slug string) error {
	if _, err := q.Exec(ctx, `UPDATE posts SET slug = $2 WHERE id = $1`, id, slug); err != nil {
		return fmt.Errorf("name template %d: %w", id, err)
	}
	return nil
}

// UpdateTmplRow writes the editable columns of an item.
func UpdateTmplRow(ctx context.Context, q Querier, t *TmplRow) error {
	_, err := q.Exec(ctx, `UPDATE posts SET status = $2, author = $3, modified_gmt = $4, title = $5, content = $6, excerpt = $7,
 template_area = $8, trash_status = $9 WHERE id = $1`, t.ID, t.Status, t.Author, t.ModifiedGMT, t.Title, t.Content, t.Description, t.Area, t.TrashStatus)
	if err != nil {
		return fmt.Errorf("update %s %d: %w", t.Type, t.ID, err)
	}
	return nil
}

// DeleteTmplRow removes an item with its revisions.
func DeleteTmplRow(ctx context.Context, q Querier, id int64) error {
	if _, err := q.Exec(ctx, `DELETE FROM posts WHERE id = $1 OR (parent = $1 AND type = 'revision')`, id); err != nil {
		return fmt.Errorf("delete template %d: %w", id, err)
	}
	return nil
}

// TmplRevision is a revision (or autosave) of a stored item.
type TmplRevision struct {
	ID          int64
	Parent      int64
	Author      int64
	Title       string
	Content     string
	Description string
	DateGMT     time.Time
	ModifiedGMT time.Time
	Autosave    bool
}

const tmplRevColumns = `id, parent, author, title, content, excerpt, date_gmt, modified_gmt, autosave`

func scanTmplRev(row pgx.Row) (*TmplRevision, error) {
	r := &TmplRevision{}
	err := row.Scan(&r.ID, &r.Parent, &r.Author, &r.Title, &r.Content, &r.Description, &r.DateGMT, &r.ModifiedGMT, &r.Autosave)
	return r, err
}

// SaveTmplRevision stores a revision of t as it is now, unless the latest
// revision already has the same title, content and description (the first
// update always stores one, as WordPress does).
func SaveTmplRevision(ctx context.Context, q Querier, t *TmplRow) error {
	last, err := scanTmplRev(q.QueryRow(ctx, `SELECT `+tmplRevColumns+` FROM posts WHERE parent = $1 AND type = 'revision' AND NOT autosave
 ORDER BY date_gmt DESC, id DESC LIMIT 1`, t.ID))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return fmt.Errorf("latest revision of %d: %w", t.ID, err)
	case NormalizeWhitespace(last.Title) == NormalizeWhitespace(t.Title) && NormalizeWhitespace(last.Content) == NormalizeWhitespace(t.Content) &&
		NormalizeWhitespace(last.Description) == NormalizeWhitespace(t.Description):
		return nil
	}
	return InsertTmplRevision(ctx, q, t, t.Author, false)
}

// InsertTmplRevision stores a revision (or autosave) of the template row.
func InsertTmplRevision(ctx context.Context, q Querier, t *TmplRow, author int64, autosave bool) error {
	suffix := "-revision-v1"
	if autosave {
		suffix = "-autosave-v1"
	}
	_, err := q.Exec(ctx, `INSERT INTO posts (type, status, author, date_gmt, modified_gmt, slug, title, content, excerpt, parent, autosave, theme,
 comment_status, ping_status) VALUES ('revision','inherit',$1,$2,$2,$3,$4,$5,$6,$7,$8,$9,'closed','closed')`,
		author, t.ModifiedGMT, fmt.Sprintf("%d%s", t.ID, suffix), t.Title, t.Content, t.Description, t.ID, autosave, t.Theme)
	if err != nil {
		return fmt.Errorf("insert revision of %d: %w", t.ID, err)
	}
	return nil
}

// ListTmplRevisions returns the revisions (or autosaves) of parent, newest first.
func ListTmplRevisions(ctx context.Context, q Querier, parent int64, autosave bool) ([]*TmplRevision, error) {
	rows, err := q.Query(ctx, `SELECT `+tmplRevColumns+` FROM posts WHERE parent = $1 AND type = 'revision' AND autosave = $2
 ORDER BY date_gmt DESC, id DESC`, parent, autosave)
	if err != nil {
		return nil, fmt.Errorf("revisions of %d: %w", parent, err)
	}
	defer rows.Close()
	var out []*TmplRevision
	for rows.Next() {
		r, err := scanTmplRev(rows)
		if err != nil {
			return nil, fmt.Errorf("scan revision: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// GetTmplRevision returns the revision id (any parent), or nil.
func GetTmplRevision(ctx context.Context, q Querier, id int64) (*TmplRevision, error) {
	r, err := scanTmplRev(q.QueryRow(ctx, `SELECT `+tmplRevColumns+` FROM posts WHERE id = $1 AND type = 'revision'`, id))
	return one(r, err, "revision", id)
}

const GlobalStylesType = "wp_global_styles"
