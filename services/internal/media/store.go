package media

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/postgres"
)

// errNotFound is returned for an id without an attachment.
var errNotFound = errors.New("attachment not found")

const columns = `id, author, date_gmt, modified_gmt, slug, status, title, caption, description, alt_text, post,
	featured_media, comment_status, ping_status, template, meta, mime_type, file, filesize, details`

func scanAttachment(row pgx.Row) (*Attachment, error) {
	var a Attachment
	var meta, details []byte
	err := row.Scan(&a.ID, &a.Author, &a.Date, &a.Modified, &a.Slug, &a.Status, &a.Title, &a.Caption, &a.Description,
		&a.AltText, &a.Post, &a.FeaturedMedia, &a.CommentStatus, &a.PingStatus, &a.Template, &meta, &a.Mime, &a.File,
		&a.Filesize, &details)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	a.Date, a.Modified = a.Date.UTC(), a.Modified.UTC()
	if err := json.Unmarshal(meta, &a.Meta); err != nil {
		return nil, fmt.Errorf("decode meta of attachment %d: %w", a.ID, err)
	}
	if err := json.Unmarshal(details, &a.Details); err != nil {
		return nil, fmt.Errorf("decode details of attachment %d: %w", a.ID, err)
	}
	return &a, nil
}

// getAttachment loads one attachment.
func getAttachment(ctx context.Context, q pgx.Tx, pool postgres.Rows, id int64) (*Attachment, error) {
	sql := `SELECT ` + columns + ` FROM attachments WHERE id = $1`
	if q != nil {
		return scanAttachment(q.QueryRow(ctx, sql, id))
	}
	return scanAttachment(pool.QueryRow(ctx, sql, id))
}

// lockNames serialises the choice of slugs and file names: a short
// transaction-scoped lock, so two uploads of photo.jpg get photo and photo-1
// instead of one failing on the unique index.
func lockNames(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('siteplane.media.names'))`)
	if err != nil {
		return fmt.Errorf("lock names: %w", err)
	}
	return nil
}

// uniqueSlug returns base, or base-2, base-3, ... the first that no other
// attachment (than self) uses.
func uniqueSlug(ctx context.Context, tx pgx.Tx, base string, self int64) (string, error) {
	if base == "" {
		base = "attachment"
	}
	rows, err := tx.Query(ctx, `SELECT slug FROM attachments WHERE (slug = $1 OR slug LIKE $2) AND id <> $3`,
		base, likeEscape(base)+`-%`, self)
	if err != nil {
		return "", fmt.Errorf("read slugs: %w", err)
	}
	taken, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return "", fmt.Errorf("read slugs: %w", err)
	}
	used := map[string]bool{}
	for _, s := range taken {
		used[s] = true
	}
	if !used[base] {
		return base, nil
	}
	for n := 2; ; n++ {
		if s := fmt.Sprintf("%s-%d", base, n); !used[s] {
			return s, nil
		}
	}
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// keysTaken reports which of keys are in use.
func keysTaken(ctx context.Context, tx pgx.Tx, keys []string) (bool, error) {
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM files WHERE key = ANY($1)`, keys).Scan(&n); err != nil {
		return false, fmt.Errorf("check file names: %w", err)
	}
	return n > 0, nil
}

// insertAttachment writes a new row and its file keys; a.ID is set.
func insertAttachment(ctx context.Context, tx pgx.Tx, a *Attachment) error {
	meta, details, err := encodeJSONColumns(a)
	if err != nil {
		return err
	}
	err = tx.QueryRow(ctx, `INSERT INTO attachments (author, date_gmt, modified_gmt, slug, status, title, caption,
		description, alt_text, post, featured_media, comment_status, ping_status, template, meta, mime_type, file,
		filesize, details) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19) RETURNING id`,
		a.Author, a.Date, a.Modified, a.Slug, a.Status, a.Title, a.Caption, a.Description, a.AltText, a.Post,
		a.FeaturedMedia, a.CommentStatus, a.PingStatus, a.Template, meta, a.Mime, a.File, a.Filesize, details).Scan(&a.ID)
	if err != nil {
		return fmt.Errorf("insert attachment: %w", err)
	}
	return addKeys(ctx, tx, a.ID, a.keys())
}

func addKeys(ctx context.Context, tx pgx.Tx, id int64, keys []string) error {
	if _, err := tx.Exec(ctx, `INSERT INTO files (key, attachment_id) SELECT unnest($1::text[]), $2 ON CONFLICT (key) DO NOTHING`, keys, id); err != nil {
		return fmt.Errorf("insert file names: %w", err)
	}
	return nil
}

// updateAttachment writes every mutable column of a.
func updateAttachment(ctx context.Context, tx pgx.Tx, a *Attachment) error {
	meta, details, err := encodeJSONColumns(a)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE attachments SET author=$2, date_gmt=$3, modified_gmt=$4, slug=$5, status=$6, title=$7,
		caption=$8, description=$9, alt_text=$10, post=$11, featured_media=$12, comment_status=$13, ping_status=$14,
		template=$15, meta=$16, details=$17 WHERE id=$1`,
		a.ID, a.Author, a.Date, a.Modified, a.Slug, a.Status, a.Title, a.Caption, a.Description, a.AltText, a.Post,
		a.FeaturedMedia, a.CommentStatus, a.PingStatus, a.Template, meta, details)
	if err != nil {
		return fmt.Errorf("update attachment %d: %w", a.ID, err)
	}
	return addKeys(ctx, tx, a.ID, a.keys())
}

func encodeJSONColumns(a *Attachment) (meta, details []byte, err error) {
	if a.Meta == nil {
		a.Meta = map[string]any{}
	}
	if meta, err = json.Marshal(a.Meta); err != nil {
		return nil, nil, fmt.Errorf("encode meta: %w", err)
	}
	if details, err = json.Marshal(a.Details); err != nil {
		return nil, nil, fmt.Errorf("encode details: %w", err)
	}
	return meta, details, nil
}

// deleteAttachment removes the row (and its file keys, by cascade).
func deleteAttachment(ctx context.Context, tx pgx.Tx, id int64) error {
	if _, err := tx.Exec(ctx, `DELETE FROM attachments WHERE id = $1`, id); err != nil {
		return fmt.Errorf("delete attachment %d: %w", id, err)
	}
	return nil
}

// fileOwner returns the attachment a stored file belongs to (errNotFound
// when no attachment has it).
func fileOwner(ctx context.Context, pool postgres.Rows, key string) (*Attachment, error) {
	row := pool.QueryRow(ctx, `SELECT `+columns+` FROM attachments WHERE id = (SELECT attachment_id FROM files WHERE key = $1)`, key)
	a, err := scanAttachment(row)
	if err != nil {
		return nil, fmt.Errorf("file owner of %s: %w", key, err)
	}
	return a, nil
}
