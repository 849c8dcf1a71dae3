package content

import (
	"fmt"
	"testing"
)

// A term collection's Allow asks the post filter as WordPress's
// get_items_permissions_check does (rest_send_allow_header runs every
// endpoint's check): a missing post, or a post given as a non-integer
// (refused by validation), takes GET out of Allow.
func TestTermCollectionAllowPostFilter(t *testing.T) {
	e := newEnv(t)
	post := seedPosts(e, map[string]any{"title": "p"})[0]
	tests := []struct {
		name, path  string
		status      int
		code, allow string
	}{
		{"categories, a post", fmt.Sprintf("/cms/v2/categories?post=%d", post), 200, "", "GET, POST"},
		{"categories, no post", "/cms/v2/categories?post=0", 200, "", "GET, POST"},
		{"categories, not an integer", "/cms/v2/categories?post=notanint", 400, "rest_invalid_param", "POST"},
		{"categories, a missing post", "/cms/v2/categories?post=999999", 400, "rest_post_invalid_id", "POST"},
		{"tags, not an integer", "/cms/v2/tags?post=1abc", 400, "rest_invalid_param", "POST"},
		{"menus, not an integer", "/cms/v2/menus?post=notanint", 400, "rest_invalid_param", "POST"},
		{"other invalid argument", "/cms/v2/categories?per_page=abc", 400, "rest_invalid_param", "GET, POST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(admin, "GET", tt.path, nil)
			if tt.code != "" {
				wantError(t, r, tt.status, tt.code, "")
			} else {
				wantStatus(t, r, tt.status)
			}
			if got := r.Header.Get("Allow"); got != tt.allow {
				t.Fatalf("Allow %q, want %q", got, tt.allow)
			}
		})
	}
}
