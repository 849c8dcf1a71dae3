package content

import (
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// A menu_order beyond the 32-bit column is refused as rest_invalid_param
// before the database (it was 503 rest_commit_unknown for pages, 500 for
// menu items).
func TestMenuOrderOverflowIsInvalidParam(t *testing.T) {
	e := newEnv(t)
	page := e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "P", "status": "publish"}).id()
	menu := e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "Main"}).id()
	item := e.do(admin, "POST", "/cms/v2/menu-items", map[string]any{"title": "Home", "url": "https://example.test/", "menus": menu}).id()
	for _, tt := range []struct {
		name, method, path string
		body               any
	}{
		{"page create", "POST", "/cms/v2/pages", map[string]any{"title": "Q", "menu_order": 2147483648}},
		{"page create below", "POST", "/cms/v2/pages", map[string]any{"title": "Q", "menu_order": -2147483649}},
		{"page update", "POST", "/cms/v2/pages/" + store.Itoa(page), map[string]any{"menu_order": 2147483648}},
		{"page update form", "POST", "/cms/v2/pages/" + store.Itoa(page), "menu_order=2147483648"},
		{"menu item create", "POST", "/cms/v2/menu-items", map[string]any{"title": "X", "url": "https://example.test/x", "menus": menu, "menu_order": 2147483648}},
		{"menu item update", "POST", "/cms/v2/menu-items/" + store.Itoa(item), map[string]any{"menu_order": 2147483648}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, e.do(admin, tt.method, tt.path, tt.body), 400, "rest_invalid_param", "")
		})
	}
	// the largest value still fits; as a list filter a huge value matches
	// nothing (TestHostileInputsNever5xx)
	wantStatus(t, e.do(admin, "POST", "/cms/v2/pages/"+store.Itoa(page), map[string]any{"menu_order": 2147483647}), 200)
}
