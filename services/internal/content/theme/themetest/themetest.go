// Package themetest gives tests the published block themes they load:
// Twenty Twenty-Three, whose directory hack/tt3.sh provides.
package themetest

import (
	"os"
	"testing"
)

// EnvTT3Dir names Twenty Twenty-Three's directory (hack/test.sh sets it
// from hack/tt3.sh).
const EnvTT3Dir = "SITEPLANE_TT3_DIR"

// TT3Dir returns Twenty Twenty-Three's directory; without one the test
// skips, or fails under CI=true (where hack/tt3.sh installs it).
func TT3Dir(t testing.TB) string {
	t.Helper()
	d := os.Getenv(EnvTT3Dir)
	if d == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(EnvTT3Dir + " is not set (hack/tt3.sh)")
		}
		t.Skip(EnvTT3Dir + " is not set (hack/tt3.sh)")
	}
	return d
}
