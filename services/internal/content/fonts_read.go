package content

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// The font library's reads: the collections of families and faces, one
// family or face, and their answers as the controllers prepare them.

// fontFaceKeys are the font_face_settings properties of the schema: a
// stored face shows only these (get_settings_from_post).
var fontFaceKeys = []string{"fontFamily", "fontStyle", "fontWeight", "fontDisplay", "src", "fontStretch", "ascentOverride",
	"descentOverride", "fontVariant", "fontFeatureSettings", "fontVariationSettings", "lineGapOverride", "sizeAdjust",
	"unicodeRange", "preview"}

// fontListQuery reads a collection request; orderby=include needs an
// include list, as for posts.
func fontListQuery(c *rest.Request, typ string) (fontQuery, error) {
	fq := fontQuery{typ: typ, page: max(int(c.Int("page")), 1), perPage: int(c.Int("per_page")), include: c.Ints("include"),
		exclude: c.Ints("exclude"), slugs: c.Strings("slug"), desc: c.String("order") != "asc", byInclude: c.String("orderby") == "include"}
	if fq.perPage < 1 {
		fq.perPage = 10
	}
	if c.Has("offset") {
		o := int(c.Int("offset"))
		fq.offset = &o
	}
	if fq.byInclude && len(fq.include) == 0 {
		return fq, rest.NewError("rest_orderby_include_missing_include", "You need to define an include parameter to order by include.", http.StatusBadRequest)
	}
	return fq, nil
}

// fontPage answers one page of a font collection with the posts
// controller's headers, and its 400 past the last page of a non-empty one.
func (s *Service) fontPage(c *rest.Request, typ string, prepare func(*fontPost) (rest.Item, error)) (*rest.Response, error) {
	fq, err := fontListQuery(c, typ)
	if err != nil {
		return nil, err
	}
	posts, total, err := listFontPosts(c.Context(), s.db(c.Context()), fq)
	if err != nil {
		return nil, err
	}
	if pages := (total + int64(fq.perPage) - 1) / int64(fq.perPage); int64(fq.page) > pages && total > 0 {
		return nil, rest.NewError("rest_post_invalid_page_number", "The page number requested is larger than the number of pages available.", http.StatusBadRequest)
	}
	items := make([]rest.Item, 0, len(posts))
	for _, p := range posts {
		it, err := prepare(p)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	res := rest.OK(items)
	rest.Paginate(c, res, total, fq.page, fq.perPage)
	return res, nil
}

func (s *Service) listFontFamilies(c *rest.Request) (*rest.Response, error) {
	return s.fontPage(c, fontFamilyType, func(p *fontPost) (rest.Item, error) { return s.fontFamilyItem(c, s.db(c.Context()), p) })
}

func (s *Service) getFontFamily(c *rest.Request) (*rest.Response, error) {
	p, err := s.fontPost(c, fontFamilyType, c.Int("id"))
	if err != nil || p == nil {
		return nil, orInvalidID(err)
	}
	it, err := s.fontFamilyItem(c, s.db(c.Context()), p)
	if err != nil {
		return nil, err
	}
	return rest.OK(it), nil
}

// listFontFaces lists every font face once the family exists: WordPress's
// controller does not map font_family_id to a parent filter, so the
// collection holds the faces of all families (the site editor reads a
// family's faces through its font_faces links).
func (s *Service) listFontFaces(c *rest.Request) (*rest.Response, error) {
	if _, err := s.fontParent(c); err != nil {
		return nil, err
	}
	return s.fontPage(c, fontFaceType, func(p *fontPost) (rest.Item, error) { return s.fontFaceItem(p), nil })
}

func (s *Service) getFontFace(c *rest.Request) (*rest.Response, error) {
	p, err := s.fontFaceOf(c)
	if err != nil {
		return nil, err
	}
	return rest.OK(s.fontFaceItem(p)), nil
}

// fontParent is get_parent_font_family_post: the family the route names,
// or WordPress's 404.
func (s *Service) fontParent(c *rest.Request) (*fontPost, error) {
	p, err := s.fontPost(c, fontFamilyType, c.Int("font_family_id"))
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, rest.NewError("rest_post_invalid_parent", "Invalid post parent ID.", http.StatusNotFound)
	}
	return p, nil
}

