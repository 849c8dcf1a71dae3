package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// startExtra starts one more process of service name listening on a free
// port, with extra environment variables (last value wins), and waits until
// it is ready. It is stopped (SIGTERM) when the test ends.
func startExtra(t *testing.T, name string, extra ...string) (*exec.Cmd, string) {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := runExtra(t, name, addr, extra...)
	return cmd, "http://" + addr
}

func runExtra(t *testing.T, name, addr string, extra ...string) *exec.Cmd {
	t.Helper()
	logf, err := os.OpenFile(filepath.Join(st.dir, name+"-extra.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(st.bins[name])
	cmd.Env = append(st.env(name), append([]string{contract.EnvListenAddr + "=" + addr}, extra...)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); logf.Close(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	client := &http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		select {
		case <-exited:
			b, _ := os.ReadFile(logf.Name())
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			t.Fatalf("%s on %s exited during start-up; log tail:\n%s", name, addr, strings.Join(lines[max(0, len(lines)-5):], "\n"))
		default:
		}
		if res, err := client.Get("http://" + addr + contract.ReadyzPath); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return cmd
			}
		}
	}
	t.Fatalf("%s on %s not ready within 30s", name, addr)
	return nil
}

// stopAndWait sends SIGTERM and waits for the process to exit.
func stopAndWait(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	_ = cmd.Process.Signal(syscall.SIGTERM)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
			return
		}
	}
	t.Fatalf("pid %d did not exit within 20s of SIGTERM", cmd.Process.Pid)
}

// routeContentTo points the gateway's content backend at base until the
// test ends, and waits until the gateway sends there.
func routeContentTo(t *testing.T, base string, seen func() bool) {
	t.Helper()
	urls := map[string]string{}
	for k, v := range st.urls {
		urls[k] = v
	}
	urls[contract.ServiceContent] = base
	if err := st.WriteRoutes(contract.DefaultRoutes(urls)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = st.WriteRoutes(contract.DefaultRoutes(st.urls))
		time.Sleep(2500 * time.Millisecond) // the gateway polls the route file every second
	})
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		call(t, "GET", "/cms-json/cms/v2/posts?context=edit&per_page=1", nil, admin()...)
		if seen() {
			return
		}
	}
	t.Fatal("the gateway never switched to the new content backend")
}

// balancer plays a Kubernetes Service in front of replicas: round robin
// over the backends whose readiness probe last answered 200, polled every
// interval. It never retries a failed request (kube-proxy does not either).
type balancer struct {
	backends []*lbBackend
	next     atomic.Uint64
	served   atomic.Int64
}

type lbBackend struct {
	base  string
	ready atomic.Bool
	proxy *httputil.ReverseProxy
}

func newBalancer(t *testing.T, interval time.Duration, bases ...string) (*balancer, string) {
	b := &balancer{}
	for _, base := range bases {
		u, _ := url.Parse(base)
		be := &lbBackend{base: base, proxy: httputil.NewSingleHostReverseProxy(u)}
		be.ready.Store(true)
		b.backends = append(b.backends, be)
	}
	ctx, cancel := context.WithCancel(context.Background())
	client := &http.Client{Timeout: time.Second}
	go func() {
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			for _, be := range b.backends {
				res, err := client.Get(be.base + contract.ReadyzPath)
				ok := err == nil && res.StatusCode == 200
				if err == nil {
					res.Body.Close()
				}
				be.ready.Store(ok)
			}
		}
	}()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: b}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { cancel(); srv.Close() })
	return b, "http://" + ln.Addr().String()
}

func (b *balancer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.served.Add(1)
	n := len(b.backends)
	start := int(b.next.Add(1))
	for i := range n {
		be := b.backends[(start+i)%n]
		if be.ready.Load() {
			be.proxy.ServeHTTP(w, r)
			return
		}
	}
	http.Error(w, "no ready backend", http.StatusServiceUnavailable)
}

// Graceful shutdown (issue 15): a content replica told to stop turns unready
// and keeps serving for SITEPLANE_SHUTDOWN_DELAY, longer than the load
// balancer takes to notice, so restarting both replicas one after the other
// under load through the gateway fails no request.
func TestRollingRestartUnderLoadFailsNoRequest(t *testing.T) {
	if testing.Short() {
		t.Skip("restarts services")
	}
	env := []string{contract.EnvShutdownDelay + "=1500ms", contract.EnvShutdownTimeout + "=10s", contract.EnvMetricsAddr + "=off"}
	a, aURL := startExtra(t, contract.ServiceContent, env...)
	b, bURL := startExtra(t, contract.ServiceContent, env...)
	lb, lbURL := newBalancer(t, 500*time.Millisecond, aURL, bURL)
	routeContentTo(t, lbURL, func() bool { return lb.served.Load() > 0 })

	var ok, failed atomic.Int64
	var mu sync.Mutex
	var failures []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 30 * time.Second}
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var req *http.Request
				if i%2 == 0 {
					body, _ := json.Marshal(map[string]any{"title": fmt.Sprintf("rolling %d-%d", w, i), "status": "draft"})
					req, _ = http.NewRequest("POST", st.Gateway+"/cms-json/cms/v2/posts", bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
				} else {
					req, _ = http.NewRequest("GET", st.Gateway+"/cms-json/cms/v2/posts?context=edit&per_page=2", nil)
				}
				req.SetBasicAuth(st.AdminUser, st.AdminPass)
				res, err := client.Do(req)
				if err != nil {
					failed.Add(1)
					mu.Lock()
					failures = append(failures, req.Method+": "+err.Error())
					mu.Unlock()
					continue
				}
				raw, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode >= 300 {
					failed.Add(1)
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%s: %d %.120s", req.Method, res.StatusCode, raw))
					mu.Unlock()
					continue
				}
				ok.Add(1)
			}
		}()
	}
	time.Sleep(time.Second)
	// Restart a, then b, as a rolling update does.
	for i, cmd := range []*exec.Cmd{a, b} {
		addr := strings.TrimPrefix([]string{aURL, bURL}[i], "http://")
		stopAndWait(t, cmd)
		runExtra(t, contract.ServiceContent, addr, env...)
		time.Sleep(1500 * time.Millisecond) // the balancer sees it ready again
	}
	time.Sleep(500 * time.Millisecond)
	close(stop)
	wg.Wait()
	t.Logf("%d requests answered, %d failed", ok.Load(), failed.Load())
	if ok.Load() < 20 {
		t.Fatalf("only %d requests went through: the load did not run", ok.Load())
	}
	if failed.Load() > 0 {
		t.Fatalf("%d requests failed during the rolling restart, e.g. %q", failed.Load(), failures[:min(5, len(failures))])
	}
}
