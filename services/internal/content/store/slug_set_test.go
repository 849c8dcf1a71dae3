package store

import (
	"testing"
)

// TestSlugSetAnswersOnlyWhatItCovers: the set answers from the posts it
// holds, and leaves to the database any want that reaches a slug it did
// not read.
func TestSlugSetAnswersOnlyWhatItCovers(t *testing.T) {
	set := &SlugSet{
		Covered: map[string]map[string]bool{TypePost.Name: {"a": true, "a-2": true, "a-3": true}},
		Rows:    map[string][]SlugRow{TypePost.Name: {{ID: 1, Slug: "a"}, {ID: 2, Slug: "a-3"}}},
	}
	if s, ok := set.Free(TypePost, SlugWant{Slug: "a"}); !ok || s != "a-2" {
		t.Fatalf("free(a) = %q, %v; want a-2", s, ok)
	}
	set.Add(TypePost, 3, 0, "a-2")
	if s, ok := set.Free(TypePost, SlugWant{Slug: "a"}); ok {
		t.Fatalf("free(a) with a, a-2, a-3 taken = %q; want the database to decide (a-4 was not read)", s)
	}
	if _, ok := set.Free(TypePost, SlugWant{Slug: "b"}); ok {
		t.Fatal("free(b): b was not read, yet answered")
	}
	if _, ok := set.Free(TypePage, SlugWant{Slug: "a"}); ok {
		t.Fatal("free(a) for pages: not read, yet answered")
	}
}
