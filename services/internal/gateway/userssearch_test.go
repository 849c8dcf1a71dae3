package gateway

import (
	"testing"
)

// A caller without list_users searches only the columns WordPress searches
// for them (ID, login, nicename, display name): an e-mail address or a URL
// is no oracle over the site's authors (issue 26).
func TestUserSearchColumnsFollowTheCaller(t *testing.T) {
	f := newKitFixture(t)
	admin := []string{"admin", f.adminPW}
	rec, _ := f.do(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": "writer", "email": "hidden@mail.example",
		"password": "ignored", "roles": []string{"author"}, "name": "Writer", "url": "https://secret.example/"}, admin...)
	if rec.Code != 201 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	tests := []struct {
		name, search string
		auth         []string
		found        bool
	}{
		{"anonymous by e-mail", "@mail.example", nil, false},
		{"anonymous by part of the e-mail", "hidden", nil, false},
		{"anonymous by URL", "secret.example", nil, false},
		{"anonymous by login", "writ", nil, true},
		{"anonymous by display name", "Writer", nil, true},
		{"administrator by e-mail", "@mail.example", admin, true},
		{"administrator by URL", "secret.example", admin, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec, v := f.do(t, "GET", "/cms-json/cms/v2/users?_fields=slug&search="+tc.search, nil, tc.auth...)
			list, _ := v.([]any)
			found := false
			for _, it := range list {
				if m, _ := it.(map[string]any); m["slug"] == "writer" {
					found = true
				}
			}
			if rec.Code != 200 || found != tc.found {
				t.Fatalf("%d found=%v, want 200 found=%v: %s", rec.Code, found, tc.found, rec.Body)
			}
		})
	}
}
