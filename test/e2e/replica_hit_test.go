//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// replicaHitRatio is issue 34's hit-ratio figure on the cluster: the edge
// cache's hit ratio of a 1,000-URL anonymous read mix (500 posts' REST
// answers and their 500 pages, Zipf-drawn by test/cmd/hitmix, 4 at a time)
// through the gateway Service, with the Site's current gateway replicas.
// Each gateway has its own cache and the Service balances connections, so
// the ratio with 3 depends on how hitmix's 4 connections landed. Each run
// starts from cold caches (one create drops every gateway's cache).
func replicaHitRatio(t *testing.T, gw, label string, create func(int) response, hitmix, urls string) {
	t.Helper()
	if r := create(-1); r.Status != 201 {
		t.Fatalf("create before the hit mix: %s", r)
	}
	time.Sleep(time.Second) // every gateway hears it (milliseconds)
	for _, n := range []string{"1000", "5000"} {
		out, err := exec.Command(hitmix, "-label", label, "-urls", urls, "-gateways", gw, "-requests", n, "-zipf", "1.1").CombinedOutput()
		if err != nil {
			t.Fatalf("hitmix: %v: %s", err, out)
		}
		t.Logf("%s", strings.TrimSpace(string(out)))
		if r := create(-2); r.Status != 201 { // the next run from cold caches
			t.Fatalf("create after the hit mix: %s", r)
		}
		time.Sleep(time.Second)
	}
}

// hitMixSetup builds test/cmd/hitmix and writes the URL list of the
// Site's 500 newest posts: their REST answers and their pages.
func hitMixSetup(t *testing.T, gw string) (hitmix, urls string) {
	t.Helper()
	dir := t.TempDir()
	hitmix = filepath.Join(dir, "hitmix")
	if out, err := exec.Command("go", "build", "-o", hitmix, "siteplane.dev/test/cmd/hitmix").CombinedOutput(); err != nil {
		t.Fatalf("build hitmix: %v: %s", err, out)
	}
	var lines []string
	for p := 1; p <= 5; p++ {
		r := request("GET", fmt.Sprintf("%s/cms-json/cms/v2/posts?per_page=100&page=%d&_fields=id,link", gw, p), nil, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("list posts: %s", r)
		}
		var posts []struct {
			ID   int    `json:"id"`
			Link string `json:"link"`
		}
		if err := json.Unmarshal(r.Body, &posts); err != nil {
			t.Fatal(err)
		}
		for _, post := range posts {
			u, err := url.Parse(post.Link)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprintf("/cms-json/cms/v2/posts/%d", post.ID), u.Path)
		}
	}
	urls = filepath.Join(dir, "urls.txt")
	if err := os.WriteFile(urls, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return hitmix, urls
}
