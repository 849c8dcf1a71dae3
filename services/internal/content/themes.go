package content

import (
	"net/http"
	"net/url"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/content/theme"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// themePattern matches a theme directory: "name" or "subdir/name", without
// the characters a directory name cannot hold.
const themePattern = `[^\/:<>\*\?"\|]+(?:\/[^\/:<>\*\?"\|]+)?`

// activeTheme is the theme the site renders with: the one SetTheme chose
// (theme_select.go), else the embedded Siteplane theme (its files are
// tested at build time, so loading cannot fail at run time short of a
// broken build).
func (s *Service) activeTheme() *theme.Theme {
	if s.theme != nil {
		return s.theme
	}
	t, err := theme.Builtin()
	if err != nil {
		panic("content: the embedded theme does not load: " + err.Error())
	}
	return t
}

// themeRoutes are /themes and /themes/{stylesheet}.
func (s *Service) themeRoutes() []rest.Route {
	sch := themeSchema()
	return []rest.Route{
		// the collection declares no context (WordPress's does not; a
		// context in the query still selects the fields)
		{Namespace: Namespace, Path: "/themes", Schema: sch, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Args: rest.Props{{Name: "status", Schema: &rest.Schema{Type: "array", Description: "Limit result set to themes assigned one or more statuses.",
				Items: &rest.Schema{Type: "string", Enum: strEnum("active", "inactive")}}}},
			Permission: listThemesPermission, Handler: s.listThemes}}},
		{Namespace: Namespace, Path: `/themes/(?P<stylesheet>` + themePattern + `)`, Schema: sch, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Args:       rest.Props{{Name: "stylesheet", Schema: &rest.Schema{Type: "string", Description: "The theme's stylesheet. This uniquely identifies the theme."}}},
			Permission: s.getThemePermission, Handler: s.getTheme}}},
	}
}

// canReadActiveTheme is WordPress's rule for the active theme (and its
// global styles): whoever may edit some content may see it.
func canReadActiveTheme(who identity.Identity) bool {
	return who.Can("edit_posts") || who.Can("edit_pages") || who.Can("edit_theme_options")
}

func canManageThemes(who identity.Identity) bool { return who.Can("switch_themes") }

func listThemesPermission(r *rest.Request) error {
	who := caller(r)
	if canManageThemes(who) {
		return nil
	}
	if st := r.Strings("status"); len(st) == 1 && st[0] == "active" {
		if canReadActiveTheme(who) {
			return nil
		}
		return rest.Denied(r, "rest_cannot_view_active_theme", "Sorry, you are not allowed to view the active theme.")
	}
	return rest.Denied(r, "rest_cannot_view_themes", "Sorry, you are not allowed to view themes.")
}

func (s *Service) getThemePermission(r *rest.Request) error {
	who := caller(r)
	if canManageThemes(who) {
		return nil
	}
	if stylesheetParam(r) == s.activeTheme().Stylesheet {
		if canReadActiveTheme(who) {
			return nil
		}
		return rest.Denied(r, "rest_cannot_view_active_theme", "Sorry, you are not allowed to view the active theme.")
	}
	return rest.Denied(r, "rest_cannot_view_themes", "Sorry, you are not allowed to view themes.")
}

// stylesheetParam is the url-decoded stylesheet of the URL.
func stylesheetParam(r *rest.Request) string {
	v := r.String("stylesheet")
	if d, err := url.PathUnescape(v); err == nil {
		return d
	}
	return v
}

