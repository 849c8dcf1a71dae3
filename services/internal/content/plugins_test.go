package content

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// The plugins routes answer as WordPress 6.9.7 answers for a site with no
// plugins and DISALLOW_FILE_MODS: an empty list for administrators, each
// plugin not found, installs and deletes refused; codes, messages and the
// 401/403 split are the controller's.
func TestPluginsRoutes(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		who, method, path string
		body              any
		status            int
		code, message     string
	}{
		{admin, "GET", "/cms/v2/plugins", nil, 200, "", ""},
		{admin, "GET", "/cms/v2/plugins?status=active&search=x", nil, 200, "", ""},
		{anon, "GET", "/cms/v2/plugins", nil, 401, "rest_cannot_view_plugins", "Sorry, you are not allowed to manage plugins for this site."},
		{editor, "GET", "/cms/v2/plugins", nil, 403, "rest_cannot_view_plugins", "Sorry, you are not allowed to manage plugins for this site."},
		{admin, "GET", "/cms/v2/plugins?status=zz", nil, 400, "rest_invalid_param", "Invalid parameter(s): status"},
		{admin, "GET", "/cms/v2/plugins/akismet/akismet", nil, 404, "rest_plugin_not_found", "Plugin not found."},
		{editor, "GET", "/cms/v2/plugins/hello", nil, 403, "rest_cannot_view_plugin", "Sorry, you are not allowed to manage plugins for this site."},
		{admin, "POST", "/cms/v2/plugins", map[string]any{}, 400, "rest_missing_callback_param", "Missing parameter(s): slug"},
		{admin, "POST", "/cms/v2/plugins", map[string]any{"slug": "akismet"}, 403, "rest_cannot_install_plugin", "Sorry, you are not allowed to install plugins on this site."},
		{anon, "POST", "/cms/v2/plugins", map[string]any{"slug": "akismet"}, 401, "rest_cannot_install_plugin", "Sorry, you are not allowed to install plugins on this site."},
		{admin, "POST", "/cms/v2/plugins/hello", map[string]any{"status": "active"}, 404, "rest_plugin_not_found", "Plugin not found."},
		{editor, "PUT", "/cms/v2/plugins/hello", map[string]any{"status": "active"}, 403, "rest_cannot_manage_plugins", "Sorry, you are not allowed to manage plugins for this site."},
		{admin, "DELETE", "/cms/v2/plugins/hello", nil, 403, "rest_cannot_manage_plugins", "Sorry, you are not allowed to delete plugins for this site."},
		{editor, "DELETE", "/cms/v2/plugins/hello", nil, 403, "rest_cannot_manage_plugins", "Sorry, you are not allowed to manage plugins for this site."},
		{admin, "GET", "/cms/v2/block-directory/search?term=x", nil, 403, "rest_block_directory_cannot_view", "Sorry, you are not allowed to browse the block directory."},
		{anon, "GET", "/cms/v2/block-directory/search?term=x", nil, 401, "rest_block_directory_cannot_view", "Sorry, you are not allowed to browse the block directory."},
		{admin, "GET", "/cms/v2/block-directory/search", nil, 400, "rest_missing_callback_param", "Missing parameter(s): term"},
	}
	for _, c := range cases {
		t.Run(c.who+" "+c.method+" "+c.path, func(t *testing.T) {
			r := e.do(c.who, c.method, c.path, c.body)
			if c.code == "" {
				wantStatus(t, r, c.status)
				if strings.TrimSpace(string(r.Raw)) != "[]" {
					t.Errorf("body %s, want []", r.Raw)
				}
				return
			}
			wantError(t, r, c.status, c.code, c.message)
		})
	}
}

// Each route declares the arguments WordPress 6.9.7 declares, per method,
// as OPTIONS shows them (the differential suite's comparison): the themes
// collection has no context, templates accept type on create and update,
// a menu item's title is a string or an object, and the plugins routes
// have the plugins controller's.
func TestDeclaredArgs(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		path string
		want []string // "METHODS name type"
	}{
		{"/cms/v2/themes", []string{"GET status array"}},
		{"/cms/v2/templates", []string{"POST type string"}},
		{"/cms/v2/template-parts", []string{"POST type string"}},
		{"/cms/v2/menu-items", []string{"POST title [string object]"}},
		{"/cms/v2/plugins", []string{"GET context string", "GET search string", "GET status array", "POST slug string", "POST status string"}},
		{"/cms/v2/plugins/hello", []string{"DELETE context string", "DELETE plugin string", "GET context string", "GET plugin string",
			"POST,PUT,PATCH context string", "POST,PUT,PATCH plugin string", "POST,PUT,PATCH status string"}},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			r := e.do(admin, "OPTIONS", c.path, nil)
			wantStatus(t, r, 200)
			var got []string
			eps, _ := r.obj()["endpoints"].([]any)
			for _, ep := range eps {
				ep := ep.(map[string]any)
				var methods []string
				for _, m := range ep["methods"].([]any) {
					methods = append(methods, m.(string))
				}
				args, _ := ep["args"].(map[string]any)
				for name, a := range args {
					got = append(got, fmt.Sprintf("%s %s %v", strings.Join(methods, ","), name, a.(map[string]any)["type"]))
				}
			}
			sort.Strings(got)
			if c.path == "/cms/v2/templates" || c.path == "/cms/v2/template-parts" || c.path == "/cms/v2/menu-items" {
				got = filterPrefix(got, c.want[0])
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("args:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func filterPrefix(list []string, keep string) []string {
	var out []string
	for _, s := range list {
		if s == keep {
			out = append(out, s)
		}
	}
	return out
}

// An unset site_logo reads as null, as WordPress's settings controller
// answers for the missing option (false is no integer).
func TestSettingsSiteLogoUnset(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		body map[string]any
		want any
	}{
		{nil, nil},
		{map[string]any{"site_logo": 7}, float64(7)},
		{map[string]any{"site_logo": nil}, nil},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.body), func(t *testing.T) {
			if c.body != nil {
				wantStatus(t, e.do(admin, "POST", "/cms/v2/settings", c.body), 200)
			}
			r := e.do(admin, "GET", "/cms/v2/settings", nil)
			wantStatus(t, r, 200)
			if v, ok := r.obj()["site_logo"]; !ok || v != c.want {
				t.Errorf("site_logo %v (present %v), want %v", v, ok, c.want)
			}
		})
	}
}
