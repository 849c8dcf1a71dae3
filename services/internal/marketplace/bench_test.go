package marketplace

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"siteplane.dev/services/internal/platform/httpserver"
)

// The benchmarks serve requests through the full handler chain (platform
// middleware, router, parameters, key lookup, SQL on PostgreSQL, JSON)
// without a network socket, so they measure the service rather than the
// loopback. Requests per second = 1e9 / ns/op, for one client at a time.

func benchHandler(b *testing.B) (http.Handler, string) {
	e := newTestEnv(b, Config{ValidationsPerMinute: 1 << 30})
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	srv := httpserver.New(httpserver.Config{Service: "marketplace", Errors: WriteError, Logger: quiet})
	api := New(Config{Pool: e.pool, Logger: quiet, ValidationsPerMinute: 1 << 30})
	api.Mount(srv.Router())
	return srv.Handler(), e.keys["alice"]
}

func runBench(b *testing.B, h http.Handler, mk func() *http.Request) {
	// Warm the pool and the prepared statement cache.
	for range 10 {
		h.ServeHTTP(httptest.NewRecorder(), mk())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, mk())
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

func BenchmarkItemByID(b *testing.B) {
	h, key := benchHandler(b)
	runBench(b, h, func() *http.Request {
		r := httptest.NewRequestWithContext(context.Background(), http.MethodGet, PathItem+"?item_id=1", nil)
		r.Header.Set("Authorization", "Bearer "+key)
		return r
	})
}

func BenchmarkPurchaseValidation(b *testing.B) {
	h, key := benchHandler(b)
	body := url.Values{"purchase_code": {"ALICE-SUPPORTED-0001"}}.Encode()
	runBench(b, h, func() *http.Request {
		r := httptest.NewRequestWithContext(context.Background(), http.MethodPost, PathPurchase, strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+key)
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return r
	})
}

// BenchmarkItemByIDParallel shows throughput with concurrent clients.
func BenchmarkItemByIDParallel(b *testing.B) {
	h, key := benchHandler(b)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r := httptest.NewRequestWithContext(context.Background(), http.MethodGet, PathItem+"?item_id=1", nil)
			r.Header.Set("Authorization", "Bearer "+key)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				b.Errorf("status %d", w.Code)
				return
			}
		}
	})
}
