package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/rest"
)

func TestProbeCommand(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/readyz":
			// Not ready for the first two attempts, as a starting gateway.
			if calls.Add(1) <= 2 {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			w.WriteHeader(http.StatusOK)
		case "/cms-json/":
			_, _ = w.Write([]byte(`{"name":"x"}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	var out bytes.Buffer
	err := probeCommand(context.Background(), []string{"--interval=10ms", "--timeout=5s", srv.URL + "/readyz", srv.URL + "/cms-json/"}, &out)
	if err != nil || !strings.Contains(out.String(), "ok "+srv.URL+"/cms-json/: 200") || calls.Load() != 3 {
		t.Fatalf("probe: %v after %d calls\n%s", err, calls.Load(), out.String())
	}

	start := time.Now()
	err = probeCommand(context.Background(), []string{"--interval=10ms", "--timeout=300ms", srv.URL + "/missing"}, &out)
	if err == nil || !strings.Contains(err.Error(), "last: status 404") {
		t.Fatalf("probe of a 404: %v", err)
	}
	if time.Since(start) > 3*time.Second {
		t.Errorf("the probe ignored its timeout")
	}
	if err := probeCommand(context.Background(), nil, &out); err == nil {
		t.Error("a probe without URLs succeeded")
	}
}

// TestRunRefusesBadConcurrency: a reconcile concurrency below 1 is refused
// before the operator connects anywhere.
func TestRunRefusesBadConcurrency(t *testing.T) {
	called := false
	err := run(context.Background(), flag.NewFlagSet("test", flag.ContinueOnError), []string{"--max-concurrent-reconciles=0"},
		func() (*rest.Config, error) { called = true; return nil, errors.New("no cluster") })
	if err == nil || !strings.Contains(err.Error(), "--max-concurrent-reconciles must be at least 1") || called {
		t.Errorf("run: %v (config requested: %t)", err, called)
	}
	for _, bad := range []string{"5s", "6m", "-1m"} {
		err := run(context.Background(), flag.NewFlagSet("test", flag.ContinueOnError), []string{"--internal-key-propagation-delay=" + bad},
			func() (*rest.Config, error) { called = true; return nil, errors.New("no cluster") })
		if err == nil || !strings.Contains(err.Error(), "--internal-key-propagation-delay must be 0 or between 10s and 5m0s") || called {
			t.Errorf("--internal-key-propagation-delay=%s: %v (config requested: %t)", bad, err, called)
		}
	}
}
