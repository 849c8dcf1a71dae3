//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
)

func mustQuantity(s string) resource.Quantity { return resource.MustParse(s) }

// pvDir makes a world-writable directory for a hostPath volume under
// E2E_PV_DIR, which the local provider sets (the node is this host).
func pvDir(t *testing.T, name string) string {
	t.Helper()
	base := os.Getenv("E2E_PV_DIR")
	if base == "" {
		t.Fatal("the cluster has no default StorageClass and E2E_PV_DIR is not set: the media claim cannot bind")
	}
	dir := filepath.Join(base, name)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil { // not masked by umask
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}
