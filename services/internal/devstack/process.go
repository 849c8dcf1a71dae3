package devstack

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Proc is a supervised child process.
type Proc struct {
	Name string
	cmd  *exec.Cmd
	done chan error
}

// StartProc starts bin with env (added to a minimal base environment) and its
// output appended to logPath. The child dies with the supervisor even when
// the supervisor is killed without a chance to clean up (Pdeathsig), and runs
// in its own process group so a terminal Ctrl-C reaches only the supervisor,
// which then stops children in order.
func StartProc(name, bin string, args, env []string, logPath string) (*Proc, error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(baseEnv(), env...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &Proc{Name: name, cmd: cmd, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait(); logf.Close() }()
	return p, nil
}

// Done is closed-over by Wait: it yields once when the process exits.
func (p *Proc) Done() <-chan error { return p.done }

// Stop sends SIGTERM to the process group and waits up to grace, then kills.
func (p *Proc) Stop(grace time.Duration) error {
	pgid := p.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case err := <-p.done:
		return exitErr(err)
	case <-time.After(grace):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		return exitErr(<-p.done)
	}
}

func exitErr(err error) error {
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGTERM {
			return nil
		}
	}
	return err
}

// RunOutput runs bin to completion and returns its stdout; stderr goes to log.
func RunOutput(ctx context.Context, bin string, args, env []string, log io.Writer) (string, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(baseEnv(), env...)
	cmd.Stderr = log
	out, err := cmd.Output()
	return string(out), err
}

// baseEnv passes through what child processes legitimately need (locale,
// PATH, HOME, TZ) and nothing from the developer's shell that could change a
// service's behaviour by accident.
func baseEnv() []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TZ", "LANG", "LC_ALL", "TMPDIR"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// FreePort asks the kernel for a free loopback port.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// PortFree reports whether port is free on loopback.
func PortFree(port int) bool {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// WaitReady polls url until it answers 200, the process exits, or timeout.
func WaitReady(ctx context.Context, url string, p *Proc, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	client := &http.Client{Timeout: time.Second}
	for {
		res, err := client.Get(url)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case err := <-p.done:
			p.done <- err // keep it for Stop
			return fmt.Errorf("%s exited before it was ready: %v", p.Name, err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s was not ready at %s within %s", p.Name, url, timeout)
		}
	}
}
