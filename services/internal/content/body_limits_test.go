package content

import (
	"strings"
	"testing"
)

// The small JSON routes refuse a body over 1 MiB before the caller is
// known (they read up to 10 MiB before); posts and pages keep 10 MiB.
func TestSmallRoutesBodyLimit(t *testing.T) {
	e := newEnv(t)
	big := strings.Repeat("a", 2<<20)
	for _, tt := range []struct {
		name, who, path string
		body            map[string]any
		status          int
		code            string
	}{
		{"tag", anon, "/cms/v2/tags", map[string]any{"name": "x", "description": big}, 413, "rest_body_too_large"},
		{"category", admin, "/cms/v2/categories", map[string]any{"name": "x", "description": big}, 413, "rest_body_too_large"},
		{"menu", anon, "/cms/v2/menus", map[string]any{"name": "x", "description": big}, 413, "rest_body_too_large"},
		{"menu item", anon, "/cms/v2/menu-items", map[string]any{"title": big}, 413, "rest_body_too_large"},
		{"settings", anon, "/cms/v2/settings", map[string]any{"title": big}, 413, "rest_body_too_large"},
		{"comment", anon, "/cms/v2/comments", map[string]any{"content": big}, 413, "rest_body_too_large"},
		{"block renderer", anon, "/cms/v2/block-renderer/core/site-title?context=edit", map[string]any{"attributes": map[string]any{"className": big}}, 413, "rest_body_too_large"},
		{"post", admin, "/cms/v2/posts", map[string]any{"title": "Big", "content": big}, 201, ""},
		{"page", admin, "/cms/v2/pages", map[string]any{"title": "Big", "content": big}, 201, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(tt.who, "POST", tt.path, tt.body)
			if tt.code == "" {
				wantStatus(t, r, tt.status)
				return
			}
			wantError(t, r, tt.status, tt.code, "")
		})
	}
}
