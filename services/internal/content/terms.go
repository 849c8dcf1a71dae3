package content

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/rest"
)

// Terms of the four taxonomies (WP_REST_Terms_Controller and, for nav_menu,
// WP_REST_Menus_Controller).

var errTermInvalid = apiErr(http.StatusNotFound, "rest_term_invalid", "Term does not exist.")

const termColumns = `t.id, t.taxonomy, t.name, t.slug, t.description, t.parent,
 (SELECT count(*)::int FROM term_relationships r JOIN posts p ON p.id = r.post_id
   WHERE r.term_id = t.id AND p.status = 'publish')`

func scanTerm(row pgx.Row, extra ...any) (*Term, error) {
	t := &Term{}
	err := row.Scan(append([]any{&t.ID, &t.Taxonomy, &t.Name, &t.Slug, &t.Description, &t.Parent, &t.Count}, extra...)...)
	return t, err
}

func getTerm(ctx context.Context, q querier, tax *Taxonomy, id int64) (*Term, error) {
	t, err := scanTerm(q.QueryRow(ctx, "SELECT "+termColumns+" FROM terms t WHERE t.id = $1 AND t.taxonomy = $2", id, tax.Name))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return t, err
}

// termCollectionArgs are the terms collection parameters.
func termCollectionArgs(tax *Taxonomy) []P {
	args := []P{
		contextArg(),
		{"page", &S{Type: "integer", Default: 1, Minimum: num(1)}},
		{"per_page", &S{Type: "integer", Default: 10, Minimum: num(1), Maximum: num(100)}},
		{"search", &S{Type: "string"}},
		{"exclude", intArray()},
		{"include", intArray()},
	}
	if !tax.Hierarchical {
		args = append(args, P{"offset", &S{Type: "integer"}})
	}
	args = append(args,
		P{"order", &S{Type: "string", Enum: strEnum("asc", "desc"), Default: "asc"}},
		P{"orderby", &S{Type: "string", Enum: strEnum("id", "include", "name", "slug", "include_slugs", "term_group", "description", "count"), Default: "name"}},
		P{"hide_empty", &S{Type: "boolean", Default: false}})
	if tax.Hierarchical {
		args = append(args, P{"parent", &S{Type: "integer"}})
	}
	args = append(args, P{"post", &S{Type: "integer", Default: nil}}, P{"slug", &S{Type: "array", Items: &S{Type: "string"}}})
	return args
}

func termWriteArgs(tax *Taxonomy, create bool) []P {
	args := []P{{"description", &S{Type: "string"}}, {"name", &S{Type: "string", Required: create}}, {"slug", &S{Type: "string"}}}
	if tax.Hierarchical {
		args = append(args, P{"parent", &S{Type: "integer"}})
	}
	args = append(args, P{"meta", &S{Type: "object"}})
	return args
}

// canReadTerms: menus are private to users who can edit content.
func canReadTerms(c *Call, tax *Taxonomy) error {
	if tax != Menu {
		return nil
	}
	if c.Who.Can("edit_theme_options") || c.Who.Can("edit_posts") || c.Who.Can("edit_pages") {
		return nil
	}
	return forbidden(c.Who, "rest_cannot_view", "Sorry, you are not allowed to view menus.")
}

func (s *Service) termLink(tax *Taxonomy, t *Term) string {
	switch tax {
	case Category:
		return s.site.URL + "/category/" + t.Slug + "/"
	case Tag:
		return s.site.URL + "/tag/" + t.Slug + "/"
	}
	return s.site.URL + "/?taxonomy=" + tax.Name + "&term=" + t.Slug
}

