package main

import (
	"bytes"
	"os"
	"testing"
)

// TestCheckedInFileIsGenerated fails when blocktypes.json is not what the
// generator makes from the WordPress release (edited by hand, or generated
// by an older generator): regenerate with `go generate ./services/internal/content/blocktypes`.
func TestCheckedInFileIsGenerated(t *testing.T) {
	tarball := DefaultTarball()
	if _, err := os.Stat(tarball); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the WordPress tarball is missing (%v); set %s", err, tarballEnv)
		}
		t.Skipf("no WordPress tarball at %q; set %s to check blocktypes.json", tarball, tarballEnv)
	}
	want, err := GenerateFile(tarball)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../blocktypes.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("blocktypes.json differs from what the generator makes from %s (%d bytes, generated %d): run go generate ./services/internal/content/blocktypes", tarball, len(got), len(want))
	}
}
