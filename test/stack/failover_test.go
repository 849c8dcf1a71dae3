package stack

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/test/failover"
)

// switchProxy is a TCP forwarder on loopback that plays a Kubernetes
// Service in front of "the primary" (CloudNativePG's -rw Service): new
// connections go to the current target, which a failover changes; open
// connections stay where they are, as kube-proxy leaves them.
type switchProxy struct {
	ln     net.Listener
	target atomic.Value // host:port
	wg     sync.WaitGroup
}

func newSwitchProxy(t *testing.T, target string) *switchProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &switchProxy{ln: ln}
	p.target.Store(target)
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(func() { _ = ln.Close(); p.wg.Wait() })
	return p
}

func (p *switchProxy) serve() {
	defer p.wg.Done()
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer in.Close()
			out, err := net.DialTimeout("tcp", p.target.Load().(string), 5*time.Second)
			if err != nil {
				return // as a Service without endpoints: the connection fails
			}
			defer out.Close()
			done := make(chan struct{}, 2)
			go func() { _, _ = io.Copy(out, in); done <- struct{}{} }()
			go func() { _, _ = io.Copy(in, out); done <- struct{}{} }()
			<-done
		}()
	}
}

// startStackOn starts a stack of the test's own on a PostgreSQL server
// and a read replica (StartWith), stopped when the test ends, with the
// services' logs dumped when it failed.
func startStackOn(t *testing.T, server, readServer string) *Stack {
	t.Helper()
	s, err := StartWith(server, readServer, st.bins)
	if err != nil {
		if s != nil {
			s.DumpLogs(os.Stderr)
			s.Stop()
		}
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			s.DumpLogs(os.Stderr)
		}
		s.Stop()
	})
	return s
}

// withHost is dsn with its host:port replaced.
func withHost(t *testing.T, dsn, host string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = host
	return u.String()
}

func hostOf(t *testing.T, dsn string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// Issue 33: failover under load, on this machine. The services reach the
// primary through one address (a switching proxy, as CloudNativePG's -rw
// Service) and read anonymously from a streaming replica. While writers
// create posts with an Idempotency-Key (retried with the same key until
// acknowledged) and anonymous readers list posts, the primary is stopped,
// the replica promoted and the address moved to it, as CloudNativePG does
// when the primary pod goes. No acknowledged write may be lost, no key
// make two posts, nothing answer 500 (503 with Retry-After is allowed);
// the time until writes succeed again is logged. test/e2e's TestCNPG does
// the same with CloudNativePG deleting a real primary pod.
func TestFailoverUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a primary and a replica")
	}
	pair := startReplicaPair(t)
	rw := newSwitchProxy(t, hostOf(t, pair.primary))
	s := startStackOn(t, withHost(t, pair.primary, rw.ln.Addr().String()), pair.replica)
	req, _ := http.NewRequest("GET", "/", nil)
	req.SetBasicAuth(s.AdminUser, s.AdminPass)
	promote := func() error {
		pair.stopPrimary(t)
		// The switch takes what CloudNativePG's takes at the least: the
		// promotion, then the Service's new endpoint.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, pair.replica)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(ctx, "SELECT pg_promote(true, 30)"); err != nil {
			return err
		}
		rw.target.Store(hostOf(t, pair.replica))
		return nil
	}
	r, err := failover.Run(s.Gateway, req.Header.Get("Authorization"), 5*time.Second, 5*time.Second, 2*time.Minute, promote, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("primary stopped, replica promoted: %s", r)
	for _, p := range r.Problems() {
		t.Error(p)
	}
}
