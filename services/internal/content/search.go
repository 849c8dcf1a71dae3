package content

import (
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// GET /cms/v2/search (WP_REST_Search_Controller): published posts and pages
// (type=post), public terms (type=term) or post formats (type=post-format)
// matching a search, as {id, title, url, type, subtype} with embeddable self
// links (the gateway's _embed follows them), about and collection links.
//
// WordPress's post-format handler lists only the formats whose post_format
// term has an archive (get_post_format_link); the website serves no
// post-format archives, so that search answers [] with a total of 0, as a
// WordPress site does before any format term exists.

// searchPostTypes and searchTaxonomies are what the post and term search
// handlers cover: public types and taxonomies.
var (
	searchPostTypes  = []*store.PostType{store.TypePost, store.TypePage}
	searchTaxonomies = []*store.Taxonomy{store.Category, store.Tag}
)

func searchRoutes(s *Service) []rest.Route {
	subtypes := []string{"any"}
	for _, pt := range searchPostTypes {
		subtypes = append(subtypes, pt.Name)
	}
	for _, tax := range searchTaxonomies {
		subtypes = append(subtypes, tax.Name)
	}
	args := rest.Props{
		{Name: "context", Schema: &rest.Schema{Type: "string", Enum: strEnum("view", "embed"), Default: "view",
			Description: "Scope under which the request is made; determines fields present in response."}},
		{Name: "page", Schema: &rest.Schema{Type: "integer", Default: 1, Minimum: rest.Ptr(1.0)}},
		{Name: "per_page", Schema: &rest.Schema{Type: "integer", Default: 10, Minimum: rest.Ptr(1.0), Maximum: rest.Ptr(100.0)}},
		{Name: "search", Schema: &rest.Schema{Type: "string"}},
		{Name: "type", Schema: &rest.Schema{Type: "string", Enum: strEnum("post", "term", "post-format"), Default: "post"}},
		{Name: "subtype", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string", Enum: strEnum(subtypes...)}, Default: "any"}},
		{Name: "exclude", Schema: intArray()},
		{Name: "include", Schema: intArray()},
	}
	schema := &rest.Schema{Title: "search-result", Type: "object", Properties: rest.Props{
		{Name: "id", Schema: &rest.Schema{Types: []string{"integer", "string"}, Context: []string{"view", "embed"}, Readonly: true}},
		{Name: "title", Schema: &rest.Schema{Type: "string", Context: []string{"view", "embed"}, Readonly: true}},
		{Name: "url", Schema: &rest.Schema{Type: "string", Format: "uri", Context: []string{"view", "embed"}, Readonly: true}},
		{Name: "type", Schema: &rest.Schema{Type: "string", Enum: strEnum("post", "term", "post-format"), Context: []string{"view", "embed"}, Readonly: true}},
		{Name: "subtype", Schema: &rest.Schema{Type: "string", Enum: strEnum(subtypes[1:]...), Context: []string{"view", "embed"}, Readonly: true}},
	}}
	return []rest.Route{{Namespace: Namespace, Path: "/search", Schema: schema, Endpoints: []rest.Endpoint{
		{Methods: rest.Readable, Args: args, Handler: s.search},
	}}}
}

// searchHit is one result before rendering.
type searchHit struct {
	id                         int64
	title, url, kind, sub, obj string // obj: the REST route of the object
	about                      string
}

func (s *Service) search(c *rest.Request) (*rest.Response, error) {
	page, perPage := int(c.Int("page")), int(c.Int("per_page"))
	if page < 1 {
		page = 1
	}
	if perPage < 1 {
		perPage = 10
	}
	subs := c.Strings("subtype")
	if v, ok := c.Param("subtype").(string); ok {
		subs = []string{v}
	}
	anySub := len(subs) == 0 || slices.Contains(subs, "any")
	var hits []searchHit
	var total int
	var err error
	switch c.String("type") {
	case "post-format":
	case "term":
		var taxes []string
		for _, tax := range searchTaxonomies {
			if anySub || slices.Contains(subs, tax.Name) {
				taxes = append(taxes, tax.Name)
			}
		}
		hits, total, err = s.searchTerms(c, taxes, page, perPage)
	default:
		var types []string
		for _, pt := range searchPostTypes {
			if anySub || slices.Contains(subs, pt.Name) {
				types = append(types, pt.Name)
			}
		}
		hits, total, err = s.searchPosts(c, types, page, perPage)
	}
	if err != nil {
		return nil, err
	}
	if pages := (total + perPage - 1) / perPage; page > pages && total > 0 {
		return nil, rest.NewError("rest_search_invalid_page_number", "The page number requested is larger than the number of pages available.", http.StatusBadRequest)
	}
	collection := []any{href(s.restRoot + "/cms/v2/search")}
	items := make([]any, 0, len(hits))
	for _, h := range hits {
		o := rest.Object{{Key: "id", Value: h.id}, {Key: "title", Value: h.title}, {Key: "url", Value: h.url},
			{Key: "type", Value: h.kind}, {Key: "subtype", Value: h.sub}}
		// every context: WordPress's controller adds collection to the
		// handler's self and about links (prepare_item_for_response)
		links := rest.Object{{Key: "self", Value: []any{href(h.obj, "embeddable", true)}},
			{Key: "about", Value: []any{href(h.about)}}, {Key: "collection", Value: collection}}
		items = append(items, append(o, rest.Member{Key: "_links", Value: links}))
	}
	res := rest.OK(items)
	rest.PaginateUnclamped(c, res, int64(total), page, perPage)
	return res, nil
}

// searchPosts finds published posts of types: the search words in title,
// excerpt or content, by relevance then date (WP_Query's search order).
func (s *Service) searchPosts(c *rest.Request, types []string, page, perPage int) ([]searchHit, int, error) {
	if len(types) == 0 {
		return nil, 0, nil
	}
	ctx := c.Context()
	ids, total, err := store.SearchPostIDs(ctx, s.db(ctx), store.SearchQuery{Types: types, Search: strings.TrimSpace(c.String("search")),
		ExcludeProtected: !caller(c).LoggedIn(), Include: c.Ints("include"), Exclude: c.Ints("exclude"), Page: page, PerPage: perPage})
	if err != nil || len(ids) == 0 {
		// WP_Query leaves found_posts at 0 for an empty page, so a page
		// past the end answers 200 [] with a total of 0 (terms count apart
		// and answer rest_search_invalid_page_number). Past PHP's integers
		// the offset wraps to a page that has posts, so the total stays
		// and the page check refuses it, as the peer does.
		if page-1 <= math.MaxInt64/perPage {
			total = 0
		}
		return nil, total, err
	}
	objs, err := store.LoadMenuObjects(ctx, s.db(ctx), postRefs(ids))
	if err != nil {
		return nil, 0, err
	}
	hits := make([]searchHit, 0, len(ids))
	for _, id := range ids {
		p := objs.Posts[id]
		pt := store.TypeByName(p.Type)
		hits = append(hits, searchHit{id: p.ID, title: p.Title, url: s.permalinks.Post(pt, p), kind: "post", sub: p.Type,
			obj: s.permalinks.PostREST(pt, p.ID), about: s.restRoot + "/cms/v2/types/" + p.Type})
	}
	return hits, total, nil
}

// searchTerms finds terms of taxes whose name or slug contains the search.
func (s *Service) searchTerms(c *rest.Request, taxes []string, page, perPage int) ([]searchHit, int, error) {
	if len(taxes) == 0 {
		return nil, 0, nil
	}
	ctx := c.Context()
	ids, total, err := store.SearchTermIDs(ctx, s.db(ctx), store.SearchQuery{Taxonomies: taxes, Search: strings.TrimSpace(c.String("search")),
		Include: c.Ints("include"), Exclude: c.Ints("exclude"), Page: page, PerPage: perPage})
	if err != nil || len(ids) == 0 {
		return nil, total, err
	}
	refs := make([]*store.MenuItem, len(ids))
	for i, id := range ids {
		refs[i] = &store.MenuItem{ItemType: "taxonomy", ObjectID: id}
	}
	objs, err := store.LoadMenuObjects(ctx, s.db(ctx), refs)
	if err != nil {
		return nil, 0, err
	}
	hits := make([]searchHit, 0, len(ids))
	for _, id := range ids {
		t := objs.Terms[id]
		tax := store.Category
		if t.Taxonomy == store.Tag.Name {
			tax = store.Tag
		}
		hits = append(hits, searchHit{id: t.ID, title: t.Name, url: s.permalinks.Term(tax, t), kind: "term", sub: t.Taxonomy,
			obj: s.restRoot + "/cms/v2/" + tax.Base + "/" + strconv.FormatInt(t.ID, 10), about: s.restRoot + "/cms/v2/taxonomies/" + t.Taxonomy})
	}
	return hits, total, nil
}

// postRefs wraps post ids as post_type references for loadMenuObjects.
func postRefs(ids []int64) []*store.MenuItem {
	refs := make([]*store.MenuItem, len(ids))
	for i, id := range ids {
		refs[i] = &store.MenuItem{ItemType: "post_type", ObjectID: id}
	}
	return refs
}
