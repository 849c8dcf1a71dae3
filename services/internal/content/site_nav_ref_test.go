package content

import (
	"fmt"
	"strings"
	"testing"
)

// The header's own menu (a Navigation block with a ref, as the site
// editor's menu picker saves it), its submenus and its deletion, on the
// website: the referenced menu is shown, not the fallback; a submenu keeps
// its links in a nested list, with WordPress's markup; once the menu is
// deleted the header falls back to the newest menu, as WordPress's block
// does (the website showed nothing).
func TestSiteNavigationRefSubmenuAndDeletion(t *testing.T) {
	e := newEnv(t)
	menu := func(title, content string) string {
		r := e.do(admin, "POST", "/cms/v2/navigation", map[string]any{"title": title, "status": "publish", "content": content})
		if r.Status != 201 {
			t.Fatalf("create %s: %d %s", title, r.Status, r.Raw)
		}
		return fmt.Sprint(r.obj()["id"])
	}
	own := menu("The header's menu", `<!-- wp:navigation-link {"label":"Own link","url":"https://example.org/own"} /-->`+
		`<!-- wp:navigation-submenu {"label":"More","url":"https://example.org/more"} -->`+
		`<!-- wp:navigation-link {"label":"Nested link","url":"https://example.org/nested"} /--><!-- /wp:navigation-submenu -->`)
	menu("A newer menu", `<!-- wp:navigation-link {"label":"Fallback link","url":"https://example.org/fallback"} /-->`)
	header := `<!-- wp:navigation {"ref":` + own + `,"overlayMenu":"never"} /-->`
	if r := e.do(admin, "POST", "/cms/v2/template-parts/siteplane//header", map[string]any{"content": header}); r.Status != 200 {
		t.Fatalf("save the header: %d %s", r.Status, r.Raw)
	}
	tests := []struct {
		name      string
		deleted   bool
		want, not []string
	}{
		{"the referenced menu, its submenu nested", false, []string{
			`<span class="wp-block-navigation-item__label">Own link</span>`,
			`class="wp-block-navigation-item has-child open-on-hover-click wp-block-navigation-submenu"><a class="wp-block-navigation-item__content" href="https://example.org/more">` +
				`<span class="wp-block-navigation-item__label">More</span></a><button `,
			`aria-label="More submenu" class="wp-block-navigation__submenu-icon wp-block-navigation-submenu__toggle">`,
			`<ul data-wp-on--focus="actions.openMenuOnFocus" class="wp-block-navigation__submenu-container wp-block-navigation-submenu">` +
				`<li class="wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content" href="https://example.org/nested">` +
				`<span class="wp-block-navigation-item__label">Nested link</span></a></li></ul></li>`,
		}, []string{"Fallback link"}},
		{"deleted: the fallback, the newest menu", true, []string{">Fallback link<"}, []string{"Own link", "Nested link"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.deleted {
				if r := e.do(admin, "DELETE", "/cms/v2/navigation/"+own+"?force=true", nil); r.Status != 200 {
					t.Fatalf("delete the menu: %d %s", r.Status, r.Raw)
				}
			}
			home := string(e.page(anon, "/").Raw)
			// The header only: the footer has a menu of its own (the fallback).
			if i, j := strings.Index(home, "<header"), strings.Index(home, "</header>"); i >= 0 && j > i {
				home = home[i:j]
			}
			for _, w := range tc.want {
				if !strings.Contains(home, w) {
					t.Errorf("the header lacks %q:\n%s", w, home)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(home, n) {
					t.Errorf("the header has %q", n)
				}
			}
		})
	}
}
