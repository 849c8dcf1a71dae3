package content

import (
	"fmt"
	"net/http"
	"testing"
)

func TestCreatePostByRole(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		who    string
		status string
		want   int
		code   string
		msg    string
	}{
		{anon, "draft", 401, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user."},
		{subscriber, "draft", 403, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user."},
		{contributor, "draft", 201, "", ""},
		{contributor, "pending", 201, "", ""},
		{contributor, "publish", 403, "rest_cannot_publish", "Sorry, you are not allowed to publish posts in this post type."},
		{contributor, "private", 403, "rest_cannot_publish", "Sorry, you are not allowed to create private posts in this post type."},
		{author, "publish", 201, "", ""},
		{editor, "private", 201, "", ""},
		{admin, "publish", 201, "", ""},
	}
	for _, c := range cases {
		t.Run(c.who+"/"+c.status, func(t *testing.T) {
			r := e.do(c.who, "POST", "/cms/v2/posts", map[string]any{"title": "Hello " + c.who, "status": c.status, "content": "Body"})
			if c.code != "" {
				wantError(t, r, c.want, c.code, c.msg)
				return
			}
			wantStatus(t, r, http.StatusCreated)
			if loc := r.Header.Get("Location"); loc != fmt.Sprintf("http://example.test/cms-json/cms/v2/posts/%d", r.id()) {
				t.Fatalf("Location %q", loc)
			}
			o := r.obj()
			if o["status"] != c.status || field(o, "title", "raw") != "Hello "+c.who || o["author"] != float64(callers[c.who].UserID) {
				t.Fatalf("created post: %s", r.Raw)
			}
			// create answers in edit context
			if _, ok := o["password"]; !ok {
				t.Fatalf("no edit-context fields: %s", r.Raw)
			}
		})
	}
}

func TestValidationBeforePermission(t *testing.T) {
	e := newEnv(t)
	r := e.do(anon, "POST", "/cms/v2/posts", map[string]any{"status": "bogus"})
	wantError(t, r, 400, "rest_invalid_param", "Invalid parameter(s): status")
	if got := field(r.obj(), "data", "params", "status"); got != "status is not one of publish, future, draft, pending, and private." {
		t.Fatalf("params.status = %v", got)
	}
	r = e.do(anon, "GET", "/cms/v2/posts?per_page=101", nil)
	wantError(t, r, 400, "rest_invalid_param", "Invalid parameter(s): per_page")
	if got := field(r.obj(), "data", "details", "per_page", "code"); got != "rest_out_of_bounds" {
		t.Fatalf("details: %s", r.Raw)
	}
	if got := field(r.obj(), "data", "params", "per_page"); got != "per_page must be between 1 (inclusive) and 100 (inclusive)" {
		t.Fatalf("message: %v", got)
	}
	r = e.do(editor, "POST", "/cms/v2/posts", map[string]any{"id": 5, "title": "x"})
	wantError(t, r, 400, "rest_post_exists", "Cannot create existing post.")
	r = e.do(anon, "GET", "/cms/v2/posts/abc", nil)
	wantError(t, r, 404, "rest_no_route", "No route was found matching the URL and request method.")
	r = e.do(anon, "PUT", "/cms/v2/posts", nil)
	wantError(t, r, 404, "rest_no_route", "")
	r = e.do(anon, "GET", "/cms/v2/posts/0", nil)
	wantError(t, r, 404, "rest_post_invalid_id", "Invalid post ID.")
}

func TestUpdateAndDelete(t *testing.T) {
	e := newEnv(t)
	created := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Editor's", "status": "publish"})
	wantStatus(t, created, 201)
	id := created.id()
	path := fmt.Sprintf("/cms/v2/posts/%d", id)

	wantError(t, e.do(anon, "POST", path, map[string]any{"title": "x"}), 401, "rest_cannot_edit", "Sorry, you are not allowed to edit this post.")
	wantError(t, e.do(author, "PATCH", path, map[string]any{"title": "x"}), 403, "rest_cannot_edit", "Sorry, you are not allowed to edit this post.")
	wantError(t, e.do(contributor, "DELETE", path, nil), 403, "rest_cannot_delete", "Sorry, you are not allowed to delete this post.")

	// partial update: only the title changes
	r := e.do(admin, "PUT", path, map[string]any{"title": map[string]any{"raw": "Renamed"}})
	wantStatus(t, r, 200)
	if field(r.obj(), "title", "raw") != "Renamed" || r.obj()["status"] != "publish" || r.obj()["slug"] != "editors" {
		t.Fatalf("update: %s", r.Raw)
	}
	// a page id on /posts is not a post
	page := e.do(admin, "POST", "/cms/v2/pages", map[string]any{"title": "P"})
	wantError(t, e.do(admin, "GET", fmt.Sprintf("/cms/v2/posts/%d", page.id()), nil), 404, "rest_post_invalid_id", "Invalid post ID.")

	// trash, then 410, then force
	r = e.do(editor, "DELETE", path, nil)
	wantStatus(t, r, 200)
	if r.obj()["status"] != "trash" || r.obj()["slug"] != "editors__trashed" {
		t.Fatalf("trash: %s", r.Raw)
	}
	wantError(t, e.do(editor, "DELETE", path, nil), 410, "rest_already_trashed", "The post has already been deleted.")
	r = e.do(editor, "DELETE", path+"?force=true", nil)
	wantStatus(t, r, 200)
	if r.obj()["deleted"] != true || field(r.obj(), "previous", "id") != float64(id) || field(r.obj(), "previous", "status") != "trash" {
		t.Fatalf("force delete: %s", r.Raw)
	}
	wantError(t, e.do(editor, "GET", path, nil), 404, "rest_post_invalid_id", "Invalid post ID.")
}

func TestAuthorRules(t *testing.T) {
	e := newEnv(t)
	// an author cannot create posts for someone else
	wantError(t, e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "x", "author": 2}), 403,
		"rest_cannot_edit_others", "Sorry, you are not allowed to create posts as this user.")
	// an editor can, but only for an existing user
	wantError(t, e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "x", "author": 999}), 400,
		"rest_invalid_author", "Invalid author ID.")
	r := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "x", "author": 3})
	wantStatus(t, r, 201)
	if r.obj()["author"] != float64(3) {
		t.Fatalf("author: %s", r.Raw)
	}
	// the author may now edit that draft
	wantStatus(t, e.do(author, "POST", fmt.Sprintf("/cms/v2/posts/%d", r.id()), map[string]any{"title": "mine"}), 200)
	// a contributor may edit its own draft but not once published by an editor
	d := e.do(contributor, "POST", "/cms/v2/posts", map[string]any{"title": "c"})
	wantStatus(t, e.do(contributor, "POST", fmt.Sprintf("/cms/v2/posts/%d", d.id()), map[string]any{"title": "c2"}), 200)
	wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", d.id()), map[string]any{"status": "publish"}), 200)
	wantError(t, e.do(contributor, "POST", fmt.Sprintf("/cms/v2/posts/%d", d.id()), map[string]any{"title": "c3"}), 403,
		"rest_cannot_edit", "Sorry, you are not allowed to edit this post.")
	// sticky needs publish rights
	wantError(t, e.do(contributor, "POST", "/cms/v2/posts", map[string]any{"title": "s", "sticky": true}), 403,
		"rest_cannot_assign_sticky", "Sorry, you are not allowed to make posts sticky.")
}
