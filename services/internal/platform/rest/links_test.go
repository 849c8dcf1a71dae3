package rest

import (
	"net/url"
	"testing"
)

func TestParseEmbed(t *testing.T) {
	tests := []struct {
		query string
		rels  string // JSON; null is every relation
		ok    bool
	}{
		{"", "null", false},
		{"_embed", "null", true},
		{"_embed=1", "null", true},
		{"_embed=true", "null", true},
		{"_embed=0", "null", true}, // PHP's ! "0": falsy, so everything
		{"_embed=,%20", "null", true},
		{"_embed=author,%20wp:term", `["author","wp:term"]`, true},
		{"_embed[]=author&_embed[]=up", `["author","up"]`, true},
	}
	for _, tt := range tests {
		q, _ := url.ParseQuery(tt.query)
		rels, ok := ParseEmbed(q)
		if ok != tt.ok || mustJSON(rels) != tt.rels {
			t.Errorf("%q: %s %v, want %s %v", tt.query, mustJSON(rels), ok, tt.rels, tt.ok)
		}
	}
}
