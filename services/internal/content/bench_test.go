package content

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// Benchmarks of the two hottest reads through the whole stack of the
// service (identity middleware, route kit, SQL on PostgreSQL, rendering,
// JSON), on the demo data set. queries/op is the number of statements sent
// to PostgreSQL per request, i.e. database round trips.
func benchmarkGet(b *testing.B, path func(e *testEnv) string) {
	e := newEnv(b)
	if _, err := store.SeedDemo(context.Background(), e.pool, time.Now().UTC().Truncate(time.Second)); err != nil {
		b.Fatal(err)
	}
	p := path(e)
	if r := e.do(anon, "GET", p, nil); r.Status != 200 {
		b.Fatalf("GET %s: %d %s", p, r.Status, r.Raw)
	}
	before := e.queries.n.Load()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req := httptest.NewRequest("GET", p, nil)
		rec := httptest.NewRecorder()
		e.handler.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("status %d", rec.Code)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(e.queries.n.Load()-before)/float64(b.N), "queries/op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

func BenchmarkListPosts(b *testing.B) {
	benchmarkGet(b, func(*testEnv) string { return "/cms/v2/posts?per_page=10" })
}

func BenchmarkGetPost(b *testing.B) {
	benchmarkGet(b, func(e *testEnv) string {
		var id int64
		if err := e.pool.QueryRow(context.Background(), `SELECT id FROM posts WHERE slug = 'demo-post-100'`).Scan(&id); err != nil {
			b.Fatal(err)
		}
		return fmt.Sprintf("/cms/v2/posts/%d", id)
	})
}

// BenchmarkCreatePost: POST /cms/v2/posts as make bench sends it (a
// published post, distinct titles), one request at a time through the
// service on PostgreSQL (docs/performance.md#the-write-path).
func BenchmarkCreatePost(b *testing.B) {
	e := newEnv(b)
	before := e.queries.n.Load()
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		i++
		body := fmt.Sprintf(`{"title":"bench-create %d","content":"<p>Created by make bench.</p>","status":"publish"}`, i)
		req := httptest.NewRequest("POST", "/cms/v2/posts", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey(testKey), contract.ServiceContent, callers[admin], time.Now().Add(time.Minute)))
		rec := httptest.NewRecorder()
		e.handler.ServeHTTP(rec, req)
		if rec.Code != 201 {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(e.queries.n.Load()-before)/float64(b.N), "queries/op")
}
