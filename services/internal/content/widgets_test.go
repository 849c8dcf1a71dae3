package content

import (
	"strings"
	"testing"
)

// The widget routes answer as WordPress 6.9.7 answers for a block theme
// with no widget types: the inactive sidebar only, no widgets, no widget
// types; every route needs edit_theme_options (rest_cannot_manage_widgets,
// 401/403), ids are not found, nothing can be created.
func TestWidgetRoutes(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		who, method, path string
		body              map[string]any
		status            int
		code, message     string
		want              string // a successful answer contains this
	}{
		{admin, "GET", "/cms/v2/sidebars", nil, 200, "", "", `[{"id":"wp_inactive_widgets","name":"Inactive widgets","description":"","class":"","before_widget":"","after_widget":"","before_title":"","after_title":"","status":"inactive","widgets":[]`},
		{admin, "GET", "/cms/v2/sidebars/wp_inactive_widgets?context=embed", nil, 200, "", "", `"widgets":[]`},
		{admin, "PUT", "/cms/v2/sidebars/wp_inactive_widgets", map[string]any{"widgets": []any{"text-2"}}, 200, "", "", `"status":"inactive"`},
		{admin, "GET", "/cms/v2/sidebars/sidebar-1", nil, 404, "rest_sidebar_not_found", "No sidebar exists with that id.", ""},
		{anon, "GET", "/cms/v2/sidebars", nil, 401, "rest_cannot_manage_widgets", msgManageWidgets, ""},
		{editor, "GET", "/cms/v2/sidebars/wp_inactive_widgets", nil, 403, "rest_cannot_manage_widgets", msgManageWidgets, ""},
		{admin, "GET", "/cms/v2/widgets?sidebar=wp_inactive_widgets", nil, 200, "", "", `[]`},
		{anon, "GET", "/cms/v2/widgets", nil, 401, "rest_cannot_manage_widgets", msgManageWidgets, ""},
		{admin, "GET", "/cms/v2/widgets/block-2", nil, 404, "rest_widget_not_found", msgWidgetNotFound, ""},
		{admin, "DELETE", "/cms/v2/widgets/block-2", nil, 404, "rest_widget_not_found", msgWidgetNotFound, ""},
		{admin, "POST", "/cms/v2/widgets", map[string]any{"sidebar": "wp_inactive_widgets"}, 400, "rest_invalid_widget", "Widget type (id_base) is required.", ""},
		{admin, "POST", "/cms/v2/widgets", map[string]any{"id_base": "text", "instance": map[string]any{"raw": map[string]any{}}}, 400, "rest_invalid_widget", "The provided widget type (id_base) cannot be updated.", ""},
		{admin, "PUT", "/cms/v2/widgets/text-2", map[string]any{"instance": map[string]any{}}, 400, "rest_invalid_widget", "The provided widget type (id_base) cannot be updated.", ""},
		{admin, "PUT", "/cms/v2/widgets/text-2", map[string]any{"sidebar": "wp_inactive_widgets"}, 404, "rest_widget_not_found", msgWidgetNotFound, ""},
		{editor, "POST", "/cms/v2/widgets", map[string]any{"id_base": "text"}, 403, "rest_cannot_manage_widgets", msgManageWidgets, ""},
		{admin, "GET", "/cms/v2/widget-types", nil, 200, "", "", `[]`},
		{anon, "GET", "/cms/v2/widget-types", nil, 401, "rest_cannot_manage_widgets", msgManageWidgets, ""},
		{admin, "GET", "/cms/v2/widget-types/text", nil, 404, "rest_widget_type_invalid", "Invalid widget type.", ""},
		{admin, "POST", "/cms/v2/widget-types/text/encode", map[string]any{"form_data": "a=b"}, 404, "rest_widget_type_invalid", "Invalid widget type.", ""},
		{anon, "POST", "/cms/v2/widget-types/text/render", map[string]any{}, 401, "rest_cannot_manage_widgets", msgManageWidgets, ""},
	}
	for _, c := range cases {
		t.Run(c.who+" "+c.method+" "+c.path, func(t *testing.T) {
			var body any
			if c.body != nil {
				body = c.body
			}
			r := e.do(c.who, c.method, c.path, body)
			if c.code != "" {
				wantError(t, r, c.status, c.code, c.message)
				return
			}
			wantStatus(t, r, c.status)
			if !strings.Contains(string(r.Raw), c.want) {
				t.Errorf("body %s, want it to contain %s", r.Raw, c.want)
			}
		})
	}
}
