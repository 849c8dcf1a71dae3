package content

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// The font library's SQL. Families and faces are rows of the posts table,
// as WordPress keeps them in wp_posts: the post counts and the change
// notifications follow them like any other post.

// fontPost is one wp_font_family or wp_font_face post.
type fontPost struct {
	ID, Parent           int64
	Slug, Title, Content string
}

const fontPostColumns = `id, parent, slug, title, content`

// fontPost reads the published post id of type typ; nil when there is
// none (WordPress's get_post with its post type check). A non-positive id
// names none.
func (s *Service) fontPost(r *rest.Request, typ string, id int64) (*fontPost, error) {
	if id <= 0 {
		return nil, nil
	}
	return readFontPost(r.Context(), s.db(r.Context()), typ, id)
}

func readFontPost(ctx context.Context, q store.Querier, typ string, id int64) (*fontPost, error) {
	var p fontPost
	err := q.QueryRow(ctx, `SELECT `+fontPostColumns+` FROM posts WHERE id = $1 AND type = $2`, id, typ).
		Scan(&p.ID, &p.Parent, &p.Slug, &p.Title, &p.Content)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s %d: %w", typ, id, err)
	}
	return &p, nil
}

// fontQuery is a font-families or font-faces collection request.
type fontQuery struct {
	typ              string
	page, perPage    int
	offset           *int
	include, exclude []int64
	slugs            []string
	desc, byInclude  bool
}

// listFontPosts reads one page of q and the total of all pages.
func listFontPosts(ctx context.Context, q store.Querier, fq fontQuery) ([]*fontPost, int64, error) {
	// The type is written as a literal, not a parameter: with a parameter
	// the connection's cached generic plan cannot tell that font posts are
	// rare, and read every post backwards by id for the first ten of the
	// type (1.1 s at 1,000,000 posts without one font); with the literal it
	// reads the type's rows from the (type, status, ...) indexes. Only the
	// two font types are ever listed here.
	typ, ok := map[string]string{fontFamilyType: "'" + fontFamilyType + "'", fontFaceType: "'" + fontFaceType + "'"}[fq.typ]
	if !ok {
		return nil, 0, fmt.Errorf("list font posts of type %q: not a font type", fq.typ)
	}
	b := &store.SQLBuilder{}
	where := []string{"type = " + typ, "status = 'publish'"}
	order := "id DESC"
	if !fq.desc {
		order = "id ASC"
	}
	if len(fq.include) > 0 {
		include := b.Arg(fq.include)
		where = append(where, "id = ANY("+include+")")
		if fq.byInclude {
			order = "array_position(" + include + "::bigint[], id)"
		}
	}
	if len(fq.exclude) > 0 {
		where = append(where, "id <> ALL("+b.Arg(fq.exclude)+")")
	}
	if len(fq.slugs) > 0 {
		where = append(where, "slug = ANY("+b.Arg(fq.slugs)+")")
	}
	cond := strings.Join(where, " AND ")
	var total int64
	if err := q.QueryRow(ctx, `SELECT count(*) FROM posts WHERE `+cond, b.Args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count %s: %w", fq.typ, err)
	}
	offset := rest.Offset(fq.page, fq.perPage) // saturates for absurd pages
	if fq.offset != nil {
		offset = max(*fq.offset, 0)
	}
	rows, err := q.Query(ctx, `SELECT `+fontPostColumns+` FROM posts WHERE `+cond+` ORDER BY `+order+
		` LIMIT `+strconv.Itoa(fq.perPage)+` OFFSET `+strconv.Itoa(offset), b.Args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list %s: %w", fq.typ, err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*fontPost, error) {
		var p fontPost
		return &p, row.Scan(&p.ID, &p.Parent, &p.Slug, &p.Title, &p.Content)
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list %s: %w", fq.typ, err)
	}
	return out, total, nil
}

// fontFaceIDs are a family's faces, oldest first (get_font_face_ids,
// which stops at 99).
func fontFaceIDs(ctx context.Context, q store.Querier, family int64) ([]int64, error) {
	rows, err := q.Query(ctx, `SELECT id FROM posts WHERE type = $1 AND parent = $2 AND status = 'publish' ORDER BY id LIMIT 99`,
		fontFaceType, family)
	if err != nil {
		return nil, fmt.Errorf("faces of font family %d: %w", family, err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("faces of font family %d: %w", family, err)
	}
	return ids, nil
}

// insertFontPost stores a new published font post and returns its id.
func insertFontPost(ctx context.Context, q store.Querier, typ string, author int64, p *fontPost, now time.Time) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, `INSERT INTO posts (type, status, author, date_gmt, modified_gmt, slug, title, content, parent,
 comment_status, ping_status) VALUES ($1, 'publish', $2, $3, $3, $4, $5, $6, $7, 'closed', 'closed') RETURNING id`,
		typ, author, now, p.Slug, p.Title, p.Content, p.Parent).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert %s: %w", typ, err)
	}
	return id, nil
}

// updateFontPost writes a family's title and content.
func updateFontPost(ctx context.Context, q store.Querier, p *fontPost, now time.Time) error {
	if _, err := q.Exec(ctx, `UPDATE posts SET title = $2, content = $3, modified_gmt = $4 WHERE id = $1`,
		p.ID, p.Title, p.Content, now); err != nil {
		return fmt.Errorf("update font family %d: %w", p.ID, err)
	}
	return nil
}

// deleteFontPosts deletes posts ids.
func deleteFontPosts(ctx context.Context, q store.Querier, ids ...int64) error {
	if _, err := q.Exec(ctx, `DELETE FROM posts WHERE id = ANY($1)`, ids); err != nil {
		return fmt.Errorf("delete font posts %v: %w", ids, err)
	}
	return nil
}

// fontSlugTaken reports whether a published post of type typ has the
// slug (font families) or the title (font faces: their unique key).
func fontSlugTaken(ctx context.Context, q store.Querier, typ, column, value string) (bool, error) {
	var taken bool
	err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM posts WHERE type = $1 AND status = 'publish' AND `+column+` = $2)`,
		typ, value).Scan(&taken)
	if err != nil {
		return false, fmt.Errorf("look up %s %q: %w", typ, value, err)
	}
	return taken, nil
}
