package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// The website's reads: one statement each, over the same tables as REST.

// siteStatuses are the statuses a visitor may see at a permalink:
// published, and private for callers who may read private posts (checked
// by the caller with canRead).
var siteStatuses = []string{"publish", "private"}

// noRevisions stands in for revisionsLateral in the website's reads: a
// page never shows a post's revision count.
const noRevisions = `
 CROSS JOIN (SELECT 0::int AS n, 0::bigint AS latest) rv`

// SiteListPosts is ListPosts for the website's listings: the same page,
// without the revision summary no page shows (a lateral less per post).
func SiteListPosts(ctx context.Context, q Querier, lq *ListQuery) ([]*Post, int, error) {
	anc := NoAncestors
	if lq.Type.Hierarchical {
		anc = AncestorsLateral
	}
	return listPostsOf(ctx, q, lq, termsLateral+noRevisions+anc)
}

// PageByPath finds the page at a nested path ("parent/child") among
// published and private pages; nil when none.
func PageByPath(ctx context.Context, q Querier, ancestors, slug string) (*Post, error) {
	sql := "SELECT " + PostColumns + " FROM posts p" + termsLateral + noRevisions + AncestorsLateral +
		" WHERE p.type = 'page' AND p.slug = $1 AND anc.path = $2 AND p.status = ANY($3) ORDER BY p.id LIMIT 1"
	return scanOne(q.QueryRow(ctx, sql, slug, ancestors, siteStatuses), "page "+slug)
}

// PostBySlug finds a published or private post by slug; nil when none.
func PostBySlug(ctx context.Context, q Querier, slug string) (*Post, error) {
	sql := "SELECT " + PostColumns + " FROM posts p" + termsLateral + noRevisions + NoAncestors +
		" WHERE p.type = 'post' AND p.slug = $1 AND p.status = ANY($2) ORDER BY p.id LIMIT 1"
	return scanOne(q.QueryRow(ctx, sql, slug, siteStatuses), "post "+slug)
}

// Singular is what a URL of one or more segments finds (SingularBySlug):
// the page at that path and the post of that slug (nil: none), whether
// each has approved comments, and the published post's neighbours.
type Singular struct {
	Page, Post *Post
	// PageComments and PostComments: whether Page and Post have approved
	// comments (the website reads a post's comments only when it has some)
	PageComments, PostComments bool
	// Prev and Next are AdjacentPosts of Post, read with it when Post is a
	// published post (nil otherwise, or when there is none)
	Prev, Next *Post
}

// SingularBySlug finds, in one statement, the page at a nested path and
// (when withPost: a one-segment path) the post of that slug, each the
// oldest of its kind, with whether each has approved comments and the
// post's neighbours: a post's page then needs no second and third
// statement for its navigation links and (none) comments, which were most
// of its PostgreSQL CPU when its page is not kept (docs/performance.md).
func SingularBySlug(ctx context.Context, q Querier, ancestors, slug string, withPost bool) (Singular, error) {
	var found Singular
	sql := "SELECT " + PostColumns + ", EXISTS (SELECT 1 FROM comments c WHERE c.post = p.id AND c.type = 'comment' AND c.status = 'approved')," +
		" pv.id, pv.slug, pv.title, nx.id, nx.slug, nx.title FROM posts p" + termsLateral + noRevisions + AncestorsLateral +
		neighboursJoin(" AND p.type = 'post' AND p.status = 'publish'") +
		" WHERE p.slug = $1 AND p.status = ANY($3) AND ((p.type = 'page' AND anc.path = $2) OR (p.type = 'post' AND $4)) ORDER BY p.id"
	rows, err := q.Query(ctx, sql, slug, ancestors, siteStatuses, withPost)
	if err != nil {
		return found, fmt.Errorf("select page or post %s: %w", slug, err)
	}
	defer rows.Close()
	for rows.Next() {
		var commented bool
		var prev, next neighbour
		p, err := ScanPost(rows, &commented, &prev.id, &prev.slug, &prev.title, &next.id, &next.slug, &next.title)
		if err != nil {
			return found, fmt.Errorf("select page or post %s: %w", slug, err)
		}
		switch {
		case p.Type == "page" && found.Page == nil:
			found.Page, found.PageComments = p, commented
		case p.Type == "post" && found.Post == nil:
			found.Post, found.PostComments = p, commented
			found.Prev, found.Next = prev.post(), next.post()
		}
	}
	if err := rows.Err(); err != nil {
		return found, fmt.Errorf("select page or post %s: %w", slug, err)
	}
	return found, nil
}

