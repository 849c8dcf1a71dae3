package stack

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// startSecondGateway runs another gateway replica on the stack's database,
// route file and key, as a second pod of the same site would be, with
// extra settings (KEY=value) of its own. It is stopped when the test ends.
func startSecondGateway(t *testing.T, extra ...string) string {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	env := slices.DeleteFunc(st.env(contract.ServiceGateway), func(kv string) bool {
		return strings.HasPrefix(kv, contract.EnvListenAddr+"=")
	})
	// its own internal listener (the first gateway holds the stack's)
	env = append(env, contract.EnvListenAddr+"="+strings.TrimPrefix(base, "http://"), contract.EnvInternalListenAddr+"=127.0.0.1:0")
	env = append(env, extra...)
	logf, err := os.CreateTemp(st.dir, "gateway-b-*.log")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(st.bins[contract.ServiceGateway])
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		logf.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logf.Name())
			t.Logf("second gateway log:\n%s", b)
		}
	})
	waitFor(t, "the second gateway is ready", func() bool {
		res, err := http.Get(base + contract.ReadyzPath)
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == 200
	})
	return base
}

// getTitle reads a post anonymously from one gateway: its rendered title
// and X-Cache.
func getTitle(t *testing.T, base, path string, auth ...string) (title, xcache string) {
	t.Helper()
	req, err := http.NewRequest("GET", base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(auth) == 2 {
		req.SetBasicAuth(auth[0], auth[1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var post struct {
		Title struct {
			Rendered string `json:"rendered"`
		} `json:"title"`
	}
	if res.StatusCode != 200 || json.Unmarshal(raw, &post) != nil {
		t.Fatalf("GET %s: %d %.300s", path, res.StatusCode, raw)
	}
	return post.Title.Rendered, res.Header.Get("X-Cache")
}

// Two gateway replicas over one site: each caches anonymous reads; a write
// through one is read back at once through it (read-your-write) and reaches
// the other's cache through PostgreSQL's NOTIFY from content's write
// transaction (the other gateway never sees the write itself).
func TestEdgeCacheTwoReplicas(t *testing.T) {
	needs(t, contract.ServiceContent)
	a, b := st.Gateway, startSecondGateway(t)
	r := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "Cached v0", "status": "publish"}, admin()...)
	if r.Status != 201 {
		t.Fatalf("create: %d %.300s", r.Status, r.Raw)
	}
	path := fmt.Sprintf("/cms-json/cms/v2/posts/%v", r.Obj()["id"])
	// cached waits until gw answers path from its cache. (Right after a
	// write, the write's own NOTIFY may still be on its way and drop the
	// first stored answer once more; a replica just started may not be
	// listening yet, and then bypasses.)
	cached := func(gw, want string) {
		t.Helper()
		waitFor(t, gw+" caches "+want, func() bool {
			title, xc := getTitle(t, gw, path)
			if title != want {
				t.Fatalf("%s answers %q, want %q", gw, title, want)
			}
			return xc == "hit"
		})
	}
	for _, gw := range []string{a, b} {
		cached(gw, "Cached v0")
	}
	// Authenticated reads are never cached nor served from the cache.
	if _, xc := getTitle(t, a, path, admin()...); xc != "" {
		t.Fatalf("authenticated read has X-Cache %q", xc)
	}

	var delays []time.Duration
	const rounds = 20
	for i := 1; i <= rounds; i++ {
		want := fmt.Sprintf("Cached v%d", i)
		// B holds the old answer.
		cached(b, fmt.Sprintf("Cached v%d", i-1))
		if r := call(t, "POST", "/cms-json"+strings.TrimPrefix(path, "/cms-json"), map[string]any{"title": want}, admin()...); r.Status != 200 {
			t.Fatalf("update: %d %.300s", r.Status, r.Raw)
		}
		written := time.Now()
		// Read-your-write on the replica that proxied the write: at once.
		if title, _ := getTitle(t, a, path); title != want {
			t.Fatalf("round %d: read-your-write through the writing gateway got %q, want %q", i, title, want)
		}
		// The other replica: as soon as the notification arrives.
		for {
			title, _ := getTitle(t, b, path)
			if title == want {
				delays = append(delays, time.Since(written))
				break
			}
			if time.Since(written) > 5*time.Second {
				t.Fatalf("round %d: the second gateway still answers %q 5s after the write", i, title)
			}
			time.Sleep(500 * time.Microsecond)
		}
	}
	slices.Sort(delays)
	t.Logf("cross-replica invalidation over %d writes: min %v, median %v, max %v", rounds, delays[0], delays[len(delays)/2], delays[len(delays)-1])

	// A purge by URL through A reaches B's cache too (purge:<prefix> on the
	// change channel).
	// (A's entry may still be dropped by the echo of the last write's
	// NOTIFY: wait until both replicas hold the post.)
	for _, gw := range []string{a, b} {
		cached(gw, fmt.Sprintf("Cached v%d", rounds))
	}
	r = call(t, "POST", "/cms-json/cache-plugin/v1/notify_img", map[string]any{"urls": []string{st.SiteURL + path}}, admin()...)
	if r.Status != 200 || r.Obj()["purged"] != float64(1) {
		t.Fatalf("purge: %d %s", r.Status, r.Raw)
	}
	waitFor(t, "B drops the purged URL", func() bool {
		req, _ := http.NewRequest("POST", b+"/cms-json/cache-plugin/v1/check_img", strings.NewReader(`{"urls":["`+st.SiteURL+path+`"]}`))
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth(st.AdminUser, st.AdminPass)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		defer res.Body.Close()
		var out struct {
			Cached map[string]bool `json:"cached"`
		}
		return json.NewDecoder(res.Body).Decode(&out) == nil && res.StatusCode == 200 && !out.Cached[st.SiteURL+path]
	})
}
