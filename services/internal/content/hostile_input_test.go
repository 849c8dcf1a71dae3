package content

import (
	"siteplane.dev/services/internal/content/store"
	"strings"
	"testing"
)

// The inputs of issue 15 that used to reach PostgreSQL and answer 500 each
// answer WordPress's 4xx (or, where WordPress answers 200, 200).
func TestHostileInputsNever5xx(t *testing.T) {
	e := newEnv(t)
	wantStatus(t, e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "One", "status": "publish"}), 201)
	terms := strings.TrimSuffix(strings.Repeat("a+", 70000), "+")
	tests := []struct {
		name, who, method, path string
		body                    any
		status                  int
		code                    string
	}{
		{"search NUL", anon, "GET", "/cms/v2/posts?search=%00", nil, 400, "rest_invalid_param"},
		{"search invalid UTF-8", anon, "GET", "/cms/v2/posts?search=%ff", nil, 400, "rest_invalid_param"},
		{"slug NUL", anon, "GET", "/cms/v2/posts?slug=%00", nil, 400, "rest_invalid_param"},
		{"slug list NUL", anon, "GET", "/cms/v2/posts?slug[]=a&slug[]=%00", nil, 400, "rest_invalid_param"},
		{"offset -1", anon, "GET", "/cms/v2/posts?offset=-1", nil, 400, "rest_invalid_param"},
		{"comments offset -1", anon, "GET", "/cms/v2/comments?offset=-1", nil, 400, "rest_invalid_param"},
		{"tags offset -1", anon, "GET", "/cms/v2/tags?offset=-1", nil, 400, "rest_invalid_param"},
		{"categories raw offset -1 (absint)", anon, "GET", "/cms/v2/categories?offset=-1", nil, 200, ""},
		{"huge page", anon, "GET", "/cms/v2/posts?page=9223372036854775807", nil, 400, "rest_post_invalid_page_number"},
		{"huge page of pages (none)", anon, "GET", "/cms/v2/pages?page=9223372036854775807", nil, 200, ""},
		{"huge page of comments", anon, "GET", "/cms/v2/comments?page=9223372036854775807", nil, 200, ""},
		{"huge page of categories (no page check in WordPress)", anon, "GET", "/cms/v2/categories?page=9223372036854775807", nil, 200, ""},
		{"huge page of search", anon, "GET", "/cms/v2/search?page=9223372036854775807", nil, 400, "rest_search_invalid_page_number"},
		{"title NUL", admin, "POST", "/cms/v2/posts", map[string]any{"title": "a\x00b"}, 400, "rest_invalid_param"},
		{"content NUL", contributor, "POST", "/cms/v2/posts", map[string]any{"content": map[string]any{"raw": "\x00"}}, 400, "rest_invalid_param"},
		{"term name NUL", admin, "POST", "/cms/v2/tags", map[string]any{"name": "x\x00"}, 400, "rest_invalid_param"},
		{"huge menu_order", anon, "GET", "/cms/v2/pages?menu_order=9223372036854775807", nil, 200, ""},
		{"huge menu_order of menu items", admin, "GET", "/cms/v2/menu-items?menu_order=99999999999999999999999", nil, 200, ""},
		{"huge excerpt_length", anon, "GET", "/cms/v2/posts/1?excerpt_length=9223372036854775807", nil, 200, ""},
		{"huge excerpt_length of a list", anon, "GET", "/cms/v2/posts?excerpt_length=99999999999999999999999", nil, 200, ""},
		{"a search of one excluded word", anon, "GET", "/cms/v2/search?search=-1", nil, 200, ""},
		{"posts search of one excluded word", anon, "GET", "/cms/v2/posts?search=-1&orderby=relevance", nil, 200, ""},
		{"70,000 search terms are one phrase, as in WP_Query", anon, "GET", "/cms/v2/posts?search=" + terms, nil, 200, ""},
		{"70,000 search terms, relevance", anon, "GET", "/cms/v2/posts?orderby=relevance&search=" + terms, nil, 200, ""},
		{"70,000 search terms, search route", anon, "GET", "/cms/v2/search?search=" + terms, nil, 200, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(tc.who, tc.method, tc.path, tc.body)
			if tc.code == "" {
				wantStatus(t, r, tc.status)
				return
			}
			wantError(t, r, tc.status, tc.code, "")
		})
	}
}

func TestManySearchWordsAreOnePhrase(t *testing.T) {
	words := strings.Repeat("w ", 10)
	if got := store.SearchWords(words); len(got) != 1 || got[0] != words {
		t.Fatalf("got %q", got)
	}
	if got := store.SearchWords(strings.Repeat("w ", 9)); len(got) != 9 {
		t.Fatalf("nine words: %q", got)
	}
}
