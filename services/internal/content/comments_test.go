package content

import (
	"context"
	"fmt"
	"testing"
)

func (e *testEnv) commentCount(post int64) int {
	e.t.Helper()
	var n int
	if err := e.pool.QueryRow(context.Background(), `SELECT comment_count FROM posts WHERE id = $1`, post).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

func TestCommentsRoleMatrixAndModeration(t *testing.T) {
	e := newEnv(t)
	post := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "Discuss", "status": "publish"}).id()
	base := "/cms/v2/comments"
	// anonymous posting is refused; logged-in roles may comment
	wantError(t, e.do(anon, "POST", base, map[string]any{"post": post, "content": "hi"}), 401, "rest_comment_login_required", "Sorry, you must be logged in to comment.")
	status := map[string]string{subscriber: "hold", contributor: "hold", author: "approved", editor: "approved", admin: "approved"}
	ids := map[string]int64{}
	for _, who := range []string{subscriber, contributor, author, editor, admin} {
		r := e.do(who, "POST", base, map[string]any{"post": post, "content": "Comment by " + who})
		wantStatus(t, r, 201)
		if r.obj()["status"] != status[who] || r.obj()["author"] != float64(callers[who].UserID) ||
			r.Header.Get("Location") != fmt.Sprintf("http://example.test/cms-json/cms/v2/comments/%d", r.id()) {
			t.Fatalf("%s comment: %s", who, r.Raw)
		}
		ids[who] = r.id()
	}
	if n := e.commentCount(post); n != 3 {
		t.Fatalf("comment_count %d, want 3 approved", n)
	}
	// anonymous sees approved comments only; held ones are private
	if l := e.do(anon, "GET", fmt.Sprintf("%s?post=%d", base, post), nil); len(l.list()) != 3 {
		t.Fatalf("public list: %s", l.Raw)
	}
	wantError(t, e.do(anon, "GET", fmt.Sprintf("%s/%d", base, ids[subscriber]), nil), 401, "rest_cannot_read", "Sorry, you are not allowed to read this comment.")
	wantStatus(t, e.do(subscriber, "GET", fmt.Sprintf("%s/%d", base, ids[subscriber]), nil), 200) // own comment
	wantError(t, e.do(anon, "GET", base+"?status=hold", nil), 401, "rest_forbidden_param", "Query parameter not permitted: status")
	wantError(t, e.do(subscriber, "GET", base+"?context=edit", nil), 403, "rest_forbidden_context", "Sorry, you are not allowed to edit comments.")
	if l := e.do(editor, "GET", base+"?status=hold&context=edit", nil); len(l.list()) != 2 || l.list()[0]["author_email"] == nil {
		t.Fatalf("held (editor): %s", l.Raw)
	}
	// moderation: an editor approves; status by a non-moderator on create is refused
	wantError(t, e.do(subscriber, "POST", base, map[string]any{"post": post, "content": "x", "status": "approved"}), 403, "rest_comment_invalid_status", "")
	wantError(t, e.do(subscriber, "POST", base, map[string]any{"post": post, "content": "x", "author": 1}), 403, "rest_comment_invalid_author", "")
	wantError(t, e.do(contributor, "POST", fmt.Sprintf("%s/%d", base, ids[subscriber]), map[string]any{"status": "approved"}), 403, "rest_cannot_edit", "")
	a := e.do(editor, "POST", fmt.Sprintf("%s/%d", base, ids[subscriber]), map[string]any{"status": "approve"})
	if a.obj()["status"] != "approved" || e.commentCount(post) != 4 {
		t.Fatalf("approve: %s (count %d)", a.Raw, e.commentCount(post))
	}
	sp := e.do(admin, "POST", fmt.Sprintf("%s/%d", base, ids[subscriber]), map[string]any{"status": "spam"})
	if sp.obj()["status"] != "spam" || e.commentCount(post) != 3 {
		t.Fatalf("spam: %s", sp.Raw)
	}
	// the post's author edits comments on their post (edit_comment → edit_post)
	wantStatus(t, e.do(author, "POST", fmt.Sprintf("%s/%d", base, ids[editor]), map[string]any{"content": "edited"}), 200)
	wantError(t, e.do(author2, "DELETE", fmt.Sprintf("%s/%d", base, ids[editor]), nil), 403, "rest_cannot_delete", "Sorry, you are not allowed to delete this comment.")
	// trash, again 410, force
	tr := e.do(editor, "DELETE", fmt.Sprintf("%s/%d", base, ids[admin]), nil)
	if tr.obj()["status"] != "trash" || e.commentCount(post) != 2 {
		t.Fatalf("trash: %s (count %d)", tr.Raw, e.commentCount(post))
	}
	wantError(t, e.do(editor, "DELETE", fmt.Sprintf("%s/%d", base, ids[admin]), nil), 410, "rest_already_trashed", "The comment has already been trashed.")
	d := e.do(editor, "DELETE", fmt.Sprintf("%s/%d?force=true", base, ids[admin]), nil)
	if d.obj()["deleted"] != true || field(d.obj(), "previous", "id") != float64(ids[admin]) {
		t.Fatalf("force: %s", d.Raw)
	}
	wantError(t, e.do(editor, "GET", fmt.Sprintf("%s/%d", base, ids[admin]), nil), 404, "rest_comment_invalid_id", "Invalid comment ID.")
}

