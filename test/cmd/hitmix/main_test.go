package main

import (
	"slices"
	"testing"
)

// The runs over 1 and over 3 gateways must ask the same URLs: draw is a
// function of its seed, stays within the list, and puts the popular URLs
// at shuffled places rather than at the list's head.
func TestDraw(t *testing.T) {
	for _, tc := range []struct {
		name          string
		urls, n       int
		seed          int64
		wantDistinctA int // at least this many distinct URLs
	}{
		{"small list", 10, 1000, 1, 5},
		{"the bench's mix", 1000, 5000, 1, 500},
		{"another seed", 1000, 5000, 7, 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := draw(tc.urls, tc.n, 1.1, tc.seed), draw(tc.urls, tc.n, 1.1, tc.seed)
			if !slices.Equal(a, b) {
				t.Fatal("two draws with one seed differ")
			}
			seen := map[int]int{}
			for _, u := range a {
				if u < 0 || u >= tc.urls {
					t.Fatalf("index %d outside 0..%d", u, tc.urls-1)
				}
				seen[u]++
			}
			if len(seen) < tc.wantDistinctA {
				t.Fatalf("%d distinct URLs, want at least %d", len(seen), tc.wantDistinctA)
			}
			top, most := 0, 0
			for u, c := range seen {
				if c > most {
					top, most = u, c
				}
			}
			if tc.urls > 100 && top == 0 {
				t.Fatal("the most popular URL is the list's first: ranks are not shuffled")
			}
		})
	}
}
