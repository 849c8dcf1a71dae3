package postgres_test

import (
	"context"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/postgres"
)

// cutProxy forwards loopback connections to target until cut, which
// closes every connection and refuses new ones: the server gone, as in a
// failover.
type cutProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln}
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, in, out)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(out, in); out.Close() }()
			go func() { _, _ = io.Copy(in, out); in.Close() }()
		}
	}()
	t.Cleanup(p.cut)
	return p
}

func (p *cutProxy) cut() {
	_ = p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
}

// Issue 33: once ready, a replica stays ready while the database cannot be
// reached (every replica shares it: failing them all would leave clients
// refused connections instead of 503s), but never on a schema that is not
// migrated, and never before it was ready once.
func TestProbeAfterTheDatabaseWent(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	ctx := context.Background()
	if err := postgres.Migrate(ctx, dsn, "svc", testMigrations); err != nil {
		t.Fatal(err)
	}
	through := func(t *testing.T) (string, *cutProxy) {
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatal(err)
		}
		p := newCutProxy(t, u.Host)
		u.Host = p.ln.Addr().String()
		return u.String(), p
	}
	for _, tc := range []struct {
		name       string
		readyFirst bool
		then       func(t *testing.T, p *cutProxy)
		wantReady  bool
	}{
		{"ready, then the server gone: still ready", true, func(_ *testing.T, p *cutProxy) { p.cut() }, true},
		{"never ready, the server gone: not ready", false, func(_ *testing.T, p *cutProxy) { p.cut() }, false},
		{"ready, then the schema dirty: not ready", true, func(t *testing.T, _ *cutProxy) {
			pool, err := postgres.Open(ctx, dsn, "svc")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				defer pool.Close()
				if _, err := pool.Exec(ctx, "UPDATE schema_migrations SET dirty = false"); err != nil {
					t.Error(err)
				}
			})
			if _, err := pool.Exec(ctx, "UPDATE schema_migrations SET dirty = true"); err != nil {
				t.Fatal(err)
			}
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			probeDSN, p := through(t)
			probe := postgres.NewProbe(probeDSN, "svc", 2, postgres.Settings{ConnectTimeout: time.Second})
			defer probe.Close()
			if tc.readyFirst {
				if err := probe.Check(ctx); err != nil {
					t.Fatalf("first check: %v", err)
				}
			}
			tc.then(t, p)
			for range 2 { // the broken connection, then a new one refused
				cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				err := probe.Check(cctx)
				cancel()
				if (err == nil) != tc.wantReady {
					t.Fatalf("check: %v, want ready %v", err, tc.wantReady)
				}
			}
		})
	}
}