// neighbour is an adjacent post's link as a LEFT JOIN reads it (NULLs:
// none).
type neighbour struct {
	id          *int64
	slug, title *string
}

func (n neighbour) post() *Post {
	if n.id == nil {
		return nil
	}
	return &Post{ID: *n.id, Type: "post", Status: "publish", Slug: *n.slug, Title: *n.title}
}

// neighboursJoin joins to each row p its published neighbours by date:
// pv, the nearest older post, and nx, the nearest newer one (NULLs: none),
// each id, slug and title; gate is a further condition on p under which
// they are read at all. AdjacentPosts and SingularBySlug share it, so both
// pick the same neighbours.
func neighboursJoin(gate string) string {
	return " LEFT JOIN LATERAL (SELECT x.id, x.slug, x.title FROM posts x WHERE x.type = 'post' AND x.status = 'publish'" +
		" AND x.date_gmt < p.date_gmt AND x.id <> p.id" + gate + " ORDER BY x.date_gmt DESC, x.id DESC LIMIT 1) pv ON true" +
		" LEFT JOIN LATERAL (SELECT x.id, x.slug, x.title FROM posts x WHERE x.type = 'post' AND x.status = 'publish'" +
		" AND x.date_gmt > p.date_gmt AND x.id <> p.id" + gate + " ORDER BY x.date_gmt, x.id LIMIT 1) nx ON true"
}

// AdjacentPosts reads the published posts just before (older) and after
// (newer) p by date, in one statement; nil for either when there is none.
// Only what a link to a post needs is read (id, slug, title, with the
// status they were chosen by): a post page's neighbours are two links, not
// two rows with their content and terms.
func AdjacentPosts(ctx context.Context, q Querier, p *Post) (prev, next *Post, err error) {
	var pv, nx neighbour
	err = q.QueryRow(ctx, "SELECT pv.id, pv.slug, pv.title, nx.id, nx.slug, nx.title FROM (SELECT $1::timestamp AS date_gmt, $2::bigint AS id) p"+
		neighboursJoin(""), p.DateGMT, p.ID).Scan(&pv.id, &pv.slug, &pv.title, &nx.id, &nx.slug, &nx.title)
	if err != nil {
		return nil, nil, fmt.Errorf("select posts next to %d: %w", p.ID, err)
	}
	return pv.post(), nx.post(), nil
}

func scanOne(row pgx.Row, what string) (*Post, error) {
	p, err := ScanPost(row)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("select %s: %w", what, err)
	}
	return p, nil
}

// TermBySlug reads a term of tax by slug, with whether it has children;
// nil when none.
func TermBySlug(ctx context.Context, q Querier, tax *Taxonomy, slug string) (*Term, error) {
	t := &Term{}
	err := q.QueryRow(ctx, `SELECT t.id, t.taxonomy, t.name, t.slug, t.description,
 EXISTS (SELECT 1 FROM terms c WHERE c.parent = t.id AND c.parent <> 0)
 FROM terms t WHERE t.taxonomy = $1 AND t.slug = $2`, tax.Name, slug).
		Scan(&t.ID, &t.Taxonomy, &t.Name, &t.Slug, &t.Description, &t.HasChildren)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("select term %s: %w", slug, err)
	}
	return t, nil
}

