package routing

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestForwardRetriesARefusedConnection: a service that starts listening a
// moment after the request arrives (its endpoints not yet on the node)
// answers the request, a POST included; one that stays down is answered
// 503 after the retry budget, not before and not much later.
func TestForwardRetriesARefusedConnection(t *testing.T) {
	for _, tc := range []struct {
		name       string
		listenIn   time.Duration // -1: never
		cfg        ProxyConfig
		wantStatus int
		maxTime    time.Duration
	}{
		{"up after 300ms", 300 * time.Millisecond, ProxyConfig{}, http.StatusCreated, 900 * time.Millisecond},
		{"never up", -1, ProxyConfig{RefusedRetry: 400 * time.Millisecond}, http.StatusServiceUnavailable, 900 * time.Millisecond},
		{"no retry", 300 * time.Millisecond, ProxyConfig{RefusedRetry: -1}, http.StatusServiceUnavailable, 200 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := ln.Addr().String()
			ln.Close() // refused until the service listens again
			if tc.listenIn >= 0 {
				srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					w.WriteHeader(http.StatusCreated)
				})}
				defer srv.Close()
				time.AfterFunc(tc.listenIn, func() {
					if l, err := net.Listen("tcp", addr); err == nil {
						go srv.Serve(l) //nolint:errcheck // closed by the deferred Close
					}
				})
			}
			backend, p := contentProxy(t, "http://"+addr, tc.cfg)
			defer p.Transport().CloseIdleConnections()
			start := time.Now()
			rec := httptest.NewRecorder()
			p.Forward(rec, httptest.NewRequest("POST", "http://gw/cms-json/cms/v2/posts", strings.NewReader(`{"title":"x"}`)),
				Target{Backend: backend, Path: "/cms-json/cms/v2/posts"})
			took := time.Since(start)
			if rec.Code != tc.wantStatus {
				t.Errorf("status %d, want %d", rec.Code, tc.wantStatus)
			}
			if took > tc.maxTime {
				t.Errorf("answered in %s, want at most %s", took, tc.maxTime)
			}
		})
	}
}
