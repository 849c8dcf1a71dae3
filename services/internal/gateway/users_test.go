package gateway

import (
	"fmt"
	"strings"
	"testing"
)

func TestUsersRoutes(t *testing.T) {
	f := newKitFixture(t)
	admin := []string{"admin", f.adminPW}
	sub := []string{"sub", f.authorPW}

	// Create by an administrator, with a role.
	rec, v := f.do(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": "writer", "email": "w@example.com",
		"password": "ignored", "roles": []string{"author"}, "name": "Writer"}, admin...)
	if rec.Code != 201 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	u := v.(map[string]any)
	id := u["id"].(float64)
	if u["username"] != "writer" || fmt.Sprint(u["roles"]) != "[author]" || rec.Header().Get("Location") != fmt.Sprintf("http://site.test/cms-json/cms/v2/users/%v", id) {
		t.Fatalf("created user %v", u)
	}
	tests := []struct {
		name, method, target string
		body                 any
		auth                 []string
		status               int
		code                 string
	}{
		{"duplicate login", "POST", "/cms-json/cms/v2/users", map[string]any{"username": "writer", "email": "x@example.com", "password": "p"}, admin, 400, "existing_user_login"},
		{"create as subscriber", "POST", "/cms-json/cms/v2/users", map[string]any{"username": "z", "email": "z@example.com", "password": "p"}, sub, 403, "rest_cannot_create_user"},
		{"create anonymous", "POST", "/cms-json/cms/v2/users", map[string]any{"username": "z", "email": "z@example.com", "password": "p"}, nil, 401, "rest_cannot_create_user"},
		{"me anonymous", "GET", "/cms-json/cms/v2/users/me", nil, nil, 401, "rest_not_logged_in"},
		{"me", "GET", "/cms-json/cms/v2/users/me", nil, sub, 200, ""},
		{"author public", "GET", fmt.Sprintf("/cms-json/cms/v2/users/%v", id), nil, nil, 200, ""},
		{"subscriber hidden", "GET", "/cms-json/cms/v2/users/2", nil, nil, 401, "rest_user_cannot_view"},
		{"unknown", "GET", "/cms-json/cms/v2/users/999", nil, admin, 404, "rest_user_invalid_id"},
		{"edit context anonymous", "GET", "/cms-json/cms/v2/users?context=edit", nil, nil, 401, "rest_forbidden_context"},
		{"edit other as subscriber", "POST", fmt.Sprintf("/cms-json/cms/v2/users/%v", id), map[string]any{"name": "x"}, sub, 403, "rest_cannot_edit"},
		{"edit self roles as subscriber", "POST", "/cms-json/cms/v2/users/me", map[string]any{"roles": []string{"administrator"}}, sub, 403, "rest_cannot_edit_roles"},
		{"delete without force", "DELETE", fmt.Sprintf("/cms-json/cms/v2/users/%v?reassign=1", id), nil, admin, 501, "rest_trash_not_supported"},
		{"delete without reassign", "DELETE", fmt.Sprintf("/cms-json/cms/v2/users/%v?force=true", id), nil, admin, 400, "rest_missing_callback_param"},
		// WordPress 6.9.7: 200 [] past the last page, for anyone
		{"page past the end", "GET", "/cms-json/cms/v2/users?page=5", nil, admin, 200, "[]"},
		{"page past the end anonymous", "GET", "/cms-json/cms/v2/users?per_page=1&page=9", nil, nil, 200, "[]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, v := f.do(t, tt.method, tt.target, tt.body, tt.auth...)
			o, _ := v.(map[string]any)
			if tt.code == "[]" {
				if rec.Code != tt.status || rec.Body.String() != "[]" || !strings.Contains(rec.Header().Get("Link"), `rel="prev"`) {
					t.Fatalf("%d %s %v", rec.Code, rec.Body, rec.Header())
				}
				return
			}
			if rec.Code != tt.status || (tt.code != "" && o["code"] != tt.code) {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
		})
	}
	// Embed context hides private fields; edit context shows them to admins.
	_, v = f.do(t, "GET", fmt.Sprintf("/cms-json/cms/v2/users/%v?context=embed", id), nil)
	if o := v.(map[string]any); o["email"] != nil || o["name"] != "Writer" {
		t.Fatalf("embed context %v", o)
	}
	_, v = f.do(t, "GET", fmt.Sprintf("/cms-json/cms/v2/users/%v?context=edit", id), nil, admin...)
	if o := v.(map[string]any); o["email"] != "w@example.com" {
		t.Fatalf("edit context %v", o)
	}
	// WordPress's full capability sets: an author has 10 (+ the role name),
	// an administrator 61 (+ the role name), levels included
	if caps := v.(map[string]any)["capabilities"].(map[string]any); len(caps) != 11 || caps["level_2"] != true || caps["author"] != true || caps["edit_pages"] != nil {
		t.Fatalf("author capabilities %v", caps)
	}
	if pp := v.(map[string]any)["meta"].(map[string]any); fmt.Sprint(pp["persisted_preferences"]) != "[]" {
		t.Fatalf("edit meta %v", pp)
	}
	_, v = f.do(t, "GET", "/cms-json/cms/v2/users/me?context=edit", nil, admin...)
	if caps := v.(map[string]any)["capabilities"].(map[string]any); len(caps) != 62 || caps["level_10"] != true ||
		caps["unfiltered_upload"] != true || caps["moderate_comments"] != true || caps["administrator"] != true {
		t.Fatalf("administrator capabilities (%d) %v", len(caps), caps)
	}
	_, v = f.do(t, "GET", fmt.Sprintf("/cms-json/cms/v2/users/%v", id), nil)
	if m := v.(map[string]any)["meta"]; fmt.Sprint(m) != "map[]" && fmt.Sprint(m) != "[]" {
		t.Fatalf("view meta %v", m)
	}
	// Anonymous listing shows only authors (contributor and up).
	_, v = f.do(t, "GET", "/cms-json/cms/v2/users", nil)
	if l := v.([]any); len(l) != 2 {
		t.Fatalf("public list %v", l)
	}
	// Delete with reassign.
	rec, v = f.do(t, "DELETE", fmt.Sprintf("/cms-json/cms/v2/users/%v?force=true&reassign=1", id), nil, admin...)
	if rec.Code != 200 || v.(map[string]any)["deleted"] != true {
		t.Fatalf("delete: %d %s", rec.Code, rec.Body)
	}
}

