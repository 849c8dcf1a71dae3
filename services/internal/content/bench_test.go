package content

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"
)

// Benchmarks of the two hottest reads through the whole stack of the
// service (identity middleware, route kit, SQL on PostgreSQL, rendering,
// JSON), on the demo data set. queries/op is the number of statements sent
// to PostgreSQL per request, i.e. database round trips.
func benchmarkGet(b *testing.B, path func(e *testEnv) string) {
	e := newEnv(b)
	if _, err := SeedDemo(context.Background(), e.pool, time.Now().UTC().Truncate(time.Second)); err != nil {
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
