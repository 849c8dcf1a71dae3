// Command siteplane-run starts the whole Siteplane stack locally: a throwaway
// PostgreSQL, demo data, and every service binary found in bin/, then prints
// how to call it. `make run` runs it in the foreground (Ctrl-C stops
// everything); `make run-detached` / `make stop` run it in the background.
//
//	siteplane-run            foreground
//	siteplane-run -detach    start in the background, print the summary, exit
//	siteplane-run -stop      stop a detached stack
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"siteplane.dev/services/internal/devstack"
)

func main() {
	root := flag.String("root", ".", "repository root (where hack/, bin/ and .cache/ are)")
	port := flag.Int("port", 8080, "preferred gateway port (a free one is used when taken; 0 always picks a free one)")
	detach := flag.Bool("detach", false, "run in the background; stop with -stop")
	stop := flag.Bool("stop", false, "stop a stack started with -detach")
	name := flag.String("name", devstack.DefaultName, "the stack's name: its PostgreSQL instance and its directory .cache/NAME (make bench uses its own)")
	wpAlias := flag.Bool("wp-alias", false, "also serve the REST API as /wp-json/ and wp/v2 (the site's opt-in alias, docs/api.md)")
	themeDir := flag.String("theme", "", "a block theme directory the site uses (docs/website.md#themes); empty: the built-in theme")
	flag.Parse()
	if !validName(*name) {
		fail(fmt.Errorf("-name %q: use letters, digits and '-' only", *name))
	}

	abs, err := filepath.Abs(*root)
	if err != nil {
		fail(err)
	}
	runDir := filepath.Join(abs, ".cache", *name)
	switch {
	case *stop:
		err = stopDetached(runDir)
	case *detach:
		err = startDetached(abs, runDir, *name, *port, *wpAlias, *themeDir)
	default:
		err = foreground(abs, runDir, *name, *port, *wpAlias, *themeDir)
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "siteplane-run:", err)
	os.Exit(1)
}

// validName keeps a stack's name a plain directory and instance name.
func validName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func foreground(root, runDir, name string, port int, wpAlias bool, themeDir string) error {
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer cancel()
	st, err := devstack.Start(ctx, devstack.Options{Root: root, Port: port, Out: os.Stdout, Name: name, WPAlias: wpAlias, Theme: themeDir})
	if err != nil {
		return err
	}
	st.Summary.Print(os.Stdout)
	if os.Getenv(detachedEnv) == "" {
		fmt.Println("\nPress Ctrl-C to stop.")
	}
	_ = os.WriteFile(filepath.Join(runDir, "ready"), nil, 0o644)
	werr := st.Wait(ctx)
	fmt.Println("\nsiteplane-run: stopping")
	st.Stop()
	_ = os.Remove(filepath.Join(runDir, "ready"))
	fmt.Println("siteplane-run: stopped")
	return werr
}

const detachedEnv = "SITEPLANE_RUN_DETACHED"

func startDetached(root, runDir, name string, port int, wpAlias bool, themeDir string) error {
	if pid, ok := readPID(runDir); ok && alive(pid) {
		return fmt.Errorf("a stack is already running (pid %d): `make stop` first", pid)
	}
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		return err
	}
	_ = os.Remove(filepath.Join(runDir, "ready"))
	logPath := filepath.Join(runDir, "run.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logf.Close()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	args := []string{"-root", root, "-port", strconv.Itoa(port), "-name", name}
	if wpAlias {
		args = append(args, "-wp-alias")
	}
	if themeDir != "" {
		args = append(args, "-theme", themeDir)
	}
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), detachedEnv+"=1")
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	if err := os.WriteFile(filepath.Join(runDir, "pid"), []byte(strconv.Itoa(pid)), 0o644); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(3 * time.Minute)
	for {
		select {
		case err := <-exited:
			out, _ := os.ReadFile(logPath)
			return fmt.Errorf("the stack failed to start (%v):\n%s", err, out)
		case <-deadline:
			_ = syscall.Kill(pid, syscall.SIGTERM)
			return fmt.Errorf("the stack was not ready within 3 minutes; see %s", logPath)
		case <-time.After(200 * time.Millisecond):
		}
		if _, err := os.Stat(filepath.Join(runDir, "ready")); err == nil {
			out, _ := os.ReadFile(logPath)
			if i := strings.Index(string(out), "\nSiteplane is running."); i >= 0 {
				fmt.Print(string(out[i:]))
			}
			stopWith := "make stop"
			if name != devstack.DefaultName {
				stopWith = "bin/siteplane-run -name " + name + " -stop"
			}
			fmt.Printf("\nRunning in the background (pid %d, log %s). Stop it with `%s`.\n", pid, logPath, stopWith)
			return nil
		}
	}
}

func stopDetached(runDir string) error {
	pidFile := filepath.Join(runDir, "pid")
	pid, ok := readPID(runDir)
	if !ok || !alive(pid) {
		_ = os.Remove(pidFile)
		fmt.Println("siteplane-run: no detached stack is running")
		return nil
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		return err
	}
	for deadline := time.Now().Add(60 * time.Second); alive(pid); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("pid %d did not stop within 60s", pid)
		}
	}
	_ = os.Remove(pidFile)
	fmt.Println("siteplane-run: stopped")
	return nil
}

func readPID(runDir string) (int, bool) {
	b, err := os.ReadFile(filepath.Join(runDir, "pid"))
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid, err == nil && pid > 0
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	fields := strings.Fields(string(stat))
	return len(fields) < 3 || fields[2] != "Z"
}
