package content

import (
	"net/http"

	"siteplane.dev/services/internal/content/blocktypes"
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/content/theme"
	"siteplane.dev/services/internal/platform/rest"
)

// Routes the block editor reads while it loads: block patterns and their
// categories (WordPress's core ones, then the active theme's), and the
// theme's menu locations.

// readonlyItemSchema is a draft-04 item schema of read-only fields, each
// {name, description, type}, shown in the contexts ctx.
func readonlyItemSchema(title string, ctx []string, fields ...[3]string) *rest.Schema {
	props := make(rest.Props, len(fields))
	for i, f := range fields {
		props[i] = rest.Prop{Name: f[0], Schema: &rest.Schema{Description: f[1], Type: f[2], Readonly: true, Context: ctx}}
	}
	return &rest.Schema{SchemaURI: "http://json-schema.org/draft-04/schema#", Title: title, Type: "object", Properties: props}
}

func (s *Service) editorRoutes() []rest.Route {
	patternSchema := readonlyItemSchema("block-pattern", ctxAll,
		[3]string{"name", "The pattern name.", "string"},
		[3]string{"title", "The pattern title, in human readable format.", "string"},
		[3]string{"content", "The pattern content.", "string"},
		[3]string{"description", "The pattern detailed description.", "string"},
		[3]string{"viewport_width", "The pattern viewport width for inserter preview.", "number"},
		[3]string{"inserter", "Determines whether the pattern is visible in inserter.", "boolean"},
		[3]string{"categories", "The pattern category slugs.", "array"},
		[3]string{"keywords", "The pattern keywords.", "array"},
		[3]string{"block_types", "Block types that the pattern is intended to be used with.", "array"},
		[3]string{"post_types", "An array of post types that the pattern is restricted to be used with.", "array"},
		[3]string{"template_types", "An array of template types where the pattern fits.", "array"},
		[3]string{"source", "Where the pattern comes from e.g. core", "string"})
	patternSchema.Properties[len(patternSchema.Properties)-1].Schema.Enum = strEnum("core", "plugin", "theme",
		"pattern-directory/core", "pattern-directory/theme", "pattern-directory/featured")
	categorySchema := readonlyItemSchema("block-pattern-category", ctxAll,
		[3]string{"name", "The category name.", "string"},
		[3]string{"label", "The category label, in human readable format.", "string"},
		[3]string{"description", "The category description, in human readable format.", "string"})
	return []rest.Route{
		{Namespace: Namespace, Path: "/block-patterns/patterns", Schema: patternSchema, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Permission: canEditPermission("rest_cannot_view", "Sorry, you are not allowed to view the registered block patterns."), Handler: s.listPatterns}}},
		{Namespace: Namespace, Path: "/block-patterns/categories", Schema: categorySchema, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Permission: canEditPermission("rest_cannot_view", "Sorry, you are not allowed to view the registered block pattern categories."), Handler: s.listPatternCategories}}},
	}
}

// canEditPermission refuses callers who can edit nothing (the block
// patterns controllers' check, the block types' one).
func canEditPermission(code, message string) rest.PermissionFunc {
	return func(r *rest.Request) error {
		if canEditSomething(caller(r)) {
			return nil
		}
		return rest.Denied(r, code, message)
	}
}

