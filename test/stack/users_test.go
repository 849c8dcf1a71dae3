package stack

import (
	"fmt"
	"testing"
)

func TestUsersAndApplicationPasswordsOverHTTP(t *testing.T) {
	r := call(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": "editor1", "email": "editor1@example.com",
		"password": "unused", "roles": []string{"editor"}}, admin()...)
	if r.Status != 201 {
		t.Fatalf("create user: %d %s", r.Status, r.Raw)
	}
	id := r.Obj()["id"].(float64)
	r = call(t, "POST", fmt.Sprintf("/cms-json/cms/v2/users/%v/application-passwords", id), map[string]any{"name": "ci"}, admin()...)
	if r.Status != 201 {
		t.Fatalf("create application password: %d %s", r.Status, r.Raw)
	}
	pw := r.Obj()["password"].(string)
	me := call(t, "GET", "/cms-json/cms/v2/users/me?context=edit", nil, "editor1", chunk(pw))
	if me.Status != 200 || me.Obj()["username"] != "editor1" || fmt.Sprint(me.Obj()["roles"]) != "[editor]" {
		t.Fatalf("me: %d %s", me.Status, me.Raw)
	}
	expectError(t, call(t, "GET", "/cms-json/cms/v2/users/me", nil), 401, "rest_not_logged_in")
	expectError(t, call(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": "x", "email": "x@example.com", "password": "p"}, "editor1", pw), 403, "rest_cannot_create_user")
}
