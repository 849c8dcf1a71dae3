package blocks

import (
	"strings"
	"testing"
)

// wantContains fails t for each of want that got lacks and each of not
// that it has.
func wantContains(t *testing.T, got string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("lacks %q in %s", w, got)
		}
	}
	for _, n := range not {
		if strings.Contains(got, n) {
			t.Errorf("has %q in %s", n, got)
		}
	}
}
