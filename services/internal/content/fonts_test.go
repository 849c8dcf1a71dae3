package content

import "testing"

// The font library's routes answer as WordPress 6.9 does on a site with
// no font collection registered and no font installed: empty lists with
// their headers for edit_theme_options, WordPress's 404s for any named
// item, rest_cannot_read (401 / 403) for others.
func TestFontRoutes(t *testing.T) {
	e := newEnv(t)
	lists := []struct{ path, msg string }{
		{"/cms/v2/font-collections", "Sorry, you are not allowed to access font collections."},
		{"/cms/v2/font-families", "Sorry, you are not allowed to access font families."},
	}
	for _, c := range lists {
		t.Run(c.path, func(t *testing.T) {
			r := e.do(admin, "GET", c.path+"?context=edit&_embed=true", nil)
			if r.Status != 200 || string(r.Raw) != "[]" || r.Header.Get("X-WP-Total") != "0" || r.Header.Get("X-WP-TotalPages") != "0" {
				t.Fatalf("%d %s %v", r.Status, r.Raw, r.Header)
			}
			wantError(t, e.do(anon, "GET", c.path, nil), 401, "rest_cannot_read", c.msg)
			wantError(t, e.do(editor, "GET", c.path, nil), 403, "rest_cannot_read", c.msg)
		})
	}
	errs := []struct {
		who, path string
		status    int
		code, msg string
	}{
		{admin, "/cms/v2/font-collections/google-fonts", 404, "rest_font_collection_not_found", "Font collection not found."},
		{editor, "/cms/v2/font-collections/google-fonts", 403, "rest_cannot_read", "Sorry, you are not allowed to access font collections."},
		{admin, "/cms/v2/font-families/12", 404, "rest_post_invalid_id", "Invalid post ID."},
		{anon, "/cms/v2/font-families/12", 404, "rest_post_invalid_id", "Invalid post ID."},
		{admin, "/cms/v2/font-families/12/font-faces", 404, "rest_post_invalid_parent", "Invalid post parent ID."},
		{admin, "/cms/v2/font-families/12/font-faces/3", 404, "rest_post_invalid_parent", "Invalid post parent ID."},
		{subscriber, "/cms/v2/font-families/12/font-faces", 403, "rest_cannot_read", "Sorry, you are not allowed to access font faces."},
	}
	for _, c := range errs {
		t.Run(c.who+" "+c.path, func(t *testing.T) {
			wantError(t, e.do(c.who, "GET", c.path, nil), c.status, c.code, c.msg)
		})
	}
}
