package gateway

import (
	"fmt"
	"testing"
)

// The users routes' arguments WordPress 6.9.7 declares (capabilities,
// has_published_posts, search_columns, the item's id, reassign as its
// check_reassign sees it), each answered as the peer answers.
func TestUsersFilterArguments(t *testing.T) {
	f := newKitFixture(t)
	admin := []string{"admin", f.adminPW}
	rec, _ := f.do(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": "writer", "email": "hidden@mail.example",
		"password": "ignored", "roles": []string{"author"}, "name": "Writer"}, admin...)
	if rec.Code != 201 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	tests := []struct {
		name, method, query string
		auth                []string
		status              int
		code                string
		found               bool
	}{
		{"search the e-mail only", "GET", "users?search=hidden&search_columns=email", admin, 200, "", true},
		{"search the login only", "GET", "users?search=hidden&search_columns=username", admin, 200, "", false},
		{"search the name only", "GET", "users?search=writ&search_columns=name", admin, 200, "", true},
		{"e-mail column refused to anonymous", "GET", "users?search=hidden&search_columns=email", nil, 200, "", false},
		{"unknown column", "GET", "users?search=writ&search_columns=url", admin, 400, "rest_invalid_param", false},
		{"a capability of the role", "GET", "users?capabilities=edit_published_posts", admin, 200, "", true},
		{"a capability it lacks", "GET", "users?capabilities=manage_options", admin, 200, "", false},
		{"the role as a capability", "GET", "users?capabilities=author", admin, 200, "", true},
		{"capabilities anonymous", "GET", "users?capabilities=edit_posts", nil, 401, "rest_user_cannot_view", false},
		{"capabilities before the edit context", "GET", "users?capabilities=edit_posts&context=edit", nil, 401, "rest_user_cannot_view", false},
		{"has published posts", "GET", "users?has_published_posts=true", nil, 200, "", true},
		{"has published posts of a type", "GET", "users?has_published_posts[]=post", admin, 200, "", true},
		{"has published posts of no type", "GET", "users?has_published_posts=bogus", admin, 400, "rest_invalid_param", false},
		{"reassign not a number", "DELETE", "users/999999?force=true&reassign=abc", admin, 400, "rest_invalid_param", false},
		{"reassign a list", "DELETE", "users/999999?force=true&reassign[]=1", admin, 400, "rest_invalid_param", false},
		{"reassign false", "DELETE", "users/999999?force=true&reassign=false", admin, 404, "rest_user_invalid_id", false},
		{"reassign a decimal", "DELETE", "users/999999?force=true&reassign=1.5", admin, 404, "rest_user_invalid_id", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec, v := f.do(t, tc.method, "/cms-json/cms/v2/"+tc.query, nil, tc.auth...)
			found := false
			list, _ := v.([]any)
			for _, it := range list {
				if m, _ := it.(map[string]any); m["slug"] == "writer" {
					found = true
				}
			}
			o, _ := v.(map[string]any)
			if rec.Code != tc.status || found != tc.found || (tc.code != "" && o["code"] != tc.code) {
				t.Fatalf("%d found=%v: %s", rec.Code, found, rec.Body)
			}
		})
	}
}

// OPTIONS lists the arguments with WordPress's types.
func TestUsersOptionsArguments(t *testing.T) {
	f := newKitFixture(t)
	tests := []struct {
		route, method, arg, typ string
	}{
		{"users", "GET", "capabilities", "array"},
		{"users", "GET", "has_published_posts", "[boolean array]"},
		{"users", "GET", "search_columns", "array"},
		{"users/1", "GET", "id", "integer"},
		{"users/1", "POST", "id", "integer"},
		{"users/1", "DELETE", "id", "integer"},
		{"users/1", "DELETE", "reassign", "integer"},
		{"users/me", "DELETE", "reassign", "integer"},
		{"users/me", "GET", "id", "<nil>"},
	}
	for _, tc := range tests {
		t.Run(tc.route+" "+tc.method+" "+tc.arg, func(t *testing.T) {
			_, v := f.do(t, "OPTIONS", "/cms-json/cms/v2/"+tc.route, nil)
			got := "no endpoint"
			for _, ep := range v.(map[string]any)["endpoints"].([]any) {
				e := ep.(map[string]any)
				if fmt.Sprint(e["methods"].([]any)[0]) == tc.method {
					a, _ := e["args"].(map[string]any)[tc.arg].(map[string]any)
					got = fmt.Sprint(a["type"])
				}
			}
			if got != tc.typ {
				t.Fatalf("type %s, want %s", got, tc.typ)
			}
		})
	}
}
