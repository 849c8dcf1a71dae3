package stack

import (
	"net/url"
	"strings"
	"testing"
)

// The block editor's routes through the gateway: the route file sends
// cms/v2 and cms-block-editor/v1 to content, but url-details, which the
// gateway answers itself (docs/admin.md#routes-the-editor-uses).
func TestEditorRoutesThroughTheGateway(t *testing.T) {
	cases := []struct {
		name, path   string
		status       int
		code, prefix string // an error's code, or how the body starts
	}{
		{name: "a block type", path: "/cms-json/cms/v2/block-types/core/paragraph?_fields=name,is_dynamic", status: 200, prefix: `{"is_dynamic":false,"name":"core\/paragraph"}`},
		{name: "pattern categories", path: "/cms-json/cms/v2/block-patterns/categories?_fields=name", status: 200, prefix: `[{"name":"banner"}`},
		{name: "a dynamic block rendered", path: "/cms-json/cms/v2/block-renderer/core/site-title?context=edit", status: 200, prefix: `{"rendered":"<h1 class=\"wp-block-site-title\">`},
		{name: "menu locations", path: "/cms-json/cms/v2/menu-locations", status: 200, prefix: `{"primary":{"name":"primary"`},
		{name: "the navigation fallback (content)", path: "/cms-json/cms-block-editor/v1/navigation-fallback?_fields=id", status: 200, prefix: `{"id":`},
		{name: "url-details (the gateway) refuses a private address", path: "/cms-json/cms-block-editor/v1/url-details?url=" + url.QueryEscape("http://10.0.0.1/"),
			status: 400, code: "rest_invalid_param"},
		{name: "url-details of the site's own front page", path: "/cms-json/cms-block-editor/v1/url-details?url=" + url.QueryEscape(st.SiteURL+"/"),
			status: 200, prefix: `{"title":"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := call(t, "GET", c.path, nil, admin()...)
			if c.code != "" {
				expectError(t, r, c.status, c.code)
				return
			}
			if r.Status != c.status || !strings.HasPrefix(string(r.Raw), c.prefix) {
				t.Errorf("%d %.300s", r.Status, r.Raw)
			}
		})
	}
	// Both halves of the namespace are in the index, the gateway's first.
	r := call(t, "GET", "/cms-json/cms-block-editor/v1?_fields=routes", nil)
	raw := string(r.Raw)
	if i, j := strings.Index(raw, `"\/cms-block-editor\/v1\/url-details"`), strings.Index(raw, `"\/cms-block-editor\/v1\/navigation-fallback"`); r.Status != 200 || i < 0 || j < i {
		t.Errorf("namespace index: %d %.400s", r.Status, raw)
	}
}