// fontFaceOf is the face the route names, checked in WordPress's order:
// the face, its family, then that the face belongs to the family.
func (s *Service) fontFaceOf(c *rest.Request) (*fontPost, error) {
	p, err := s.fontPost(c, fontFaceType, c.Int("id"))
	if err != nil || p == nil {
		return nil, orInvalidID(err)
	}
	family, err := s.fontParent(c)
	if err != nil {
		return nil, err
	}
	if family.ID != p.Parent {
		return nil, rest.NewError("rest_font_face_parent_id_mismatch",
			`The font face does not belong to the specified font family with id of "`+strconv.FormatInt(family.ID, 10)+`".`, http.StatusNotFound)
	}
	return p, nil
}

func orInvalidID(err error) error {
	if err != nil {
		return err
	}
	return errInvalidPostID()
}

func (s *Service) fontBase() string { return s.restRoot + "/" + Namespace + "/font-families" }

// fontFamilySettings is get_settings_from_post: name and slug from the
// post, fontFamily and preview from its JSON content, "" when missing.
func fontFamilySettings(p *fontPost) rest.Object {
	var stored struct {
		FontFamily any `json:"fontFamily"`
		Preview    any `json:"preview"`
	}
	_ = json.Unmarshal([]byte(p.Content), &stored) // unreadable content shows as empty settings, as in WordPress
	str := func(v any) string { s, _ := v.(string); return s }
	return rest.Object{{Key: "name", Value: p.Title}, {Key: "slug", Value: p.Slug},
		{Key: "fontFamily", Value: str(stored.FontFamily)}, {Key: "preview", Value: str(stored.Preview)}}
}

func (s *Service) fontFamilyItem(c *rest.Request, q store.Querier, p *fontPost) (rest.Item, error) {
	faces, err := fontFaceIDs(c.Context(), q, p.ID)
	if err != nil {
		return rest.Item{}, err
	}
	ids := make([]any, len(faces))
	self := s.fontBase() + "/" + strconv.FormatInt(p.ID, 10)
	links := rest.Links{{Rel: "self", Href: self}, {Rel: "collection", Href: s.fontBase()}}
	for i, id := range faces {
		ids[i] = id
		links = append(links, rest.EmbeddableLink("font_faces", self+"/font-faces/"+strconv.FormatInt(id, 10)))
	}
	return rest.Item{Data: rest.Object{{Key: "id", Value: p.ID}, {Key: "theme_json_version", Value: fontThemeJSONVersion},
		{Key: "font_faces", Value: ids}, {Key: "font_family_settings", Value: fontFamilySettings(p)}}, Links: links}, nil
}

// fontFaceSettings is the stored settings object, in the order it was
// stored, with only the schema's properties; unreadable content is
// WordPress's {"fontFamily": "", "src": []}.
func fontFaceSettings(content string) rest.Object {
	dec := json.NewDecoder(bytes.NewReader([]byte(content)))
	out := rest.Object{}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return rest.Object{{Key: "fontFamily", Value: ""}, {Key: "src", Value: []any{}}}
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			break
		}
		if k, _ := t.(string); slices.Contains(fontFaceKeys, k) {
			out = append(out, rest.Member{Key: k, Value: v})
		}
	}
	return out
}

func (s *Service) fontFaceItem(p *fontPost) rest.Item {
	family := s.fontBase() + "/" + strconv.FormatInt(p.Parent, 10)
	return rest.Item{Data: rest.Object{{Key: "id", Value: p.ID}, {Key: "theme_json_version", Value: fontThemeJSONVersion},
		{Key: "parent", Value: p.Parent}, {Key: "font_face_settings", Value: fontFaceSettings(p.Content)}},
		Links: rest.Links{{Rel: "self", Href: family + "/font-faces/" + strconv.FormatInt(p.ID, 10)},
			{Rel: "collection", Href: family + "/font-faces"}, {Rel: "parent", Href: family}}}
}
