// Package devstack tests the `make run` contract from the outside: the real
// supervisor binary, the real service binaries and a real PostgreSQL started
// by hack/postgres.sh, in a scratch copy of the repository layout.
package devstack

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// repoRoot is the checkout this test runs from (test/devstack → ../..).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// scratchRoot lays out bin/ (freshly built binaries) and hack/ (the repo's
// scripts) in a temporary directory, so the run's .cache/ and PostgreSQL
// are the test's own and never touch a developer's running stack.
func scratchRoot(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	repo := repoRoot(t)
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(repo, "hack"), filepath.Join(dir, "hack")); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "bin")+"/", "./services/cmd/...")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		// Whatever happened, leave no database server behind.
		_ = exec.Command(filepath.Join(dir, "hack", "postgres.sh"), "destroy", "run").Run()
	})
	return dir
}

// readEnv parses the export lines of .cache/run/env.
func readEnv(t *testing.T, path string) map[string]string {
	t.Helper()
	out, err := exec.Command("sh", "-c", `. "$0" && env`, path).Output()
	if err != nil {
		t.Fatalf("sourcing %s: %v", path, err)
	}
	env := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			env[k] = v
		}
	}
	return env
}

// processesUnder lists the processes whose command line mentions dir: every
// process the stack started (services, PostgreSQL) runs a binary under it.
func processesUnder(dir string) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !strings.Contains(string(cmdline), dir) {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
			continue // exited, waiting to be reaped by init
		}
		found = append(found, e.Name()+": "+strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	return found
}

func TestRunDetachedThenStopLeavesNothing(t *testing.T) {
	root := scratchRoot(t)
	run := filepath.Join(root, "bin", "siteplane-run")

	start := exec.Command(run, "-root", root, "-port", "0", "-detach")
	out, err := start.CombinedOutput()
	if err != nil {
		t.Fatalf("siteplane-run -detach: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "Siteplane is running.") {
		t.Fatalf("no summary printed:\n%s", out)
	}
	env := readEnv(t, filepath.Join(root, ".cache", "run", "env"))
	for _, k := range []string{"GATEWAY_URL", "ADMIN_USER", "ADMIN_APP_PASSWORD", "MARKETPLACE_API_KEY", "MARKETPLACE_URL"} {
		if env[k] == "" {
			t.Errorf("env file lacks %s", k)
		}
	}
	// The printed marketplace key works against the running service.
	req, _ := http.NewRequest("GET", env["MARKETPLACE_URL"]+"/api/account/details", nil)
	req.Header.Set("Authorization", "Bearer "+env["MARKETPLACE_API_KEY"])
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"status":"success"`) {
		t.Fatalf("account details with the printed key: %d %s", res.StatusCode, body)
	}
	// The printed upload example works as printed (after sourcing the env file).
	lines := strings.Split(string(out), "\n")
	var upload []string
	for i, l := range lines {
		if strings.Contains(l, "/cms/v2/media?") && i >= 2 {
			upload = lines[i-2 : i+1]
		}
	}
	if len(upload) == 0 || !strings.Contains(upload[0], "curl") {
		t.Fatalf("no upload example printed:\n%s", out)
	}
	sh := exec.Command("sh", "-c", `. .cache/run/env && `+strings.Join(upload, "\n"))
	sh.Dir = root
	got, err := sh.CombinedOutput()
	if err != nil || !strings.Contains(string(got), `"source_url"`) || !strings.Contains(string(got), `"thumbnail"`) {
		t.Fatalf("printed upload example:\n%s\nanswered: %v\n%s", strings.Join(upload, "\n"), err, got)
	}
	// make run's PostgreSQL keeps what people type in: durability on (the
	// test instance alone runs with fsync off).
	assertDurable(t, env["SITEPLANE_DATABASE_URL"])
	// Every service is built (go build ./services/cmd/...), so the gateway runs.
	res, err = http.Get(env["GATEWAY_URL"] + "/readyz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("gateway readyz: %v %v", res, err)
	}
	res.Body.Close()
	if len(processesUnder(root)) == 0 {
		t.Fatal("no stack process found while running: the check below would prove nothing")
	}

	stop := exec.Command(run, "-root", root, "-stop")
	if out, err := stop.CombinedOutput(); err != nil {
		t.Fatalf("siteplane-run -stop: %v\n%s", err, out)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		left := processesUnder(root)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left after stop:\n%s", strings.Join(left, "\n"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(root, ".cache", "run", "env")); err == nil {
		t.Error(".cache/run/env still exists after stop")
	}
}

func TestRunForegroundStopsOnInterrupt(t *testing.T) {
	root := scratchRoot(t)
	cmd := exec.Command(filepath.Join(root, "bin", "siteplane-run"), "-root", root, "-port", "0")
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The reader owns the pipe until it ends (Wait must come after the last
	// read); the output is shared under a lock for failure messages.
	var (
		mu     sync.Mutex
		output strings.Builder
		once   sync.Once
	)
	ready, readerDone := make(chan struct{}), make(chan struct{})
	logText := func() string { mu.Lock(); defer mu.Unlock(); return output.String() }
	go func() {
		defer close(readerDone)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			mu.Lock()
			output.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if strings.Contains(sc.Text(), "Press Ctrl-C to stop.") {
				once.Do(func() { close(ready) })
			}
		}
	}()
	select {
	case <-ready:
	case <-readerDone:
		_ = cmd.Wait()
		t.Fatalf("siteplane-run ended before it was ready:\n%s", logText())
	case <-time.After(3 * time.Minute):
		_ = cmd.Process.Kill()
		<-readerDone
		_ = cmd.Wait()
		t.Fatal("not ready within 3 minutes")
	}
	if len(processesUnder(root)) == 0 {
		// Error, not Fatal: the interrupt below must still stop the stack.
		t.Error("no stack process found while running: the check below would prove nothing")
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-readerDone:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		<-readerDone
		_ = cmd.Wait()
		t.Fatalf("siteplane-run still running a minute after Ctrl-C:\n%s", logText())
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("siteplane-run after Ctrl-C: %v\n%s", err, logText())
	}
	if left := processesUnder(root); len(left) > 0 {
		t.Fatalf("processes left after Ctrl-C:\n%s", strings.Join(left, "\n"))
	}
}

func assertDurable(t *testing.T, dsn string) {
	t.Helper()
	if dsn == "" {
		t.Fatal("env file lacks SITEPLANE_DATABASE_URL")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, setting := range []string{"fsync", "synchronous_commit", "full_page_writes"} {
		var v string
		if err := conn.QueryRow(ctx, "SELECT current_setting($1)", setting).Scan(&v); err != nil {
			t.Fatal(err)
		}
		if v != "on" {
			t.Errorf("make run's PostgreSQL runs with %s=%s, want on", setting, v)
		}
	}
}
