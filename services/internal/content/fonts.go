package content

import (
	"net/http"

	"siteplane.dev/services/internal/platform/rest"
)

// The font library's routes (WordPress 6.5+): font-collections,
// font-families and their font-faces, which the site editor's Styles →
// Typography asks for. Siteplane registers no font collection (WordPress
// registers Google Fonts, whose list it fetches from wordpress.org) and
// has no installed fonts: the theme's fonts come from its theme.json, as
// in WordPress. So the collections and the families are empty lists with
// WordPress's headers, a named one is WordPress's 404, and reading needs
// edit_theme_options (the font post types' read capability).

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
	family := fontSchema("wp_font_family",
		[3]string{"id", "Unique identifier for the post.", "integer"},
		[3]string{"theme_json_version", "Version of the theme.json schema used for the typography settings.", "integer"},
		[3]string{"font_faces", "The IDs of the child font faces in the font family.", "array"},
		[3]string{"font_family_settings", "font-family declaration in theme.json format, encoded as a string.", "object"})
	face := fontSchema("wp_font_face",
		[3]string{"id", "Unique identifier for the post.", "integer"},
		[3]string{"theme_json_version", "Version of the theme.json schema used for the typography settings.", "integer"},
		[3]string{"parent", "The ID for the parent font family of the font face.", "integer"},
		[3]string{"font_face_settings", "font-face declaration in theme.json format.", "object"})
	read := func(msg string, h rest.HandlerFunc) []rest.Endpoint {
		return []rest.Endpoint{{Methods: rest.Readable, Permission: fontReadPermission(msg), Handler: h}}
	}
	familyID := rest.Props{{Name: "id", Schema: &rest.Schema{Description: "Unique identifier for the post.", Type: "integer"}}}
	return []rest.Route{
		{Namespace: Namespace, Path: "/font-collections", Schema: collection, Endpoints: withArgs(read("Sorry, you are not allowed to access font collections.", emptyPage), rest.CollectionArgs(collection))},
		{Namespace: Namespace, Path: `/font-collections/(?P<slug>[\/\w-]+)`, Schema: collection, Endpoints: read("Sorry, you are not allowed to access font collections.",
			func(*rest.Request) (*rest.Response, error) {
				return nil, rest.NewError("rest_font_collection_not_found", "Font collection not found.", http.StatusNotFound)
			})},
		{Namespace: Namespace, Path: "/font-families", Schema: family, Endpoints: withArgs(read("Sorry, you are not allowed to access font families.", emptyPage), rest.CollectionArgs(family))},
		// get_item_permissions_check looks the post up first: no font
		// family exists, so every id is WordPress's "Invalid post ID.".
		{Namespace: Namespace, Path: `/font-families/(?P<id>[\d]+)`, Schema: family, Endpoints: withArgs([]rest.Endpoint{{Methods: rest.Readable,
			Handler: func(*rest.Request) (*rest.Response, error) { return nil, errInvalidPostID() }}}, familyID)},
		{Namespace: Namespace, Path: `/font-families/(?P<font_family_id>[\d]+)/font-faces`, Schema: face, Endpoints: read("Sorry, you are not allowed to access font faces.", noFontFamily)},
		{Namespace: Namespace, Path: `/font-families/(?P<font_family_id>[\d]+)/font-faces/(?P<id>[\d]+)`, Schema: face, Endpoints: read("Sorry, you are not allowed to access this font face.", noFontFamily)},
	}
}

func withArgs(eps []rest.Endpoint, args rest.Props) []rest.Endpoint {
	for i := range eps {
		eps[i].Args = args
	}
	return eps
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

// noFontFamily is get_parent_font_family_post for an id that names no
// font family.
func noFontFamily(*rest.Request) (*rest.Response, error) {
	return nil, rest.NewError("rest_post_invalid_parent", "Invalid post parent ID.", http.StatusNotFound)
}
