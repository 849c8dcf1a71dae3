package content

import (
	"fmt"
	"testing"
)

// WordPress 6.9's block editor asks every post's notes in the edit context
// (comments?context=edit&type=note&post=ID&status=all); whoever may edit the
// post may read them, without moderate_comments.
func TestNotesReadableByWhoeverEditsThePost(t *testing.T) {
	e := newEnv(t)
	own := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "mine"})
	wantStatus(t, own, 201)
	other := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "theirs", "status": "publish"})
	wantStatus(t, other, 201)
	notes := func(id int64) string {
		return fmt.Sprintf("/cms/v2/comments?context=edit&type=note&status=all&per_page=100&post=%d", id)
	}
	for _, tt := range []struct {
		name, who, path string
		status          int
		code            string
	}{
		{"the author of the post", author, notes(own.id()), 200, ""},
		{"an editor on anyone's post", editor, notes(own.id()), 200, ""},
		{"an author on another's post", author, notes(other.id()), 403, "rest_forbidden_context"},
		{"comments, not notes, still need moderate_comments", author, fmt.Sprintf("/cms/v2/comments?context=edit&post=%d", own.id()), 403, "rest_forbidden_context"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(tt.who, "GET", tt.path, nil)
			if tt.status != 200 {
				wantError(t, r, tt.status, tt.code, "Sorry, you are not allowed to edit comments.")
				return
			}
			wantStatus(t, r, 200)
			if string(r.Raw) != "[]" {
				t.Fatalf("notes: %s", r.Raw)
			}
		})
	}
}
