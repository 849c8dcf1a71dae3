package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
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
