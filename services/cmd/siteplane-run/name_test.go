package main

import "testing"

// A stack's name becomes a directory under .cache/ and a PostgreSQL
// instance name; anything that could leave .cache/ or reach a shell is
// refused.
func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"run": true, "bench-stack": true, "Run2": true,
		"": false, "../run": false, "a/b": false, "a b": false, "x;rm": false, ".": false,
	} {
		if got := validName(name); got != want {
			t.Errorf("validName(%q) = %v, want %v", name, got, want)
		}
	}
}
