//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// walkthroughMarker precedes the README's Kubernetes walk-through block.
const walkthroughMarker = "<!-- e2e: walkthrough -->"

// readmeBlock returns the shell block that follows marker in the README.
func readmeBlock(t *testing.T, marker string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(env.root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, marker)
	if i < 0 {
		t.Fatalf("README.md has no %q", marker)
	}
	s = s[i+len(marker):]
	start := strings.Index(s, "```sh\n")
	if start < 0 {
		t.Fatal("no ```sh block after the marker")
	}
	s = s[start+len("```sh\n"):]
	end := strings.Index(s, "\n```")
	if end < 0 {
		t.Fatal("the block after the marker does not end")
	}
	return s[:end+1]
}

var forwardPID = regexp.MustCompile(`\(pid ([0-9]+),`)

// TestWalkthrough runs the README's "Run it on Kubernetes" commands as they
// are written there (read from the file, not copied here), in bash from the
// repository's root, against the cluster under test: the chart (the same
// release as the suite's), the sample PostgreSQL, the Site, `kubectl wait`
// for Ready, the port-forward on a free port, and a post created through
// it. The commands use the kubeconfig's namespace (default); everything
// they made is removed afterwards.
func TestWalkthrough(t *testing.T) {
	script := readmeBlock(t, walkthroughMarker)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	t.Cleanup(func() { cleanWalkthrough(t) })

	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, "bash", "-e", "-c", script)
	cmd.Dir = env.root
	cmd.Stdout, cmd.Stderr = &out, &errOut
	t0 := time.Now()
	err := cmd.Run()
	t.Logf("README walk-through: %.1fs\n--- stdout\n%s--- stderr\n%s", time.Since(t0).Seconds(), out.String(), errOut.String())
	if m := forwardPID.FindStringSubmatch(errOut.String()); m != nil && err != nil {
		// The block's last line stops the port-forward; a failure before it
		// leaves it running.
		if pid, _ := strconv.Atoi(m[1]); pid > 0 {
			_ = syscall.Kill(pid, syscall.SIGTERM)
		}
	}
	if err != nil {
		t.Fatalf("the README's commands failed: %v", err)
	}
	stdout := out.String()
	for _, want := range []string{`condition met`, `"name":"My Blog"`, `"status":"publish"`, `sign in at http://127.0.0.1:`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the walk-through's output lacks %q", want)
		}
	}
	if strings.Contains(stdout, "http://127.0.0.1:8080/") {
		t.Log("note: the free port happened to be 8080")
	}
}

// cleanWalkthrough deletes what the README's commands made in the default
// namespace (the chart stays: it is the suite's release).
func cleanWalkthrough(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	site := &sitev1.Site{ObjectMeta: metav1.ObjectMeta{Name: "blog", Namespace: "default"}}
	_ = client.IgnoreNotFound(env.c.Delete(ctx, site))
	k := env.kube
	_ = k.CoreV1().Secrets("default").Delete(ctx, "blog-db", metav1.DeleteOptions{})
	_ = k.CoreV1().Secrets("default").Delete(ctx, "postgres", metav1.DeleteOptions{})
	_ = k.AppsV1().Deployments("default").Delete(ctx, "postgres", metav1.DeleteOptions{})
	_ = k.CoreV1().Services("default").Delete(ctx, "postgres", metav1.DeleteOptions{})
	_ = os.Remove(filepath.Join(env.root, "site.yaml"))
}
