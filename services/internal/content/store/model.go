package store

import (
	"time"

	"github.com/jackc/pgx/v5"
)

// Post is one row of the posts table, with its term ids and revision
// summary as read together in the same query.
type Post struct {
	ID int64
	// Xmin is the row version's xmin (the transaction that wrote it): every
	// UPDATE of the row, even one setting the same values, makes a new
	// version with a new xmin (post_versions.go)
	Xmin          uint32
	Type          string
	Status        string
	Author        int64
	DateGMT       time.Time
	DateFloating  bool
	ModifiedGMT   time.Time
	Slug          string
	Title         string
	Content       string
	Excerpt       string
	Password      string
	Parent        int64
	MenuOrder     int
	CommentStatus string
	PingStatus    string
	Format        string
	Sticky        bool
	Template      string
	FeaturedMedia int64
	Footnotes     string
	SyncStatus    string
	Autosave      bool
	TrashStatus   string

	// TermIDs and TermTaxonomies are parallel: the post's terms.
	TermIDs        []int64
	TermTaxonomies []string
	TermSlugs      []string
	// Revisions counts the post's revisions (autosaves included, as
	// wp_get_post_revisions does); LatestRevision is the newest one's id.
	Revisions      int
	LatestRevision int64
	// AncestorPath is "grandparent/parent" for a page with parents: its
	// permalink is /grandparent/parent/slug/.
	AncestorPath string
	// TermGen is the terms table's generation the row was read under
	// (post_versions.go); 0 when the read did not take it.
	TermGen int64
}

// TermsOf returns the ids of the post's terms in taxonomy tax.
func (p *Post) TermsOf(tax *Taxonomy) []int64 {
	out := []int64{}
	for i, id := range p.TermIDs {
		if p.TermTaxonomies[i] == tax.Name {
			out = append(out, id)
		}
	}
	return out
}

// PostColumns is the select list matching scanPost. The lateral joins "tr"
// and "rv" must be present in the FROM clause (see postFrom).
const PostColumns = `p.id, p.xmin, p.type, p.status, p.author, p.date_gmt, p.date_floating, p.modified_gmt, p.slug,
 p.title, p.content, p.excerpt, p.password, p.parent, p.menu_order, p.comment_status, p.ping_status, p.format,
 p.sticky, p.template, p.featured_media, p.footnotes, p.sync_status, p.autosave, p.trash_status,
 tr.ids, tr.taxes, tr.slugs, rv.n, rv.latest, anc.path`

// The lateral joins that read a post's terms, revision summary and (pages
// only) ancestor path with the post itself. Terms come by name, as
// get_the_terms orders them (the categories/tags fields keep that order).
// The post's term ids are read first, from term_relationships' primary
// key, and the terms by id: written as a join, PostgreSQL planned terms
// (a few dozen rows, never analyzed: autovacuum waits for 50 changes)
// as the outer side and probed term_relationships once per term, 27
// probes a post at the bench's terms (0.66 ms for ten posts against 0.14).
const (
	termsLateral = `
 CROSS JOIN LATERAL (SELECT COALESCE(array_agg(t.id ORDER BY lower(t.name), t.id), '{}') AS ids,
   COALESCE(array_agg(t.taxonomy ORDER BY lower(t.name), t.id), '{}') AS taxes,
   COALESCE(array_agg(t.slug ORDER BY lower(t.name), t.id), '{}') AS slugs
   FROM terms t WHERE t.id = ANY(ARRAY(SELECT r.term_id FROM term_relationships r WHERE r.post_id = p.id))) tr`
	RevisionsLateral = `
 CROSS JOIN LATERAL (SELECT count(*)::int AS n, COALESCE(max(x.id), 0) AS latest
   FROM posts x WHERE x.parent = p.id AND x.type = 'revision' AND p.type <> 'revision') rv`
	AncestorsLateral = `
 CROSS JOIN LATERAL (SELECT COALESCE((WITH RECURSIVE a(id, parent, slug, depth) AS (
     SELECT y.id, y.parent, y.slug, 1 FROM posts y WHERE y.id = p.parent AND p.type = 'page'
     UNION ALL SELECT y.id, y.parent, y.slug, a.depth + 1 FROM posts y JOIN a ON y.id = a.parent WHERE a.depth < 32)
   SELECT string_agg(a.slug, '/' ORDER BY a.depth DESC) FROM a), '') AS path) anc`
	// NoAncestors stands in for ancestorsLateral where no page can appear,
	// keeping the statement (and its planning) small.
	NoAncestors = `
 CROSS JOIN (SELECT ''::text AS path) anc`
)

// PostFrom reads a post of any type with everything postColumns lists.
const PostFrom = " FROM posts p" + termsLateral + RevisionsLateral + AncestorsLateral

// LateralsFor is the joins for posts of type pt only.
func LateralsFor(pt *PostType) string {
	if pt.Hierarchical {
		return termsLateral + RevisionsLateral + AncestorsLateral
	}
	return termsLateral + RevisionsLateral + NoAncestors
}

// ScanPost reads PostColumns from row, then extra.
func ScanPost(row pgx.Row, extra ...any) (*Post, error) {
	p := &Post{}
	dest := []any{&p.ID, &p.Xmin, &p.Type, &p.Status, &p.Author, &p.DateGMT, &p.DateFloating, &p.ModifiedGMT, &p.Slug,
		&p.Title, &p.Content, &p.Excerpt, &p.Password, &p.Parent, &p.MenuOrder, &p.CommentStatus, &p.PingStatus,
		&p.Format, &p.Sticky, &p.Template, &p.FeaturedMedia, &p.Footnotes, &p.SyncStatus, &p.Autosave,
		&p.TrashStatus, &p.TermIDs, &p.TermTaxonomies, &p.TermSlugs, &p.Revisions, &p.LatestRevision, &p.AncestorPath}
	if err := row.Scan(append(dest, extra...)...); err != nil {
		return nil, err
	}
	return p, nil
}

// Term is one row of the terms table with its published-post count.
type Term struct {
	ID          int64
	Taxonomy    string
	Name        string
	Slug        string
	Description string
	Parent      int64
	Count       int
	// menus only (menu_settings): the theme locations it is assigned to
	// and whether new top-level pages join it
	Locations []string
	AutoAdd   bool
	// HasChildren: the term is some term's parent (read by TermBySlug
	// only), so an archive that includes children needs the tree walk
	HasChildren bool
}
