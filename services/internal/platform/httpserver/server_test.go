package httpserver

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// start runs a server on free ports and returns its base URLs and a stop func
// that cancels it and waits for Run to return.
func start(t *testing.T, cfg Config, setup func(*Server)) (api, metrics string, stop func() error) {
	t.Helper()
	cfg.ListenAddr, cfg.MetricsAddr = "127.0.0.1:0", "127.0.0.1:0"
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	}
	s := New(cfg)
	if setup != nil {
		setup(s)
	}
	if err := s.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return "http://" + s.APIAddr(), "http://" + s.MetricsAddr(), stop
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestGracefulShutdownFinishesInFlightRequest(t *testing.T) {
	entered := make(chan struct{})
	api, _, stop := start(t, Config{Service: "t", ShutdownTimeout: 5 * time.Second}, func(s *Server) {
		s.Router().HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
			close(entered)
			time.Sleep(300 * time.Millisecond)
			io.WriteString(w, "finished")
		})
	})
	type result struct {
		body string
		err  error
	}
	resc := make(chan result, 1)
	go func() {
		res, err := http.Get(api + "/slow")
		if err != nil {
			resc <- result{err: err}
			return
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		resc <- result{body: string(b)}
	}()
	<-entered
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	r := <-resc
	if r.err != nil || r.body != "finished" {
		t.Fatalf("in-flight request: body %q err %v, want it to finish during shutdown", r.body, r.err)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("Run returned %v", err)
	}
	if _, err := http.Get(api + "/slow"); err == nil {
		t.Fatal("the listener still accepts after shutdown")
	}
}

func TestMetricsUseRouteTemplate(t *testing.T) {
	api, metrics, _ := start(t, Config{Service: "svc"}, func(s *Server) {
		s.Router().HandleFunc("/items/{id:[0-9]+}", func(w http.ResponseWriter, r *http.Request) {}).Methods("GET")
	})
	for _, p := range []string{"/items/1", "/items/2", "/nowhere/secret-token"} {
		get(t, api+p)
	}
	// The access log and metrics are written after the response is flushed.
	want := `siteplane_http_requests_total{code="200",method="GET",route="/items/{id:[0-9]+}",service="svc"} 2`
	var body string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, body = get(t, metrics+contract.MetricsPath); strings.Contains(body, want) && strings.Contains(body, `route="unmatched"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("metrics lack %s", want)
		}
	}
	if !strings.Contains(body, `route="unmatched"`) || strings.Contains(body, "secret-token") {
		t.Fatal("unmatched paths must be labelled unmatched, never by their raw path")
	}
	for _, m := range []string{"siteplane_http_request_duration_seconds_bucket", "go_goroutines", "process_cpu_seconds_total"} {
		if !strings.Contains(body, m) {
			t.Errorf("metrics lack %s", m)
		}
	}
}

func TestMiddleware(t *testing.T) {
	api, _, _ := start(t, Config{Service: "t", MaxBodyBytes: 16}, func(s *Server) {
		s.Router().HandleFunc("/panic", func(http.ResponseWriter, *http.Request) { panic("boom") })
		s.Router().HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
			b, err := io.ReadAll(r.Body)
			if IsBodyTooLarge(err) {
				WordPressError(w, r, 413, "rest_request_too_large", "too large")
				return
			}
			w.Write(b)
		})
	})
	tests := []struct {
		name       string
		method     string
		path       string
		body       io.Reader
		reqID      string
		wantStatus int
		wantCode   string
	}{
		{"panic answers 500 in the envelope", "GET", "/panic", nil, "", 500, "internal_server_error"},
		{"declared oversized body", "POST", "/echo", strings.NewReader(strings.Repeat("x", 17)), "", 413, "rest_request_too_large"},
		{"streamed oversized body", "POST", "/echo", io.MultiReader(strings.NewReader(strings.Repeat("x", 40))), "", 413, "rest_request_too_large"},
		{"unknown route", "GET", "/nope", nil, "", 404, "rest_no_route"},
		{"request id kept", "GET", "/healthz", nil, "abc-123", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, api+tt.path, tt.body)
			if tt.reqID != "" {
				req.Header.Set("X-Request-ID", tt.reqID)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			if res.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.wantStatus)
			}
			got := res.Header.Get("X-Request-ID")
			if tt.reqID != "" && got != tt.reqID || got == "" {
				t.Fatalf("X-Request-ID = %q", got)
			}
			if tt.wantCode != "" {
				var e struct {
					Code string
					Data struct{ Status int }
				}
				if err := json.NewDecoder(res.Body).Decode(&e); err != nil || e.Code != tt.wantCode || e.Data.Status != tt.wantStatus {
					t.Fatalf("body %+v (%v), want code %s", e, err, tt.wantCode)
				}
			}
		})
	}
}

// TestReadinessFollowsDatabase puts a TCP relay between the pool and the real
// test server and cuts it, so the database really goes away and comes back.
func TestReadinessFollowsDatabase(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	relay := newRelay(t, hostPort(t, dsn))
	pool, err := postgres.Open(context.Background(), strings.Replace(dsn, hostPort(t, dsn), relay.addr(), 1), "")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	api, _, _ := start(t, Config{Service: "t"}, func(s *Server) {
		s.AddReadiness("database", func(ctx context.Context) error { return pool.Ping(ctx) })
	})
	want := func(status int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			res, body := get(t, api+contract.ReadyzPath)
			if res.StatusCode == status {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("readyz = %d %s, want %d", res.StatusCode, body, status)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	want(200)
	relay.cut()
	want(503)
	if res, _ := get(t, api+contract.HealthzPath); res.StatusCode != 200 {
		t.Fatal("healthz must stay 200 while the database is away: the process is alive")
	}
	relay.restore()
	want(200)
}

func hostPort(t *testing.T, dsn string) string {
	t.Helper()
	_, afterUser, _ := strings.Cut(dsn, "@")
	host, _, _ := strings.Cut(afterUser, "/")
	return host
}

// relay forwards TCP connections to target until cut, which also breaks every
// open connection; restore accepts again.
type relay struct {
	t      *testing.T
	target string
	ln     net.Listener
	mu     sync.Mutex
	conns  []net.Conn
	down   bool
}

func newRelay(t *testing.T, target string) *relay {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{t: t, target: target, ln: ln}
	t.Cleanup(func() { ln.Close(); r.cut() })
	go r.serve()
	return r
}

func (r *relay) addr() string { return r.ln.Addr().String() }

func (r *relay) serve() {
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		r.mu.Lock()
		down := r.down
		r.mu.Unlock()
		if down {
			c.Close()
			continue
		}
		up, err := net.Dial("tcp", r.target)
		if err != nil {
			c.Close()
			continue
		}
		r.mu.Lock()
		r.conns = append(r.conns, c, up)
		r.mu.Unlock()
		go func() { io.Copy(up, c); up.Close() }()
		go func() { io.Copy(c, up); c.Close() }()
	}
}

func (r *relay) cut() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.down = true
	for _, c := range r.conns {
		c.Close()
	}
	r.conns = nil
}

func (r *relay) restore() {
	r.mu.Lock()
	r.down = false
	r.mu.Unlock()
}