func (s *Service) listThemes(r *rest.Request) (*rest.Response, error) {
	items := []any{}
	// Only the active theme is installed; "inactive" lists nothing.
	if st := r.Strings("status"); len(st) == 0 || contains(st, "active") {
		it, err := s.themeItem(r, s.activeTheme())
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	resp := rest.OK(items)
	resp.Header = http.Header{"X-Wp-Total": {store.Itoa(int64(len(items)))}, "X-Wp-Totalpages": {"1"}}
	return resp, nil
}

func (s *Service) getTheme(r *rest.Request) (*rest.Response, error) {
	th := s.activeTheme()
	if stylesheetParam(r) != th.Stylesheet {
		return nil, rest.NewError("rest_theme_not_found", "Theme not found.", http.StatusNotFound)
	}
	it, err := s.themeItem(r, th)
	if err != nil {
		return nil, err
	}
	return rest.OK(it), nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func rawRendered(v string) rest.Object {
	return rest.Object{{Key: "raw", Value: v}, {Key: "rendered", Value: v}}
}

// themeItem is the theme as the themes controller shows it; the active
// theme's user-global-styles link names the global styles post, created on
// first use.
func (s *Service) themeItem(r *rest.Request, th *theme.Theme) (rest.Item, error) {
	gsID, err := s.userGlobalStylesID(r.Context(), th.Stylesheet)
	if err != nil {
		return rest.Item{}, err
	}
	tags := make([]any, len(th.Tags))
	for i, t := range th.Tags {
		tags[i] = t
	}
	data := rest.Object{
		{Key: "stylesheet", Value: th.Stylesheet},
		{Key: "template", Value: th.Stylesheet},
		{Key: "requires_php", Value: th.RequiresPHP},
		{Key: "requires_wp", Value: th.RequiresWP},
		{Key: "textdomain", Value: th.TextDomain},
		{Key: "version", Value: th.Version},
		{Key: "screenshot", Value: ""},
		{Key: "author", Value: rest.Object{{Key: "raw", Value: th.Author}, {Key: "rendered", Value: authorHTML(th)}}},
		{Key: "author_uri", Value: rawRendered(th.AuthorURI)},
		{Key: "description", Value: rawRendered(th.Description)},
		{Key: "name", Value: rawRendered(th.Name)},
		{Key: "tags", Value: rest.Object{{Key: "raw", Value: tags}, {Key: "rendered", Value: joinComma(th.Tags)}}},
		{Key: "theme_uri", Value: rawRendered(th.ThemeURI)},
		{Key: "status", Value: "active"},
		{Key: "theme_supports", Value: themeSupports()},
		{Key: "is_block_theme", Value: true},
		// the theme's directory URL, where WordPress serves its files;
		// Siteplane's theme is built in (the keys are kept for clients)
		{Key: "stylesheet_uri", Value: s.themeURI(th)},
		{Key: "template_uri", Value: s.themeURI(th)},
		{Key: "default_template_types", Value: templateTypesValue()},
		{Key: "default_template_part_areas", Value: templatePartAreasValue()},
	}
	base := s.restRoot + "/" + Namespace + "/themes"
	links := rest.Links{
		{Rel: "self", Href: base + "/" + th.Stylesheet},
		{Rel: "collection", Href: base},
		{Rel: rest.APIRelPrefix + "user-global-styles", Href: s.restRoot + "/" + Namespace + "/global-styles/" + store.Itoa(gsID)},
	}
	return rest.Item{Data: data, Links: links}, nil
}

// themeURI is get_stylesheet_directory_uri's answer for th.
func (s *Service) themeURI(th *theme.Theme) string {
	return s.permalinks.SiteURL + "/cms-content/themes/" + th.Stylesheet
}

func authorHTML(th *theme.Theme) string {
	if th.AuthorURI == "" {
		return th.Author
	}
	return `<a href="` + th.AuthorURI + `">` + th.Author + `</a>`
}

func joinComma(list []string) string {
	out := ""
	for i, s := range list {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}

func themeSchema() *rest.Schema {
	rr := func() *rest.Schema {
		return &rest.Schema{Type: "object", Readonly: true, Properties: rest.Props{
			{Name: "raw", Schema: &rest.Schema{Type: "string"}}, {Name: "rendered", Schema: &rest.Schema{Type: "string"}}}}
	}
	str := func() *rest.Schema { return &rest.Schema{Type: "string", Readonly: true} }
	return &rest.Schema{SchemaURI: "http://json-schema.org/draft-04/schema#", Title: "theme", Type: "object", Properties: rest.Props{
		{Name: "stylesheet", Schema: str()},
		{Name: "template", Schema: str()},
		{Name: "author", Schema: rr()},
		{Name: "author_uri", Schema: rr()},
		{Name: "description", Schema: rr()},
		{Name: "is_block_theme", Schema: &rest.Schema{Type: "boolean", Readonly: true}},
		{Name: "name", Schema: rr()},
		{Name: "requires_php", Schema: str()},
		{Name: "requires_wp", Schema: str()},
		{Name: "screenshot", Schema: &rest.Schema{Type: "string", Format: "uri", Readonly: true}},
		{Name: "tags", Schema: &rest.Schema{Type: "object", Readonly: true, Properties: rest.Props{
			{Name: "raw", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string"}}}, {Name: "rendered", Schema: &rest.Schema{Type: "string"}}}}},
		{Name: "textdomain", Schema: str()},
		{Name: "theme_supports", Schema: &rest.Schema{Type: "object", Readonly: true}},
		{Name: "theme_uri", Schema: rr()},
		{Name: "version", Schema: str()},
		{Name: "status", Schema: &rest.Schema{Type: "string", Enum: strEnum("inactive", "active")}},
		{Name: "stylesheet_uri", Schema: &rest.Schema{Description: "The uri for the theme's stylesheet directory.", Type: "string", Format: "uri", Readonly: true}},
		{Name: "template_uri", Schema: &rest.Schema{Description: "The uri for the theme's template directory. If this is a child theme, this refers to the parent theme, otherwise this is the same as the theme's stylesheet directory.", Type: "string", Format: "uri", Readonly: true}},
		{Name: "default_template_types", Schema: &rest.Schema{Description: "A list of default template types.", Type: "array", Readonly: true, Items: &rest.Schema{Type: "object", Properties: rest.Props{
			{Name: "slug", Schema: &rest.Schema{Type: "string"}}, {Name: "title", Schema: &rest.Schema{Type: "string"}}, {Name: "description", Schema: &rest.Schema{Type: "string"}}}}}},
		{Name: "default_template_part_areas", Schema: &rest.Schema{Description: "A list of allowed area values for template parts.", Type: "array", Readonly: true, Items: &rest.Schema{Type: "object", Properties: rest.Props{
			{Name: "area", Schema: &rest.Schema{Type: "string"}}, {Name: "label", Schema: &rest.Schema{Type: "string"}}, {Name: "description", Schema: &rest.Schema{Type: "string"}},
			{Name: "icon", Schema: &rest.Schema{Type: "string"}}, {Name: "area_tag", Schema: &rest.Schema{Type: "string"}}}}}},
	}}
}
