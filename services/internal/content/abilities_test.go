package content

import (
	"strings"
	"testing"
)

// cms-abilities/v1 answers as WordPress 6.9.7's wp-abilities/v1 answers for
// an empty registry: empty pages with the pagination headers for anyone who
// may read, rest_forbidden for anonymous callers, and each name not found
// (the run route says so before any other check, to anonymous callers too).
func TestAbilitiesRoutes(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		who, method, path string
		status            int
		code              string
		prev              bool // a rel="prev" Link
	}{
		{subscriber, "GET", "/cms-abilities/v1/abilities", 200, "", false},
		{admin, "GET", "/cms-abilities/v1/abilities?category=site&per_page=100", 200, "", false},
		{admin, "GET", "/cms-abilities/v1/abilities?page=3", 200, "", true},
		{admin, "GET", "/cms-abilities/v1/categories", 200, "", false},
		{anon, "GET", "/cms-abilities/v1/abilities", 401, "rest_forbidden", false},
		{anon, "GET", "/cms-abilities/v1/categories", 401, "rest_forbidden", false},
		{admin, "GET", "/cms-abilities/v1/abilities?per_page=101", 400, "rest_invalid_param", false},
		{admin, "GET", "/cms-abilities/v1/categories?page=0", 400, "rest_invalid_param", false},
		{admin, "GET", "/cms-abilities/v1/abilities/core/get-site-info", 404, "rest_ability_not_found", false},
		{anon, "GET", "/cms-abilities/v1/abilities/core/get-site-info", 401, "rest_forbidden", false},
		{admin, "GET", "/cms-abilities/v1/categories/site", 404, "rest_ability_category_not_found", false},
		{anon, "GET", "/cms-abilities/v1/abilities/core/get-site-info/run", 404, "rest_ability_not_found", false},
		{admin, "POST", "/cms-abilities/v1/abilities/core/get-site-info/run", 404, "rest_ability_not_found", false},
		{anon, "DELETE", "/cms-abilities/v1/abilities/x/run", 404, "rest_ability_not_found", false},
	}
	for _, c := range cases {
		t.Run(c.who+" "+c.method+" "+c.path, func(t *testing.T) {
			r := e.do(c.who, c.method, c.path, nil)
			if c.code != "" {
				wantError(t, r, c.status, c.code, "")
				return
			}
			wantStatus(t, r, 200)
			if strings.TrimSpace(string(r.Raw)) != "[]" || r.Header.Get("X-WP-Total") != "0" || r.Header.Get("X-WP-TotalPages") != "0" {
				t.Errorf("body %s, X-WP-Total %q, X-WP-TotalPages %q", r.Raw, r.Header.Get("X-WP-Total"), r.Header.Get("X-WP-TotalPages"))
			}
			if got := strings.Contains(strings.Join(r.Header.Values("Link"), ","), `rel="prev"`); got != c.prev {
				t.Errorf("rel=prev %v, want %v: %v", got, c.prev, r.Header.Values("Link"))
			}
		})
	}
}
