package blocks

import "strings"

// The navigation's items as WordPress 6.9 renders them
// (render_block_core_navigation_link, render_block_core_navigation_submenu):
// a link's label in its own span, and a submenu as a list item with its
// link, a toggle button and the nested list. A submenu opens on hover and
// with its toggle (the default, "open-on-hover-click"), or, with the
// navigation's openSubmenusOnClick, only with its toggle, which is then the
// item itself ("open-on-click"). The Interactivity-API attributes are
// WordPress's, so the page's markup is the same; navScript (the overlay's
// script) does what WordPress's view script does with the toggles, and
// navSubmenuCSS shows an open submenu.

// navOptions are the navigation block's settings its items read (in
// WordPress, the block context openSubmenusOnClick and showSubmenuIcon).
type navOptions struct {
	onClick, icon bool
}

func navOptionsOf(b *Block) navOptions {
	return navOptions{onClick: b.Attrs["openSubmenusOnClick"] == true, icon: !b.hasFalse("showSubmenuIcon")}
}

// blockLink is a navigation-link or navigation-submenu block as a Link
// (its url as saved; the website's own menus resolve post ids first). A
// link without a URL is left out, a submenu without one only when it has
// no links either.
func blockLink(b *Block) (Link, bool) {
	l := Link{URL: str(b, "url", "")}
	l.Label = str(b, "label", l.URL)
	if b.Name == "core/navigation-submenu" {
		for _, c := range b.Inner() {
			if c.Name != "core/navigation-link" && c.Name != "core/navigation-submenu" {
				continue
			}
			if child, ok := blockLink(c); ok {
				l.Children = append(l.Children, child)
			}
		}
	}
	return l, l.URL != "" || len(l.Children) > 0
}

// submenuIcon is the block library's chevron.
const submenuIcon = `<svg xmlns="http://www.w3.org/2000/svg" width="12" height="12" viewBox="0 0 12 12" fill="none" aria-hidden="true" focusable="false"><path d="M1.50002 4L6.00002 8L10.5 4" stroke-width="1.5"></path></svg>`

// submenuContext is the Interactivity-API context WordPress gives each
// submenu.
const submenuContext = `{ &quot;submenuOpenedBy&quot;: { &quot;click&quot;: false, &quot;hover&quot;: false, &quot;focus&quot;: false }, &quot;type&quot;: &quot;submenu&quot;, &quot;modal&quot;: null, &quot;previousFocus&quot;: null }`

// navItem renders one item of a navigation: a link, or a submenu when it
// has links of its own.
func navItem(l Link, o navOptions) string {
	label := `<span class="wp-block-navigation-item__label">` + esc(l.Label) + `</span>`
	href := ""
	if l.URL != "" {
		href = ` href="` + escURL(l.URL) + `"`
	}
	if len(l.Children) == 0 {
		return `<li class="wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content"` + href + `>` + label + `</a></li>`
	}
	var sb strings.Builder
	mode, hover := " open-on-hover-click", ` data-wp-on--mouseenter="actions.openMenuOnHover" data-wp-on--mouseleave="actions.closeMenuOnHover"`
	if o.onClick {
		mode, hover = " open-on-click", ""
	} else if !o.icon {
		mode = ""
	}
	sb.WriteString(`<li data-wp-context="` + submenuContext + `" data-wp-interactive="core/navigation" data-wp-on--focusout="actions.handleMenuFocusout"` +
		` data-wp-on--keydown="actions.handleMenuKeydown"` + hover + ` data-wp-watch="callbacks.initMenu" tabindex="-1"` +
		` class="wp-block-navigation-item has-child` + mode + ` wp-block-navigation-submenu">`)
	toggle := `<button data-wp-bind--aria-expanded="state.isMenuOpen" data-wp-on--click="actions.toggleMenuOnClick" aria-expanded="false" aria-label="` +
		esc(l.Label) + ` submenu" class="`
	switch {
	case o.onClick:
		sb.WriteString(toggle + `wp-block-navigation-item__content wp-block-navigation-submenu__toggle">` + label + `</button>`)
		if o.icon {
			sb.WriteString(`<span class="wp-block-navigation__submenu-icon">` + submenuIcon + `</span>`)
		}
	default:
		sb.WriteString(`<a class="wp-block-navigation-item__content"` + href + `>` + label + `</a>`)
		if o.icon {
			sb.WriteString(toggle + `wp-block-navigation__submenu-icon wp-block-navigation-submenu__toggle">` + submenuIcon + `</button>`)
		}
	}
	sb.WriteString(`<ul data-wp-on--focus="actions.openMenuOnFocus" class="wp-block-navigation__submenu-container wp-block-navigation-submenu">`)
	for _, c := range l.Children {
		sb.WriteString(navItem(c, o))
	}
	sb.WriteString(`</ul></li>`)
	return sb.String()
}