// prepareTerm renders a term for context, in WordPress's order.
func (s *Service) prepareTerm(tax *Taxonomy, t *Term, context string) rest.Object {
	embed := context == "embed"
	out := make(rest.Object, 0, 12)
	add := func(k string, v any) { out = append(out, rest.Member{Key: k, Value: v}) }
	add("id", t.ID)
	if tax == Menu {
		if !embed {
			add("description", t.Description)
		}
		add("name", t.Name)
		add("slug", t.Slug)
		if !embed {
			add("meta", []any{})
			add("locations", []any{})
			add("auto_add", false)
		}
	} else {
		if !embed {
			add("count", t.Count)
			add("description", t.Description)
		}
		add("link", s.termLink(tax, t))
		add("name", t.Name)
		add("slug", t.Slug)
		add("taxonomy", tax.Name)
		if !embed {
			if tax.Hierarchical {
				add("parent", t.Parent)
			}
			add("meta", []any{})
		}
	}
	id := strconv.FormatInt(t.ID, 10)
	links := rest.Object{
		{Key: "self", Value: []any{href(s.restRoot + "/cms/v2/" + tax.Base + "/" + id)}},
		{Key: "collection", Value: []any{href(s.restRoot + "/cms/v2/" + tax.Base)}},
		{Key: "about", Value: []any{href(s.restRoot + "/cms/v2/taxonomies/" + tax.Name)}},
	}
	if tax.Hierarchical && t.Parent != 0 {
		links = append(links, rest.Member{Key: "up", Value: []any{href(s.restRoot+"/cms/v2/"+tax.Base+"/"+strconv.FormatInt(t.Parent, 10), "embeddable", true)}})
	}
	var postTypes []any
	for _, pt := range PostTypes {
		if hasTaxonomy(pt, tax) {
			postTypes = append(postTypes, href(s.restRoot+"/cms/v2/"+pt.Base+"?"+tax.Base+"="+id))
		}
	}
	if tax == Menu {
		postTypes = append(postTypes, href(s.restRoot+"/cms/v2/menu-items?menus="+id))
	}
	links = append(links, rest.Member{Key: "wp:post_type", Value: postTypes}, rest.Member{Key: "curies", Value: curies})
	add("_links", links)
	return out
}

