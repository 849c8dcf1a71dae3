package gateway

import (
	"testing"
)

// /users/me's Allow and the order of the users item checks, as WordPress
// 6.9.7 answers them (checked against the peer).
func TestUsersAllowAndItemChecks(t *testing.T) {
	f := newKitFixture(t)
	admin := []string{"admin", f.adminPW}
	sub := []string{"sub", f.authorPW}
	tests := []struct {
		name, target string
		auth         []string
		status       int
		code, allow  string
	}{
		// GET /users/me has no permission check: its handler refuses.
		{"me anonymous", "/cms-json/cms/v2/users/me", nil, 401, "rest_not_logged_in", "GET"},
		{"me admin", "/cms-json/cms/v2/users/me", admin, 200, "", "GET, POST, PUT, PATCH, DELETE"},
		{"me subscriber", "/cms-json/cms/v2/users/me", sub, 200, "", "GET, POST, PUT, PATCH"},
		// the edit context is refused before the visibility check
		{"edit context anonymous", "/cms-json/cms/v2/users/1?context=edit", nil, 401, "rest_forbidden_context", ""},
		{"edit context subscriber", "/cms-json/cms/v2/users/1?context=edit", sub, 403, "rest_forbidden_context", ""},
		{"edit context admin", "/cms-json/cms/v2/users/2?context=edit", admin, 200, "", "GET, POST, PUT, PATCH, DELETE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, v := f.do(t, "GET", tt.target, nil, tt.auth...)
			o, _ := v.(map[string]any)
			if rec.Code != tt.status || (tt.code != "" && o["code"] != tt.code) || rec.Header().Get("Allow") != tt.allow {
				t.Fatalf("%d Allow %q %s", rec.Code, rec.Header().Get("Allow"), rec.Body)
			}
		})
	}
}
