package gateway

import (
	"encoding/json"
	"testing"
)

// The editor's preferences are kept per user (users/me's
// meta.persisted_preferences in the edit context): what one browser wrote
// the next reads, another user does not see them, and a value that is not
// an object is refused.
func TestUserPersistedPreferences(t *testing.T) {
	f := newKitFixture(t)
	admin := []string{"admin", f.adminPW}
	sub := []string{"sub", f.authorPW}
	prefs := map[string]any{"core/edit-post": map[string]any{"welcomeGuide": false}, "_modified": "2026-11-28T17:00:00.000Z"}
	for _, tt := range []struct {
		name, method string
		body         any
		auth         []string
		status       int
		want         string // persisted_preferences in the answer
	}{
		{"none stored", "GET", nil, sub, 200, `[]`},
		{"written", "PUT", map[string]any{"meta": map[string]any{"persisted_preferences": prefs}}, sub, 200, `{"_modified":"2026-11-28T17:00:00.000Z","core/edit-post":{"welcomeGuide":false}}`},
		{"read back", "GET", nil, sub, 200, `{"_modified":"2026-11-28T17:00:00.000Z","core/edit-post":{"welcomeGuide":false}}`},
		{"not another user's", "GET", nil, admin, 200, `[]`},
		{"not an object", "PUT", map[string]any{"meta": map[string]any{"persisted_preferences": "x"}}, sub, 400, ``},
		{"kept after the refusal", "GET", nil, sub, 200, `{"_modified":"2026-11-28T17:00:00.000Z","core/edit-post":{"welcomeGuide":false}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec, v := f.do(t, tt.method, "/cms-json/cms/v2/users/me?context=edit", tt.body, tt.auth...)
			if rec.Code != tt.status {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
			if tt.want == "" {
				return
			}
			meta, _ := v.(map[string]any)["meta"].(map[string]any)
			got, _ := json.Marshal(meta["persisted_preferences"])
			if string(got) != tt.want {
				t.Errorf("persisted_preferences %s, want %s", got, tt.want)
			}
		})
	}
}