// listTerms is GET /cms/v2/{tax base}.
func (s *Service) listTerms(tax *Taxonomy) HandlerFunc {
	return func(c *Call) (*Result, error) {
		context := c.Str("context")
		b := &sqlBuilder{}
		b.add("t.taxonomy = " + b.arg(tax.Name))
		if postID := c.Int("post"); c.Has("post") && c.Params["post"] != nil && postID != 0 {
			p, err := getPost(c.Ctx, s.db(c.Ctx), postID)
			if err != nil {
				return nil, err
			}
			if p == nil {
				return nil, apiErr(http.StatusBadRequest, "rest_post_invalid_id", "Invalid post ID.")
			}
			pt := typeByName(p.Type)
			if pt == nil || !hasTaxonomy(pt, tax) || !canRead(c.Who, pt, p) {
				return nil, forbidden(c.Who, "rest_forbidden_context", "Sorry, you are not allowed to view terms for this post.")
			}
			b.add("t.id IN (SELECT term_id FROM term_relationships WHERE post_id = " + b.arg(postID) + ")")
		}
		if search := strings.TrimSpace(c.Str("search")); search != "" {
			a := b.arg("%" + likeEscape(search) + "%")
			b.add("(t.name ILIKE " + a + " OR t.slug ILIKE " + a + ")")
		}
		if inc := c.Ints("include"); len(inc) > 0 {
			b.add("t.id = ANY(" + b.arg(inc) + ")")
		}
		if exc := c.Ints("exclude"); len(exc) > 0 {
			b.add("t.id <> ALL(" + b.arg(exc) + ")")
		}
		if slugs := c.Strs("slug"); len(slugs) > 0 {
			b.add("t.slug = ANY(" + b.arg(slugs) + ")")
		}
		if tax.Hierarchical && c.Has("parent") {
			b.add("t.parent = " + b.arg(c.Int("parent")))
		}
		where := strings.Join(b.where, " AND ")
		if c.Bool("hide_empty") {
			where = "(" + where + ") AND EXISTS (SELECT 1 FROM term_relationships r JOIN posts p ON p.id = r.post_id WHERE r.term_id = t.id AND p.status = 'publish')"
		}
		dir := " ASC"
		if c.Str("order") == "desc" {
			dir = " DESC"
		}
		var order string
		switch c.Str("orderby") {
		case "id", "term_group":
			order = "t.id" + dir
		case "include":
			order = "array_position(" + b.arg(c.Ints("include")) + "::bigint[], t.id)"
		case "include_slugs":
			order = "array_position(" + b.arg(c.Strs("slug")) + "::text[], t.slug)"
		case "slug":
			order = "t.slug" + dir
		case "description":
			order = "t.description" + dir
		case "count":
			order = "7" + dir
		default:
			order = "lower(t.name)" + dir
		}
		page, perPage := int(c.Int("page")), int(c.Int("per_page"))
		if page < 1 {
			page = 1
		}
		if perPage < 1 {
			perPage = 10
		}
		offset := (page - 1) * perPage
		if c.Has("offset") {
			offset = int(c.Int("offset"))
		}
		sql := "SELECT " + termColumns + ", count(*) OVER () FROM terms t WHERE " + where + " ORDER BY " + order +
			", t.id" + dir + " LIMIT " + b.arg(perPage) + " OFFSET " + b.arg(offset)
		rows, err := s.db(c.Ctx).Query(c.Ctx, sql, b.args...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		items := []any{}
		total := 0
		for rows.Next() {
			t, err := scanTerm(rows, &total)
			if err != nil {
				return nil, err
			}
			items = append(items, s.prepareTerm(tax, t, context))
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if len(items) == 0 && offset > 0 {
			if err := s.db(c.Ctx).QueryRow(c.Ctx, "SELECT count(*) FROM terms t WHERE "+where, b.args[:len(b.args)-2]...).Scan(&total); err != nil {
				return nil, err
			}
		}
		pages := int(math.Ceil(float64(total) / float64(perPage)))
		res := ok(items)
		res.Page = &Page{Total: total, Page: page, PerPage: perPage, Pages: pages}
		return res, nil
	}
}

func typeByName(name string) *PostType {
	for _, pt := range PostTypes {
		if pt.Name == name {
			return pt
		}
	}
	return nil
}

func hasTaxonomy(pt *PostType, tax *Taxonomy) bool {
	for _, t := range pt.Taxonomies {
		if t == tax {
			return true
		}
	}
	return false
}

func (s *Service) loadTerm(c *Call, q querier, tax *Taxonomy) (*Term, error) {
	id := c.Int("id")
	if id <= 0 {
		return nil, errTermInvalid
	}
	t, err := getTerm(c.Ctx, q, tax, id)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, errTermInvalid
	}
	return t, nil
}

// getTermItem is GET /cms/v2/{tax base}/{id}.
func (s *Service) getTermItem(tax *Taxonomy) HandlerFunc {
	return func(c *Call) (*Result, error) {
		t, err := s.cachedTerm(c, tax) // loaded by the permission check
		if err != nil {
			return nil, err
		}
		return ok(s.prepareTerm(tax, t, c.Str("context"))), nil
	}
}

// checkTermParent validates the parent argument.
func checkTermParent(c *Call, q querier, tax *Taxonomy) error {
	if !c.Has("parent") {
		return nil
	}
	if !tax.Hierarchical {
		return apiErr(http.StatusBadRequest, "rest_taxonomy_not_hierarchical", "Cannot set parent term, taxonomy is not hierarchical.")
	}
	if pid := c.Int("parent"); pid != 0 {
		p, err := getTerm(c.Ctx, q, tax, pid)
		if err != nil {
			return err
		}
		if p == nil {
			return apiErr(http.StatusBadRequest, "rest_term_invalid", "Parent term does not exist.")
		}
	}
	return nil
}

// uniqueTermSlug is wp_unique_term_slug: slug, slug-2, slug-3, …
func uniqueTermSlug(c *Call, q querier, tax *Taxonomy, slug string, id int64) (string, error) {
	rows, err := q.Query(c.Ctx, `SELECT slug FROM terms WHERE taxonomy = $1 AND id <> $2 AND (slug = $3 OR slug LIKE $4)`,
		tax.Name, id, slug, likeEscape(slug)+"-%")
	if err != nil {
		return "", err
	}
	taken, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return "", err
	}
	used := map[string]bool{}
	for _, t := range taken {
		used[t] = true
	}
	if !used[slug] {
		return slug, nil
	}
	for n := 2; ; n++ {
		if cand := slug + "-" + strconv.Itoa(n); !used[cand] {
			return cand, nil
		}
	}
}

// createTerm is POST /cms/v2/{tax base}.
func (s *Service) createTerm(tax *Taxonomy) HandlerFunc {
	return func(c *Call) (*Result, error) {
		var out *Term
		err := s.inTx(c.Ctx, func(tx pgx.Tx) error {
			if err := checkTermParent(c, tx, tax); err != nil {
				return err
			}
			name := strings.TrimSpace(c.Str("name"))
			if name == "" {
				return apiErr(http.StatusBadRequest, "empty_term_name", "A name is required for this term.")
			}
			parent := c.Int("parent")
			var existing int64
			err := tx.QueryRow(c.Ctx, `SELECT id FROM terms WHERE taxonomy = $1 AND lower(name) = lower($2)
				AND ($3 OR parent = $4) LIMIT 1`, tax.Name, name, !tax.Hierarchical, parent).Scan(&existing)
			if err == nil {
				msg := "A term with the name provided already exists in this taxonomy."
				if tax.Hierarchical {
					msg = "A term with the name provided already exists with this parent."
				}
				return &APIError{Status: http.StatusBadRequest, Code: "term_exists", Message: msg, Data: map[string]any{"term_id": existing}}
			} else if !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
			slug := sanitizeTitle(c.Str("slug"))
			if slug == "" {
				slug = sanitizeTitle(name)
			}
			if slug, err = uniqueTermSlug(c, tx, tax, slug, 0); err != nil {
				return err
			}
			var id int64
			if err := tx.QueryRow(c.Ctx, `INSERT INTO terms (taxonomy, name, slug, description, parent) VALUES ($1,$2,$3,$4,$5) RETURNING id`,
				tax.Name, name, slug, c.Str("description"), parent).Scan(&id); err != nil {
				return err
			}
			out, err = getTerm(c.Ctx, tx, tax, id)
			return err
		})
		if err != nil {
			return nil, err
		}
		res := &Result{Status: http.StatusCreated, Body: s.prepareTerm(tax, out, "edit"), Header: http.Header{}}
		res.Header.Set("Location", s.restRoot+"/cms/v2/"+tax.Base+"/"+strconv.FormatInt(out.ID, 10))
		return res, nil
	}
}

