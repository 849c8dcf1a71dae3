package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// CNPGModule and CNPGVersion are the CloudNativePG release whose CRDs the
// envtest suite installs (from its Go module, through the module proxy or
// the module cache) and whose operator the e2e suite runs
// (hack/cluster/cnpg.sh pins the same version).
const (
	CNPGModule  = "github.com/cloudnative-pg/cloudnative-pg"
	CNPGVersion = "v1.29.1"
)

var (
	// cnpgCRDs is the directory of CloudNativePG's CRDs; cnpgErr says why
	// it is not available.
	cnpgCRDs string
	cnpgErr  error
)

// cnpgCRDDir downloads (once; then from the module cache) CloudNativePG's
// module at the pinned version and returns its CRD directory.
func cnpgCRDDir() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", CNPGModule+"@"+CNPGVersion)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	var mod struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &mod); err != nil || jerr != nil || mod.Error != "" {
		return "", fmt.Errorf("go mod download %s@%s: %v %s", CNPGModule, CNPGVersion, err, mod.Error)
	}
	dir := filepath.Join(mod.Dir, "config", "crd", "bases")
	if _, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("CloudNativePG CRDs: %w", err)
	}
	return dir, nil
}

// requireCNPG skips (outside CI) or fails (in CI) a test that needs
// CloudNativePG's CRDs.
func requireCNPG(t *testing.T) {
	t.Helper()
	requireEnv(t)
	if cnpgErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(cnpgErr)
		}
		t.Skip(cnpgErr.Error())
	}
}