func (s *Service) listPatterns(*rest.Request) (*rest.Response, error) {
	items := []any{}
	for _, raw := range blocktypes.Patterns() {
		v, err := blocktypes.DecodeOrdered(raw)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
	for _, p := range s.activeTheme().Patterns {
		items = append(items, themePatternItem(p))
	}
	return rest.OK(items), nil
}

// themePatternItem is a theme pattern as the controller answers it: only
// the headers the file sets (the description always: get_file_data gives
// it, empty or not).
func themePatternItem(p theme.Pattern) rest.Object {
	o := rest.Object{{Key: "name", Value: p.Slug}, {Key: "title", Value: p.Title}, {Key: "content", Value: p.Content}, {Key: "description", Value: p.Description}}
	if p.ViewportWidth != 0 {
		o = append(o, rest.Member{Key: "viewport_width", Value: p.ViewportWidth})
	}
	if p.Inserter != nil {
		o = append(o, rest.Member{Key: "inserter", Value: *p.Inserter})
	}
	for _, l := range []struct {
		key  string
		list []string
	}{{"categories", migrateCategories(p.Categories)}, {"keywords", p.Keywords}, {"block_types", p.BlockTypes}, {"post_types", p.PostTypes}, {"template_types", p.TemplateTypes}} {
		if len(l.list) > 0 {
			o = append(o, rest.Member{Key: l.key, Value: l.list})
		}
	}
	return o
}

// migrateCategories renames the categories WordPress renamed (the patterns
// controller's $categories_migration).
func migrateCategories(cats []string) []string {
	migration := map[string]string{"buttons": "call-to-action", "columns": "text", "query": "posts"}
	out := make([]string, len(cats))
	for i, c := range cats {
		if to, ok := migration[c]; ok {
			c = to
		}
		out[i] = c
	}
	return out
}

func (s *Service) listPatternCategories(*rest.Request) (*rest.Response, error) {
	items := []any{}
	for _, c := range blocktypes.PatternCategories() {
		items = append(items, rest.Object{{Key: "name", Value: c.Name}, {Key: "label", Value: c.Label}, {Key: "description", Value: c.Description}})
	}
	return rest.OK(items), nil
}

// menuLocationDescriptions are the descriptions the theme registers its
// MenuLocations with (register_nav_menus).
var menuLocationDescriptions = map[string]string{"primary": "Primary menu", "footer": "Footer menu"}

func (s *Service) menuLocationRoutes() []rest.Route {
	sch := readonlyItemSchema("menu-location", ctxAllOrdered,
		[3]string{"name", "The name of the menu location.", "string"},
		[3]string{"description", "The description of the menu location.", "string"},
		[3]string{"menu", "The ID of the assigned menu.", "integer"})
	return []rest.Route{
		{Namespace: Namespace, Path: "/menu-locations", Schema: sch, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Args: rest.Props{contextArg()}, Permission: menuLocationsPermission, Handler: s.listMenuLocations}}},
		{Namespace: Namespace, Path: `/menu-locations/(?P<location>[\w-]+)`, Schema: sch, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Args:       rest.Props{{Name: "location", Schema: &rest.Schema{Type: "string", Description: "An alphanumeric identifier for the menu location."}}, contextArg()},
			Permission: menuLocationsPermission, Handler: s.getMenuLocation}}},
	}
}

// ctxAllOrdered is the context list in the menu-locations controller's
// order.
var ctxAllOrdered = []string{"embed", "view", "edit"}

func menuLocationsPermission(r *rest.Request) error {
	if caller(r).Can("edit_theme_options") {
		return nil
	}
	return rest.Denied(r, "rest_cannot_view", "Sorry, you are not allowed to view menu locations.")
}

// listMenuLocations answers an object keyed by location, as WordPress does
// (an empty list when the theme registers none).
func (s *Service) listMenuLocations(r *rest.Request) (*rest.Response, error) {
	assigned, err := store.MenuLocationAssignments(r.Context(), s.db(r.Context()))
	if err != nil {
		return nil, err
	}
	if len(MenuLocations) == 0 {
		return rest.OK([]any{}), nil
	}
	out := rest.Object{}
	for _, loc := range MenuLocations {
		out = append(out, rest.Member{Key: loc, Value: s.menuLocationItem(loc, assigned[loc])})
	}
	return rest.OK(out), nil
}

func (s *Service) getMenuLocation(r *rest.Request) (*rest.Response, error) {
	loc := r.String("location")
	if _, ok := menuLocationDescriptions[loc]; !ok {
		return nil, rest.NewError("rest_menu_location_invalid", "Invalid menu location.", http.StatusNotFound)
	}
	assigned, err := store.MenuLocationAssignments(r.Context(), s.db(r.Context()))
	if err != nil {
		return nil, err
	}
	return rest.OK(s.menuLocationItem(loc, assigned[loc])), nil
}

// menuLocationItem links the assigned menu, when there is one.
func (s *Service) menuLocationItem(loc string, menu int64) rest.Item {
	base := s.restRoot + "/" + Namespace
	links := rest.Links{{Rel: "self", Href: base + "/menu-locations/" + loc}, {Rel: "collection", Href: base + "/menu-locations"}}
	if menu != 0 {
		links = append(links, rest.EmbeddableLink(rest.APIRelPrefix+"menu", base+"/menus/"+store.Itoa(menu)))
	}
	return rest.Item{Data: rest.Object{{Key: "name", Value: loc}, {Key: "description", Value: menuLocationDescriptions[loc]}, {Key: "menu", Value: menu}}, Links: links}
}
