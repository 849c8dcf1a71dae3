package website

import "testing"

func TestIsEmbedPath(t *testing.T) {
	for path, want := range map[string]bool{
		"/hello/embed/":      true,
		"/hello/embed":       true,
		"/2026/11/a/embed/":  true,
		"//a//embed//":       true,
		"/embed/":            false, // a page whose slug is embed
		"/":                  false,
		"":                   false,
		"/hello/":            false,
		"/hello/embedded/":   false,
		"/hello/embed/more/": false,
	} {
		if got := isEmbedPath(path); got != want {
			t.Errorf("isEmbedPath(%q) = %v, want %v", path, got, want)
		}
	}
}