// navSubmenuCSS lays the items out as the block library's navigation
// stylesheet does: a link takes the navigation's text colour, not the
// links' (its doubled class outweighs the theme's link element rule, as in
// WordPress and the editor's canvas); a submenu, closed, a submenu takes no room and is hidden; it opens
// under its item (a nested one beside its parent) on hover (not for
// "open-on-click"), on focus inside it (only when it has no toggle), and
// when its toggle is expanded; in the open overlay menu every submenu is
// shown in place, indented, without its toggle.
const navSubmenuCSS = `.wp-block-navigation .wp-block-navigation-item{align-items:center;display:flex;position:relative}` +
	`.wp-block-navigation .wp-block-navigation-item__content{display:block}` +
	`.wp-block-navigation .wp-block-navigation-item__content.wp-block-navigation-item__content{color:inherit}` +
	`.wp-block-navigation__submenu-icon{align-self:center;background-color:inherit;border:none;color:currentColor;cursor:pointer;display:inline-block;font-size:inherit;height:.6em;line-height:0;margin-left:.25em;padding:0;width:.6em}` +
	`.wp-block-navigation__submenu-icon svg{display:inline-block;height:inherit;margin-top:.075em;stroke:currentColor;width:inherit}` +
	`.wp-block-navigation .wp-block-navigation-submenu__toggle{cursor:pointer}` +
	`.wp-block-navigation .has-child.open-on-click>.wp-block-navigation-submenu__toggle{background:transparent;border:none;color:currentColor;font:inherit;padding:0}` +
	`.wp-block-navigation .wp-block-navigation__submenu-container{align-items:normal;border:1px solid rgba(0,0,0,.15);display:flex;flex-direction:column;height:0;left:-1px;list-style:none;margin:0;min-width:200px;opacity:0;overflow:hidden;padding:0;position:absolute;top:100%;visibility:hidden;width:0;z-index:2}` +
	`.wp-block-navigation:not(.has-background) .wp-block-navigation__submenu-container{background-color:#fff;color:#000}` +
	`.wp-block-navigation .wp-block-navigation__submenu-container .wp-block-navigation-item__content{flex-grow:1;padding:.5em 1em}` +
	`.wp-block-navigation .wp-block-navigation__submenu-container .wp-block-navigation__submenu-container{left:100%;top:-1px}` +
	`.wp-block-navigation .has-child:not(.open-on-click):hover>.wp-block-navigation__submenu-container,` +
	`.wp-block-navigation .has-child:not(.open-on-click):not(.open-on-hover-click):focus-within>.wp-block-navigation__submenu-container,` +
	`.wp-block-navigation .has-child .wp-block-navigation-submenu__toggle[aria-expanded=true]~.wp-block-navigation__submenu-container{height:auto;opacity:1;overflow:visible;visibility:visible;width:auto}` +
	`.is-menu-open .wp-block-navigation-item{align-items:inherit;flex-direction:column}` +
	`.is-menu-open .wp-block-navigation__submenu-icon{display:none}` +
	`.wp-block-navigation .is-menu-open .wp-block-navigation__submenu-container{background:transparent;border:none;color:inherit;gap:inherit;height:auto;opacity:1;overflow:visible;padding:.5em 0 0 2em;position:static;visibility:visible;width:auto}`
