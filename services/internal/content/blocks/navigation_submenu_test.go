package blocks

import "testing"

// A submenu added in the site editor (core/navigation-submenu, in the
// navigation's own blocks or in its menu, ref) renders with WordPress
// 6.9's markup, as the peer's block renderer answers it: the parent's link,
// its toggle, the nested list; "open-on-click" makes the toggle the item.
// The website printed the submenu as one more link and its links flat.
func TestNavigationSubmenu(t *testing.T) {
	const sub = `<!-- wp:navigation-submenu {"label":"Parent","url":"/parent/"} -->` +
		`<!-- wp:navigation-link {"label":"Child","url":"/child/"} /--><!-- /wp:navigation-submenu -->`
	menu := []Link{{Label: "Top", URL: "/top/"}, {Label: "Parent", URL: "/parent/", Children: []Link{{Label: "Child", URL: "/child/"}}}}
	env := &Env{HomeURL: "https://s.test", Navigation: func(int64) []Link { return menu }}
	child := `<ul data-wp-on--focus="actions.openMenuOnFocus" class="wp-block-navigation__submenu-container wp-block-navigation-submenu">` +
		`<li class="wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content" href="/child/"><span class="wp-block-navigation-item__label">Child</span></a></li></ul></li>`
	hoverItem := `data-wp-on--mouseenter="actions.openMenuOnHover" data-wp-on--mouseleave="actions.closeMenuOnHover" data-wp-watch="callbacks.initMenu" tabindex="-1"` +
		` class="wp-block-navigation-item has-child open-on-hover-click wp-block-navigation-submenu">` +
		`<a class="wp-block-navigation-item__content" href="/parent/"><span class="wp-block-navigation-item__label">Parent</span></a>` +
		`<button data-wp-bind--aria-expanded="state.isMenuOpen" data-wp-on--click="actions.toggleMenuOnClick" aria-expanded="false" aria-label="Parent submenu"` +
		` class="wp-block-navigation__submenu-icon wp-block-navigation-submenu__toggle">` + submenuIcon + `</button>` + child
	tests := []struct {
		name, markup string
		want, not    []string
	}{
		{"inner blocks, opened on hover or with the toggle", `<!-- wp:navigation {"overlayMenu":"never"} -->` + sub + `<!-- /wp:navigation -->`,
			[]string{hoverItem}, []string{`<li class="wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content" href="/parent/">`}},
		{"the menu's links (ref), in the overlay", `<!-- wp:navigation {"ref":7} /-->`,
			[]string{`href="/top/"><span class="wp-block-navigation-item__label">Top</span></a></li><li data-wp-context=`, hoverItem}, nil},
		{"opened on click", `<!-- wp:navigation {"overlayMenu":"never","openSubmenusOnClick":true} -->` + sub + `<!-- /wp:navigation -->`,
			[]string{`tabindex="-1" class="wp-block-navigation-item has-child open-on-click wp-block-navigation-submenu">` +
				`<button data-wp-bind--aria-expanded="state.isMenuOpen" data-wp-on--click="actions.toggleMenuOnClick" aria-expanded="false" aria-label="Parent submenu"` +
				` class="wp-block-navigation-item__content wp-block-navigation-submenu__toggle"><span class="wp-block-navigation-item__label">Parent</span></button>` +
				`<span class="wp-block-navigation__submenu-icon">` + submenuIcon + `</span>` + child},
			[]string{"openMenuOnHover"}},
		{"without the icon", `<!-- wp:navigation {"overlayMenu":"never","showSubmenuIcon":false} -->` + sub + `<!-- /wp:navigation -->`,
			[]string{`class="wp-block-navigation-item has-child wp-block-navigation-submenu"><a class="wp-block-navigation-item__content" href="/parent/">` +
				`<span class="wp-block-navigation-item__label">Parent</span></a>` + child}, []string{"submenu__toggle"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantContains(t, Render(Parse(tc.markup), env), tc.want, tc.not)
		})
	}
}