// TermNames maps term ids to name and slug (the post-terms block).
func TermNames(ctx context.Context, q Querier, ids []int64) (map[int64]*Term, error) {
	out := map[int64]*Term{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.Query(ctx, `SELECT id, taxonomy, name, slug FROM terms WHERE id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("select terms: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		t := &Term{}
		if err := rows.Scan(&t.ID, &t.Taxonomy, &t.Name, &t.Slug); err != nil {
			return nil, fmt.Errorf("scan term: %w", err)
		}
		out[t.ID] = t
	}
	return out, rows.Err()
}

// PublicTerms lists the terms of tax that have published posts (the
// sitemap), by name.
func PublicTerms(ctx context.Context, q Querier, tax *Taxonomy) ([]*Term, error) {
	rows, err := q.Query(ctx, `SELECT t.id, t.taxonomy, t.name, t.slug FROM terms t WHERE t.taxonomy = $1 AND `+termCountSQL+` > 0 ORDER BY t.name, t.id`, tax.Name)
	if err != nil {
		return nil, fmt.Errorf("list terms: %w", err)
	}
	defer rows.Close()
	var out []*Term
	for rows.Next() {
		t := &Term{}
		if err := rows.Scan(&t.ID, &t.Taxonomy, &t.Name, &t.Slug); err != nil {
			return nil, fmt.Errorf("scan term: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// themeRows is what the website's snapshot holds from the database: the
// theme's stored templates and parts, the user's global styles and the
// site_icon setting — in one statement.
type themeRows struct {
	Templates map[string]string // slug → content
	Parts     map[string]string
	Styles    string // the global styles post's content, "" when none
	SiteIcon  []byte // the site_icon setting's stored JSON, nil when unset
	// AttachmentPages is the wp_attachment_pages_enabled setting's stored
	// JSON, nil when unset (off, as WordPress 6.4+ installs)
	AttachmentPages []byte
}

// LoadThemeRows reads the theme's stored templates, parts and user global
// styles in one statement.
func LoadThemeRows(ctx context.Context, q Querier, stylesheet string) (*themeRows, error) {
	rows, err := q.Query(ctx, `SELECT type, slug, content FROM (
  SELECT 0 AS k, id, type, slug, content FROM posts WHERE theme = $1 AND status = 'publish' AND
   type IN ('wp_template', 'wp_template_part', $2)
  UNION ALL SELECT 1, 0, 'setting', name, value::text FROM settings WHERE name IN ('site_icon', 'wp_attachment_pages_enabled')) r
 ORDER BY k, id`, stylesheet, GlobalStylesType)
	if err != nil {
		return nil, fmt.Errorf("load theme rows: %w", err)
	}
	defer rows.Close()
	out := &themeRows{Templates: map[string]string{}, Parts: map[string]string{}}
	for rows.Next() {
		var typ, slug, content string
		if err := rows.Scan(&typ, &slug, &content); err != nil {
			return nil, fmt.Errorf("scan theme row: %w", err)
		}
		switch typ {
		case "wp_template":
			out.Templates[slug] = content
		case "wp_template_part":
			out.Parts[slug] = content
		case "setting":
			if slug == "wp_attachment_pages_enabled" {
				out.AttachmentPages = []byte(content)
			} else {
				out.SiteIcon = []byte(content)
			}
		default:
			if out.Styles == "" {
				out.Styles = content
			}
		}
	}
	return out, rows.Err()
}

// TermSlugByID reads term id of tax (id, taxonomy, name and slug only);
// nil when there is none.
func TermSlugByID(ctx context.Context, q Querier, tax *Taxonomy, id int64) (*Term, error) {
	var t Term
	err := q.QueryRow(ctx, `SELECT id, taxonomy, name, slug FROM terms WHERE id = $1 AND taxonomy = $2`, id, tax.Name).
		Scan(&t.ID, &t.Taxonomy, &t.Name, &t.Slug)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("select %s %d: %w", tax.Name, id, err)
	}
	return &t, nil
}

// NavigationContent reads a published navigation post's content (ref 0:
// the most recently published, as WordPress's navigation fallback and
// LatestNavigationID, so the website shows the menu the editors show);
// found is false when there is none.
func NavigationContent(ctx context.Context, q Querier, ref int64) (content string, found bool, err error) {
	if ref > 0 {
		err = q.QueryRow(ctx, `SELECT content FROM posts WHERE id = $1 AND type = 'wp_navigation' AND status = 'publish'`, ref).Scan(&content)
	} else {
		err = q.QueryRow(ctx, `SELECT content FROM posts WHERE type = 'wp_navigation' AND status = 'publish' ORDER BY date_gmt DESC, id DESC LIMIT 1`).Scan(&content)
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read navigation: %w", err)
	}
	return content, true, nil
}

// PublishedPosts reads the published posts among ids, by id.
func PublishedPosts(ctx context.Context, q Querier, ids []int64) (map[int64]*Post, error) {
	rows, err := q.Query(ctx, "SELECT "+PostColumns+PostFrom+" WHERE p.id = ANY($1) AND p.status = 'publish'", ids)
	if err != nil {
		return nil, fmt.Errorf("select published posts: %w", err)
	}
	defer rows.Close()
	posts := map[int64]*Post{}
	for rows.Next() {
		p, err := ScanPost(rows)
		if err != nil {
			return nil, fmt.Errorf("select published posts: %w", err)
		}
		posts[p.ID] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("select published posts: %w", err)
	}
	return posts, nil
}

// HasPublishedPosts reports whether user id is the author of a published
// post of any type: only then does ?author={id} lead to the user's
// archive (WordPress's redirect_canonical), so the query form is no
// directory of every account.
func HasPublishedPosts(ctx context.Context, q Querier, id int64) (bool, error) {
	var has bool
	err := q.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM posts WHERE author = $1 AND status = 'publish')", id).Scan(&has)
	if err != nil {
		return false, fmt.Errorf("select published posts of author: %w", err)
	}
	return has, nil
}
