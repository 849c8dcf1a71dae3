package stack

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// testOutput is where tests leave files for review: SITEPLANE_TEST_OUTPUT,
// else .cache/test-output/ at the repository root.
func testOutput(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("SITEPLANE_TEST_OUTPUT")
	if dir == "" {
		dir, _ = filepath.Abs("../../.cache/test-output")
	}
	dir = filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Headless Chromium loads the front page and a post: they render without
// console errors or failed requests, the first navigation link leads to a
// page, and screenshots are saved for review.
func TestBrowserRendersWebsite(t *testing.T) {
	needs(t, contract.ServiceContent)
	modules := npmModules(t)
	browser := chromiumPath(t)
	create(t, "pages", map[string]any{"title": "Browser visit page", "status": "publish", "menu_order": -100, "content": "A page to click to."})
	post := create(t, "posts", map[string]any{"title": "Seen in a browser", "status": "publish",
		"content": "<!-- wp:paragraph -->\n<p>Rendered on the server.</p>\n<!-- /wp:paragraph -->"})
	out := testOutput(t, "website")
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "testdata/browser-check.js", st.SiteURL, post["link"].(string), out, browser)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	stdout, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("browser: %v\n%s\n%s", err, stdout, stderr)
	}
	var got struct {
		Front struct {
			Status    int
			Title     string
			SiteTitle string
		}
		Nav     []string
		Clicked *struct {
			Status int
			URL    string
			H1     string
		}
		Post struct {
			Status int
			H1     string
		}
		Problems []string
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(string(stdout))), &got); err != nil {
		t.Fatalf("output %q: %v", stdout, err)
	}
	if got.Front.Status != 200 || got.Front.SiteTitle != "Stack Test" || !strings.HasPrefix(got.Front.Title, "Stack Test") {
		t.Errorf("front page: %+v", got.Front)
	}
	if len(got.Nav) == 0 || got.Clicked == nil || got.Clicked.Status != 200 || got.Clicked.H1 == "" || got.Clicked.URL != got.Nav[0] {
		t.Errorf("navigation: links %v, click %+v", got.Nav, got.Clicked)
	}
	if got.Post.Status != 200 || got.Post.H1 != "Seen in a browser" {
		t.Errorf("post: %+v", got.Post)
	}
	if len(got.Problems) > 0 {
		t.Errorf("browser problems: %v", got.Problems)
	}
	for _, f := range []string{"front-page.png", "post.png"} {
		if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() < 1000 {
			t.Errorf("screenshot %s: %v", f, err)
		}
	}
	t.Logf("screenshots in %s", out)
}
