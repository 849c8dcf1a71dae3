package content

import (
	"slices"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// MenuLocations are the theme's registered menu locations (WordPress's
// register_nav_menus): a menu's locations must be among them. Siteplane's
// themes declare these two.
var MenuLocations = []string{"primary", "footer"}

// menuSettingsArgs are the menus' writable locations and auto_add.
func menuSettingsArgs() rest.Props {
	plain := &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string"}}
	return rest.Props{
		{Name: "locations", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string"},
			Validate: func(_ *rest.Request, v any, param string) error {
				clean, err := rest.ParseArg(v, plain, param)
				if err != nil {
					return err
				}
				for _, l := range clean.([]any) {
					if loc, _ := l.(string); !slices.Contains(MenuLocations, loc) {
						return &rest.Error{Code: "rest_invalid_menu_location", Message: "Invalid menu location.",
							Data: rest.Object{{Key: "location", Value: loc}}}
					}
				}
				return nil
			}}},
		{Name: "auto_add", Schema: &rest.Schema{Type: "boolean"}},
	}
}

// saveMenuSettings writes a menu's locations and auto_add when the request
// sets them; a location given to this menu leaves every other menu.
func saveMenuSettings(c *rest.Request, tx pgx.Tx, tax *store.Taxonomy, t *store.Term) error {
	if tax != store.Menu || (!c.Has("locations") && !c.Has("auto_add")) {
		return nil
	}
	ctx := c.Context()
	if c.Has("locations") {
		locs := store.NonNil(c.Strings("locations"))
		if err := store.TakeMenuLocations(ctx, tx, t.ID, locs); err != nil {
			return err
		}
		t.Locations = locs
	}
	if c.Has("auto_add") {
		t.AutoAdd = c.Bool("auto_add")
	}
	return store.SaveMenuSettings(ctx, tx, t)
}