func TestCommentRules(t *testing.T) {
	e := newEnv(t)
	open := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Open", "status": "publish"}).id()
	closed := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Closed", "status": "publish", "comment_status": "closed"}).id()
	draft := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Draft"}).id()
	page := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "Page", "status": "publish"}).id() // closed by default
	cases := []struct {
		name   string
		body   map[string]any
		status int
		code   string
	}{
		{"closed post", map[string]any{"post": closed, "content": "x"}, 403, "rest_comment_closed"},
		{"page closed by default", map[string]any{"post": page, "content": "x"}, 403, "rest_comment_closed"},
		{"draft post", map[string]any{"post": draft, "content": "x"}, 403, "rest_comment_draft_post"},
		{"no post", map[string]any{"content": "x"}, 403, "rest_comment_invalid_post_id"},
		{"unknown post", map[string]any{"post": 99999, "content": "x"}, 403, "rest_comment_invalid_post_id"},
		{"empty content", map[string]any{"post": open, "content": ""}, 400, "rest_comment_content_invalid"},
		{"bad email", map[string]any{"post": open, "content": "x", "author_email": "nope"}, 400, "rest_invalid_param"},
		{"parent on another post", map[string]any{"post": open, "content": "x", "parent": 99999}, 400, "rest_comment_invalid_parent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, e.do(subscriber, "POST", "/cms/v2/comments", c.body), c.status, c.code, "")
		})
	}
	// threading: a reply links to its parent; the parent lists its children
	top := e.do(editor, "POST", "/cms/v2/comments", map[string]any{"post": open, "content": "Top"})
	reply := e.do(admin, "POST", "/cms/v2/comments", map[string]any{"post": open, "content": "Reply", "parent": top.id()})
	wantStatus(t, reply, 201)
	if field(reply.obj(), "_links", "in-reply-to") == nil || reply.obj()["parent"] != float64(top.id()) {
		t.Fatalf("reply: %s", reply.Raw)
	}
	g := e.do(anon, "GET", fmt.Sprintf("/cms/v2/comments/%d", top.id()), nil)
	if field(g.obj(), "_links", "children") == nil || field(g.obj(), "_links", "up") == nil || g.obj()["author_email"] != nil {
		t.Fatalf("parent comment: %s", g.Raw)
	}
	if l := e.do(anon, "GET", fmt.Sprintf("/cms/v2/comments?parent=%d", top.id()), nil); len(l.list()) != 1 {
		t.Fatalf("children: %s", l.Raw)
	}
	wantError(t, e.do(editor, "POST", "/cms/v2/comments", map[string]any{"post": open, "content": "Top"}), 409, "comment_duplicate", "")
	// the post links its replies (embeddable)
	p := e.do(anon, "GET", fmt.Sprintf("/cms/v2/posts/%d", open), nil)
	rep := field(p.obj(), "_links", "replies").([]any)[0].(map[string]any)
	if rep["embeddable"] != true || rep["href"] != fmt.Sprintf("http://example.test/cms-json/cms/v2/comments?post=%d", open) {
		t.Fatalf("replies link: %v", rep)
	}
	if e.commentCount(open) != 2 {
		t.Fatalf("count: %d", e.commentCount(open))
	}
	// deleting the post deletes its comments
	wantStatus(t, e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/posts/%d?force=true", open), nil), 200)
	wantError(t, e.do(admin, "GET", fmt.Sprintf("/cms/v2/comments/%d", top.id()), nil), 404, "rest_comment_invalid_id", "")
}
