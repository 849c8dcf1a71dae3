package content

import (
	"net/http"

	"siteplane.dev/services/internal/platform/rest"
)

// The font library's routes (WordPress 6.5+): font-collections,
// font-families and their font-faces, which the site editor's Styles →
// Typography reads and writes. Siteplane registers no font collection
// (WordPress registers Google Fonts, whose list it fetches from
// wordpress.org): the collections are an empty list. Installed fonts are
// stored as WordPress stores them, posts of type wp_font_family (the
// family's name in the title, its slug as the slug, fontFamily and preview
// as JSON content) and wp_font_face (the face's settings as JSON content,
// the family as parent); fonts_store.go has their SQL, fonts_write.go the
// writes, fonts_files.go the uploaded font files. The arguments below are
// the controllers' (OPTIONS and the index), as WordPress 6.9 declares them.

const (
	fontFamilyType = "wp_font_family"
	fontFaceType   = "wp_font_face"
	// fontThemeJSONVersion is LATEST_THEME_JSON_VERSION_SUPPORTED: every
	// answer names it, whatever the request sent.
	fontThemeJSONVersion = 3
)

func fontSchema(title string, fields ...[3]string) *rest.Schema {
	return readonlyItemSchema(title, []string{"view", "edit", "embed"}, fields...)
}

func (s *Service) fontRoutes() []rest.Route {
	collection := fontSchema("font-collection",
		[3]string{"slug", "Unique identifier for the font collection.", "string"},
		[3]string{"name", "The name for the font collection.", "string"},
		[3]string{"description", "The description for the font collection.", "string"},
		[3]string{"font_families", "The font families for the font collection.", "array"},
		[3]string{"categories", "The categories for the font collection.", "array"})
	family := fontSchema(fontFamilyType,
		[3]string{"id", "Unique identifier for the post.", "integer"},
		[3]string{"theme_json_version", "Version of the theme.json schema used for the typography settings.", "integer"},
		[3]string{"font_faces", "The IDs of the child font faces in the font family.", "array"},
		[3]string{"font_family_settings", "font-face definition in theme.json format.", "object"})
	face := fontSchema(fontFaceType,
		[3]string{"id", "Unique identifier for the post.", "integer"},
		[3]string{"theme_json_version", "Version of the theme.json schema used for the typography settings.", "integer"},
		[3]string{"parent", "The ID for the parent font family of the font face.", "integer"},
		[3]string{"font_face_settings", "font-face declaration in theme.json format.", "object"})
	collectionsMsg := "Sorry, you are not allowed to access font collections."
	return []rest.Route{
		{Namespace: Namespace, Path: "/font-collections", Schema: collection, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Args: fontPageArgs(), Permission: fontReadPermission(collectionsMsg), Handler: emptyPage}}},
		{Namespace: Namespace, Path: `/font-collections/(?P<slug>[\/\w-]+)`, Schema: collection, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Args: rest.Props{contextArg()}, Permission: fontReadPermission(collectionsMsg),
			Handler: func(*rest.Request) (*rest.Response, error) {
				return nil, rest.NewError("rest_font_collection_not_found", "Font collection not found.", http.StatusNotFound)
			}}}},
		{Namespace: Namespace, Path: "/font-families", Schema: family, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: fontListArgs(true), Permission: fontReadPermission("Sorry, you are not allowed to access font families."), Handler: s.listFontFamilies},
			{Methods: rest.Creatable, Args: s.fontFamilyWriteArgs(nil), MaxBody: maxSmallBody, Permission: fontCreatePermission, Handler: s.createFontFamily},
		}},
		{Namespace: Namespace, Path: `/font-families/(?P<id>[\d]+)`, Schema: family, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{fontIDArg("Unique identifier for the post.", false), contextArg()},
				Permission: s.fontItemPermission(fontFamilyType, "rest_cannot_read", "Sorry, you are not allowed to access this font family."), Handler: s.getFontFamily},
			{Methods: rest.Editable, Args: s.fontFamilyWriteArgs(rest.Props{fontIDArg("Unique identifier for the post.", false)}), MaxBody: maxSmallBody,
				Permission: s.fontItemPermission(fontFamilyType, "rest_cannot_edit", "Sorry, you are not allowed to edit this post."), Handler: s.updateFontFamily},
			{Methods: rest.Deletable, Args: rest.Props{fontIDArg("Unique identifier for the post.", false), fontForceArg()},
				Permission: s.fontItemPermission(fontFamilyType, "rest_cannot_delete", "Sorry, you are not allowed to delete this post."), Handler: s.deleteFontFamily},
		}},
		{Namespace: Namespace, Path: `/font-families/(?P<font_family_id>[\d]+)/font-faces`, Schema: face, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: append(rest.Props{fontFamilyIDArg()}, fontListArgs(false)...),
				Permission: fontReadPermission("Sorry, you are not allowed to access font faces."), Handler: s.listFontFaces},
			{Methods: rest.Creatable, Args: s.fontFaceCreateArgs(), MaxBody: maxFontUpload,
				Permission: fontCreatePermission, Handler: s.createFontFace},
		}},
		{Namespace: Namespace, Path: `/font-families/(?P<font_family_id>[\d]+)/font-faces/(?P<id>[\d]+)`, Schema: face, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{fontFamilyIDArg(), fontIDArg("Unique identifier for the font face.", true), contextArg()},
				Permission: s.fontItemPermission(fontFaceType, "rest_cannot_read", "Sorry, you are not allowed to access this font face."), Handler: s.getFontFace},
			{Methods: rest.Deletable, Args: rest.Props{fontFamilyIDArg(), fontIDArg("Unique identifier for the font face.", true), fontForceArg()},
				Permission: s.fontItemPermission(fontFaceType, "rest_cannot_delete", "Sorry, you are not allowed to delete this post."), Handler: s.deleteFontFace},
		}},
	}
}

