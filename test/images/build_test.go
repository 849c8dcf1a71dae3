package images

import (
	"strings"
	"testing"
)

// Equal binaries make equal images (no timestamps), so the content tag
// changes exactly when the binary does.
func TestContentTagFollowsTheBinary(t *testing.T) {
	tagOf := func(bin string) string {
		img, err := Image(BinaryFiles([]byte(bin), nil), BinaryConfig("gateway"))
		if err != nil {
			t.Fatal(err)
		}
		tag, err := ContentTag("0.1.0", img)
		if err != nil {
			t.Fatal(err)
		}
		return tag
	}
	a, a2, b := tagOf("binary one"), tagOf("binary one"), tagOf("binary two")
	if a != a2 {
		t.Errorf("same binary, different tags: %s %s", a, a2)
	}
	if a == b {
		t.Errorf("different binaries, same tag %s", a)
	}
	if !strings.HasPrefix(a, "0.1.0-") || len(a) != len("0.1.0-")+12 {
		t.Errorf("tag %q is not <release>-<12 hex>", a)
	}
}

func TestImageRunsAsNonRootWithNoBase(t *testing.T) {
	img, err := Image(BinaryFiles([]byte("x"), []byte("ca")), BinaryConfig("media"))
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if cf.Config.User != "65532:65532" || len(cf.Config.Entrypoint) != 1 || cf.Config.Entrypoint[0] != "/app" {
		t.Errorf("config %+v", cf.Config)
	}
	if cf.OS != "linux" || cf.Architecture == "" || !cf.Created.IsZero() {
		t.Errorf("platform %s/%s created %v", cf.OS, cf.Architecture, cf.Created)
	}
	layers, err := img.Layers()
	if err != nil || len(layers) != 1 {
		t.Fatalf("want exactly one layer (no base image), got %d (%v)", len(layers), err)
	}
}
