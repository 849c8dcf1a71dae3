package routing

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// TestForwardKeepsConnectionsUnderConcurrency: N requests at once to one
// service, round after round, are carried by about N kept-alive
// connections. Every new connection is a connect (and, for the service,
// an accept and a new goroutine) and its close a TIME_WAIT: a pool of idle
// connections smaller than the concurrency closes the surplus after every
// round and dials it again on the next, which costs CPU on both sides and
// adds a connect to the latency of the requests that wait for it.
func TestForwardKeepsConnectionsUnderConcurrency(t *testing.T) {
	for _, tc := range []struct {
		name        string
		cfg         ProxyConfig
		concurrency int
		maxNew      int // over all rounds
	}{
		{"default pool, 16 at once", ProxyConfig{}, 16, 2 * 16},
		{"default pool, 48 at once", ProxyConfig{}, 48, 2 * 48},
		{"pool of 32, 16 at once", ProxyConfig{MaxIdlePerHost: 32}, 16, 2 * 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var conns atomic.Int64
			up := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				time.Sleep(20 * time.Millisecond) // the round's requests overlap
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"id":5,"title":{"rendered":"` + strings.Repeat("x", 2500) + `"}}`))
			}))
			up.Config.ConnState = func(_ net.Conn, s http.ConnState) {
				if s == http.StateNew {
					conns.Add(1)
				}
			}
			up.Start()
			defer up.Close()
			backend, p := contentProxy(t, up.URL, tc.cfg)
			defer p.Transport().CloseIdleConnections()

			const rounds = 20
			var failed atomic.Int64
			for range rounds {
				var wg sync.WaitGroup
				for range tc.concurrency {
					wg.Add(1)
					go func() {
						defer wg.Done()
						rec := httptest.NewRecorder()
						p.Forward(rec, httptest.NewRequest("GET", "http://gw/cms-json/cms/v2/posts/5", nil),
							Target{Backend: backend, Path: "/cms-json/cms/v2/posts/5"})
						if rec.Code != http.StatusOK || rec.Body.Len() < 2500 {
							failed.Add(1)
						}
					}()
				}
				wg.Wait()
			}
			if n := failed.Load(); n > 0 {
				t.Fatalf("%d of %d forwards failed", n, rounds*tc.concurrency)
			}
			if n := conns.Load(); n > int64(tc.maxNew) {
				t.Errorf("%d rounds of %d concurrent requests opened %d connections to the service, want at most %d (kept alive, not re-dialled every round)",
					rounds, tc.concurrency, n, tc.maxNew)
			}
		})
	}
}

// contentProxy is a proxy with cfg and the backend "content" at url, whose
// failures are answered with their status alone.
func contentProxy(t *testing.T, url string, cfg ProxyConfig) (*Backend, *Proxy) {
	t.Helper()
	tb, err := Compile(contract.RouteFile{Version: 1,
		Services: []contract.Backend{{Name: "content", URL: url}},
		Routes:   []contract.Route{{Prefix: "/cms-json", Service: "content"}}})
	if err != nil {
		t.Fatal(err)
	}
	backend, _ := tb.Backend("content")
	return backend, NewProxy(cfg, func(w http.ResponseWriter, _ *http.Request, status int, _, _ string) {
		w.WriteHeader(status)
	}, nil)
}

// writeCounter is a ResponseWriter that counts its Write calls, as each is
// at least one write system call to the client on the gateway's server.
type writeCounter struct {
	h              http.Header
	status, writes int
	bytes          int
}

func (w *writeCounter) Header() http.Header  { return w.h }
func (w *writeCounter) WriteHeader(code int) { w.status = code }
func (w *writeCounter) Write(b []byte) (int, error) {
	w.writes++
	w.bytes += len(b)
	return len(b), nil
}

// A service's answer that fits the copy buffer — a block theme's page of
// 40–60 KB, written by the service in pieces — reaches the client in one
// write (fillingBody, copyBufferSize); a larger one is copied as it comes
// (maxWrites 0: any number), whole. At 32 KiB buffers a 50 KB page took
// two writes or more.
func TestForwardWritesAPageAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name      string
		size      int
		maxWrites int
	}{
		{"a 50 KB page", 50_000, 1},
		{"a 64 KiB page", 64 << 10, 1},
		{"a 200 KB answer", 200_000, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Length", strconv.Itoa(tc.size))
				body := []byte(strings.Repeat("x", tc.size))
				for len(body) > 0 { // in pieces, with pauses, as a page's parts may arrive
					n := min(len(body), 7000)
					_, _ = w.Write(body[:n])
					w.(http.Flusher).Flush()
					body = body[n:]
					time.Sleep(time.Millisecond)
				}
			}))
			defer up.Close()
			backend, p := contentProxy(t, up.URL, ProxyConfig{})
			defer p.Transport().CloseIdleConnections()
			w := &writeCounter{h: http.Header{}}
			p.Forward(w, httptest.NewRequest("GET", "http://gw/cms-json/page", nil), Target{Backend: backend, Path: "/cms-json/page"})
			if w.status != http.StatusOK || w.bytes != tc.size || (tc.maxWrites > 0 && w.writes > tc.maxWrites) {
				t.Errorf("status %d, %d bytes in %d writes; want 200, %d bytes in at most %d", w.status, w.bytes, w.writes, tc.size, tc.maxWrites)
			}
		})
	}
}