func TestApplicationPasswordRoutes(t *testing.T) {
	f := newKitFixture(t)
	sub := []string{"sub", f.authorPW}
	rec, v := f.do(t, "POST", "/cms-json/cms/v2/users/me/application-passwords", map[string]any{"name": "phone"}, sub...)
	if rec.Code != 201 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	created := v.(map[string]any)
	pw, _ := created["password"].(string)
	uuid, _ := created["uuid"].(string)
	if len(pw) != 24 || uuid == "" {
		t.Fatalf("created %v", created)
	}
	// The new password works at once.
	if rec, _ := f.do(t, "GET", "/cms-json/cms/v2/users/me", nil, "sub", pw); rec.Code != 200 {
		t.Fatalf("new password: %d", rec.Code)
	}
	// Introspection names the password of the request itself.
	if rec, v := f.do(t, "GET", "/cms-json/cms/v2/users/me/application-passwords/introspect", nil, "sub", pw); rec.Code != 200 || v.(map[string]any)["uuid"] != uuid {
		t.Fatalf("introspect: %d %s", rec.Code, rec.Body)
	}
	if rec, v := f.do(t, "GET", "/cms-json/cms/v2/users/1/application-passwords/introspect", nil, "sub", pw); rec.Code != 403 ||
		v.(map[string]any)["code"] != "rest_cannot_introspect_app_password_for_non_authenticated_user" {
		t.Fatalf("introspect other: %d %s", rec.Code, rec.Body)
	}
	_, v = f.do(t, "GET", "/cms-json/cms/v2/users/me/application-passwords", nil, sub...)
	if l := v.([]any); len(l) != 2 || l[1].(map[string]any)["password"] != nil {
		t.Fatalf("list %v", l)
	}
	// Someone else's passwords: subscribers may not, administrators may.
	if rec, v := f.do(t, "GET", "/cms-json/cms/v2/users/1/application-passwords", nil, sub...); rec.Code != 403 || v.(map[string]any)["code"] != "rest_cannot_list_application_passwords" {
		t.Fatalf("other's list: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := f.do(t, "GET", "/cms-json/cms/v2/users/2/application-passwords/"+uuid, nil, "admin", f.adminPW); rec.Code != 200 {
		t.Fatalf("admin reads: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := f.do(t, "DELETE", "/cms-json/cms/v2/users/me/application-passwords/"+uuid, nil, sub...); rec.Code != 200 {
		t.Fatalf("revoke: %d %s", rec.Code, rec.Body)
	}
	if rec, v := f.do(t, "GET", "/cms-json/cms/v2/users/me", nil, "sub", pw); rec.Code != 401 || v.(map[string]any)["code"] != "incorrect_password" {
		t.Fatalf("revoked password: %d %s", rec.Code, rec.Body)
	}
	if rec, v := f.do(t, "GET", "/cms-json/cms/v2/users/me/application-passwords/"+uuid, nil, sub...); rec.Code != 404 || v.(map[string]any)["code"] != "rest_application_password_not_found" {
		t.Fatalf("gone: %d %s", rec.Code, rec.Body)
	}
}

// A user name with <b onclick> loses its tags whoever sets it (WordPress's
// pre_user_display_name and friends); the description keeps kses's data
// allowlist.
func TestUserProfileHTMLIsFiltered(t *testing.T) {
	f := newKitFixture(t)
	admin := []string{"admin", f.adminPW}
	sub := []string{"sub", f.authorPW}
	rec, v := f.do(t, "POST", "/cms-json/cms/v2/users/me?context=edit", map[string]any{
		"name": `<b onclick="alert(1)">Sub</b>`, "first_name": `<script>alert(1)</script>First`, "last_name": `<svg onload=alert(1)>Last</svg>`,
		"nickname":    `<img src=x onerror=alert(1)>nick`,
		"description": `<a href="https://ok.example/" onclick="x">me</a><script>alert(1)</script>`}, sub...)
	if rec.Code != 200 {
		t.Fatalf("update: %d %s", rec.Code, rec.Body)
	}
	u := v.(map[string]any)
	if u["name"] != "Sub" || u["first_name"] != "First" || u["last_name"] != "Last" || u["nickname"] != "nick" ||
		u["description"] != `<a href="https://ok.example/">me</a>` {
		t.Fatalf("stored %v", u)
	}
	rec, v = f.do(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": "boldname", "email": "b@example.com",
		"password": "p", "name": `<b onclick="alert(1)">Bold</b>`}, admin...)
	if rec.Code != 201 || v.(map[string]any)["name"] != "Bold" {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
}
