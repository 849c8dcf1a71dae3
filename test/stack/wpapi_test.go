package stack

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"context"

	"siteplane.dev/services/pkg/contract"
)

// npmModules is the node_modules directory hack/npm-clients.sh installs
// (SITEPLANE_NPM_MODULES overrides it). Outside CI a missing install skips
// the npm client tests; in CI it fails them.
func npmModules(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SITEPLANE_NPM_MODULES")
	if dir == "" {
		dir, _ = filepath.Abs("../../bin/npm/node_modules")
	}
	if _, err := os.Stat(filepath.Join(dir, "wpapi", "package.json")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("wpapi is not installed in %s (run hack/npm-clients.sh)", dir)
		}
		t.Skipf("wpapi is not installed in %s: run hack/npm-clients.sh", dir)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	return dir
}

// runNode runs a script of testdata with node and the npm modules, for at
// most a minute, and returns its standard output.
func runNode(t *testing.T, modules, script string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("node: %v\n%s\n%s", err, out, stderr)
	}
	return out
}

// The real wpapi package discovers the REST API from the site URL (the
// Link header of the front page) and calls a discovered route.
func TestWPAPIDiscoverFromSiteURL(t *testing.T) {
	needs(t, contract.ServiceContent)
	modules := npmModules(t)
	post := create(t, "posts", map[string]any{"title": "Discovered", "status": "publish"})
	out := runNode(t, modules, "testdata/wpapi-discover.js", st.SiteURL)
	var got struct {
		Endpoint string `json:"endpoint"`
		Posts    int    `json:"posts"`
		First    string `json:"first"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(string(out))), &got); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if got.Endpoint != st.SiteURL+"/cms-json/" || got.Posts == 0 || got.First != post["link"] {
		t.Errorf("discovered %+v, want endpoint %s/cms-json/ and the newest post %v", got, st.SiteURL, post["link"])
	}
}