// fontPageArgs are the font collections' get_collection_params: context,
// page and per_page (no search).
func fontPageArgs() rest.Props {
	args := rest.CollectionArgs(&rest.Schema{})[:3]
	args[0] = contextArg()
	return args
}

// fontListArgs are the posts controller's collection parameters less the
// ones the font controllers unset (dates, search, status; slug too for
// faces), with orderby id or include.
func fontListArgs(slug bool) rest.Props {
	args := append(fontPageArgs(),
		rest.Prop{Name: "exclude", Schema: &rest.Schema{Description: "Ensure result set excludes specific IDs.", Type: "array", Items: &rest.Schema{Type: "integer"}, Default: []any{}}},
		rest.Prop{Name: "include", Schema: &rest.Schema{Description: "Limit result set to specific IDs.", Type: "array", Items: &rest.Schema{Type: "integer"}, Default: []any{}}},
		rest.Prop{Name: "search_semantics", Schema: &rest.Schema{Description: "How to interpret the search input.", Type: "string", Enum: strEnum("exact")}},
		rest.Prop{Name: "offset", Schema: &rest.Schema{Description: "Offset the result set by a specific number of items.", Type: "integer"}},
		rest.Prop{Name: "order", Schema: &rest.Schema{Description: "Order sort attribute ascending or descending.", Type: "string", Default: "desc", Enum: strEnum("asc", "desc")}},
		rest.Prop{Name: "orderby", Schema: &rest.Schema{Description: "Sort collection by post attribute.", Type: "string", Default: "id", Enum: strEnum("id", "include")}})
	if slug {
		args = append(args, rest.Prop{Name: "slug", Schema: &rest.Schema{Description: "Limit result set to posts with one or more specific slugs.", Type: "array", Items: &rest.Schema{Type: "string"}}})
	}
	return args
}

func fontIDArg(desc string, required bool) rest.Prop {
	return rest.Prop{Name: "id", Schema: &rest.Schema{Description: desc, Type: "integer", Required: required}}
}

// fontFamilyIDArg is the font-faces routes' route-level argument, which
// WordPress repeats in each of their endpoints.
func fontFamilyIDArg() rest.Prop {
	return rest.Prop{Name: "font_family_id", Schema: &rest.Schema{Description: "The ID for the parent font family of the font face.", Type: "integer", Required: true}}
}

func fontForceArg() rest.Prop {
	return rest.Prop{Name: "force", Schema: &rest.Schema{Type: "boolean", Default: false, Description: "Whether to bypass Trash and force deletion."}}
}

func fontThemeJSONArg() rest.Prop {
	return rest.Prop{Name: "theme_json_version", Schema: &rest.Schema{Description: "Version of the theme.json schema used for the typography settings.",
		Type: "integer", Default: fontThemeJSONVersion, Minimum: rest.Ptr(2.0), Maximum: rest.Ptr(float64(fontThemeJSONVersion))}}
}

// fontReadPermission is the font post types' read capability
// (edit_theme_options); 401 for nobody signed in, else 403.
func fontReadPermission(msg string) rest.PermissionFunc {
	return func(r *rest.Request) error {
		if !caller(r).Can("edit_theme_options") {
			return rest.Denied(r, "rest_cannot_read", msg)
		}
		return nil
	}
}

// fontCreatePermission is the posts controller's create check: the type's
// create_posts capability (edit_theme_options for both font types).
func fontCreatePermission(r *rest.Request) error {
	if r.Has("id") {
		return rest.NewError("rest_post_exists", "Cannot create existing post.", http.StatusBadRequest)
	}
	if !caller(r).Can("edit_theme_options") {
		return rest.Denied(r, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user.")
	}
	return nil
}

// fontItemPermission is get_post (WordPress's "Invalid post ID." for an id
// that names no post of the type, before any capability) and then the
// meta capability, which for both font types is edit_theme_options.
func (s *Service) fontItemPermission(typ, code, msg string) rest.PermissionFunc {
	return func(r *rest.Request) error {
		p, err := s.fontPost(r, typ, r.Int("id"))
		if err != nil {
			return err
		}
		if p == nil {
			return errInvalidPostID()
		}
		if !caller(r).Can("edit_theme_options") {
			return rest.Denied(r, code, msg)
		}
		return nil
	}
}
