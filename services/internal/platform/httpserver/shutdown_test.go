package httpserver

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// On stop the server turns unready at once but keeps answering for
// ShutdownDelay, each answer closing its connection, and only then closes
// its listener: a load balancer that polls readiness stops sending before
// any request is refused.
func TestShutdownDelayKeepsServingWhileUnready(t *testing.T) {
	api, _, stop := start(t, Config{Service: "t", ShutdownDelay: 700 * time.Millisecond, ShutdownTimeout: 2 * time.Second}, func(s *Server) {
		s.Router().HandleFunc("/x", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	})
	if res, _ := get(t, api+"/readyz"); res.StatusCode != 200 {
		t.Fatalf("readyz before stop: %d", res.StatusCode)
	}
	stopped := make(chan error, 1)
	began := time.Now()
	go func() { stopped <- stop() }()
	// readiness turns false promptly
	for {
		res, err := http.Get(api + "/readyz")
		if err != nil {
			t.Fatalf("the listener closed before the delay: %v", err)
		}
		res.Body.Close()
		if res.StatusCode == http.StatusServiceUnavailable {
			if res.Header.Get("Retry-After") == "" {
				t.Error("a 503 without Retry-After")
			}
			break
		}
		if time.Since(began) > 300*time.Millisecond {
			t.Fatal("still ready 300ms after stop")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// requests are still served, and connections are not kept alive
	for time.Since(began) < 500*time.Millisecond {
		res, body := get(t, api+"/x")
		if res.StatusCode != 200 || body != "ok" {
			t.Fatalf("during the delay: %d %q", res.StatusCode, body)
		}
		if !res.Close {
			t.Fatal("an answer during the delay keeps its connection alive")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if d := time.Since(began); d < 700*time.Millisecond {
		t.Fatalf("stopped after %s, before the delay", d)
	}
	if _, err := http.Get(api + "/x"); err == nil {
		t.Fatal("still accepting after the drain")
	}
}

// A connection left idle in a client's pool when the delay begins stays
// open: a POST the client sends on it during the delay is answered (and
// the connection then closed), not cut off unanswered — a cut-off POST is
// lost, since no client may resend it. Closing idle connections at the
// start of the delay failed about one request in 4,000 of
// test/stack's TestRollingRestartUnderLoadFailsNoRequest.
func TestShutdownDelayKeepsIdleConnectionsUntilTheirNextAnswer(t *testing.T) {
	api, _, stop := start(t, Config{Service: "t", ShutdownDelay: 600 * time.Millisecond, ShutdownTimeout: 2 * time.Second}, func(s *Server) {
		s.Router().HandleFunc("/x", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }).Methods(http.MethodPost)
	})
	conn, err := net.Dial("tcp", strings.TrimPrefix(api, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rd := bufio.NewReader(conn)
	post := func() (*http.Response, error) {
		req, _ := http.NewRequest(http.MethodPost, api+"/x", strings.NewReader("{}"))
		if err := req.Write(conn); err != nil {
			return nil, err
		}
		res, err := http.ReadResponse(rd, req)
		if err != nil {
			return nil, err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res, nil
	}
	if res, err := post(); err != nil || res.StatusCode != 200 || res.Close {
		t.Fatalf("before stop: %v %v", res, err)
	}
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	time.Sleep(200 * time.Millisecond) // inside the delay, the connection idle all along
	res, err := post()
	if err != nil {
		t.Fatalf("a POST on a connection idle since before the delay got no answer: %v", err)
	}
	if res.StatusCode != 200 || !res.Close {
		t.Fatalf("during the delay: %d, close %v; want 200 closing the connection", res.StatusCode, res.Close)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
}

// The internal listener serves the internal router only; the public
// listener does not see its routes.
func TestInternalListener(t *testing.T) {
	s := New(Config{Service: "t", ListenAddr: "127.0.0.1:0", MetricsAddr: "off", InternalAddr: "127.0.0.1:0",
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	s.InternalRouter().HandleFunc("/internal/secret", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "inside") })
	if err := s.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := contextWithCancel()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	defer func() { cancel(); <-done }()
	if res, body := get(t, "http://"+s.InternalAddr()+"/internal/secret"); res.StatusCode != 200 || body != "inside" {
		t.Fatalf("internal: %d %q", res.StatusCode, body)
	}
	if res, _ := get(t, "http://"+s.APIAddr()+"/internal/secret"); res.StatusCode != 404 {
		t.Fatalf("public: %d, want 404", res.StatusCode)
	}
}

func contextWithCancel() (context.Context, context.CancelFunc) {
	return context.WithCancel(context.Background())
}