// updateTerm is POST/PUT/PATCH /cms/v2/{tax base}/{id}.
func (s *Service) updateTerm(tax *Taxonomy) HandlerFunc {
	return func(c *Call) (*Result, error) {
		var out *Term
		err := s.inTx(c.Ctx, func(tx pgx.Tx) error {
			t, err := s.loadTerm(c, tx, tax)
			if err != nil {
				return err
			}
			if !c.Who.Can(tax.EditCap) {
				return forbidden(c.Who, "rest_cannot_update", "Sorry, you are not allowed to edit this term.")
			}
			if err := checkTermParent(c, tx, tax); err != nil {
				return err
			}
			if c.Has("name") {
				t.Name = c.Str("name")
			}
			if c.Has("description") {
				t.Description = c.Str("description")
			}
			parentChanged := false
			if c.Has("parent") {
				parentChanged = c.Int("parent") != t.Parent
				t.Parent = c.Int("parent")
			}
			if c.Has("slug") {
				slug := sanitizeTitle(c.Str("slug"))
				emptySlug := slug == ""
				if emptySlug {
					slug = sanitizeTitle(t.Name)
				}
				unique, err := uniqueTermSlug(c, tx, tax, slug, t.ID)
				if err != nil {
					return err
				}
				if unique != slug && !emptySlug && !parentChanged {
					return apiErr(http.StatusBadRequest, "duplicate_term_slug", "The slug &#8220;"+slug+"&#8221; is already in use by another term.")
				}
				t.Slug = unique
			}
			if _, err := tx.Exec(c.Ctx, `UPDATE terms SET name=$2, slug=$3, description=$4, parent=$5 WHERE id=$1`,
				t.ID, t.Name, t.Slug, t.Description, t.Parent); err != nil {
				return err
			}
			out, err = getTerm(c.Ctx, tx, tax, t.ID)
			return err
		})
		if err != nil {
			return nil, err
		}
		return ok(s.prepareTerm(tax, out, "edit")), nil
	}
}

// deleteTerm is DELETE /cms/v2/{tax base}/{id}: terms are not trashable.
func (s *Service) deleteTerm(tax *Taxonomy) HandlerFunc {
	return func(c *Call) (*Result, error) {
		var body any
		err := s.inTx(c.Ctx, func(tx pgx.Tx) error {
			t, err := s.loadTerm(c, tx, tax)
			if err != nil {
				return err
			}
			if !c.Who.Can(tax.DeleteCap) {
				return forbidden(c.Who, "rest_cannot_delete", "Sorry, you are not allowed to delete this term.")
			}
			if !c.Bool("force") {
				return apiErr(http.StatusNotImplemented, "rest_trash_not_supported", "Terms do not support trashing. Set 'force=true' to delete.")
			}
			if tax == Category && t.ID == defaultCategoryID {
				// wp_delete_term refuses the default category
				return apiErr(http.StatusInternalServerError, "rest_cannot_delete", "The term cannot be deleted.")
			}
			previous := s.prepareTerm(tax, t, "view")
			// children move up to the deleted term's parent, as wp_delete_term does
			if _, err := tx.Exec(c.Ctx, `UPDATE terms SET parent = $2 WHERE parent = $1 AND taxonomy = $3`, t.ID, t.Parent, tax.Name); err != nil {
				return err
			}
			if _, err := tx.Exec(c.Ctx, `DELETE FROM terms WHERE id = $1`, t.ID); err != nil {
				return err
			}
			body = map[string]any{"deleted": true, "previous": previous}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return ok(body), nil
	}
}
