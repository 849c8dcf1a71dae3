package content

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// listen runs the website's change listener for the test and waits until
// it is online; the returned function stops it and waits until it is off.
func (e *testEnv) listen(t testing.TB) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.svc.ListenChanges(ctx, slog.Default())
	}()
	stop = func() {
		cancel()
		<-done
	}
	t.Cleanup(stop)
	deadline := time.Now().Add(10 * time.Second)
	for !e.svc.web.Online() {
		if time.Now().After(deadline) {
			t.Fatal("the change listener did not come online")
		}
		time.Sleep(5 * time.Millisecond)
	}
	return stop
}

// eventually retries check until it holds or 5 seconds pass.
func eventually(t *testing.T, what string, check func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !check(); {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 5s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The website's snapshot (templates, parts, menus, term names, excerpts,
// neighbours) follows every committed write: the service's own at once,
// another service's when its notification arrives, and, while the
// listener is down, every page reads afresh.
func TestSiteSnapshotFollowsWrites(t *testing.T) {
	e := newEnv(t)
	stop := e.listen(t)
	ctx := context.Background()
	post := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "First title", "status": "publish", "content": "First words"}).obj()
	id := int64(post["id"].(float64))
	link := strings.TrimPrefix(post["link"].(string), "http://example.test")
	wantPage(t, e.page(anon, "/"), 200, "home", "First title", "First words")
	wantPage(t, e.page(anon, link), 200, "single", "First title")

	t.Run("own writes show at once", func(t *testing.T) {
		e.do(editor, "POST", "/cms/v2/posts/"+store.Itoa(id), map[string]any{"title": "Second title", "content": "Second words"})
		wantPage(t, e.page(anon, "/"), 200, "home", "Second title", "Second words")
		// a customised part (read into the snapshot) shows on the next page
		r := e.do(admin, "POST", "/cms/v2/template-parts/siteplane//footer", map[string]any{
			"content": "<!-- wp:paragraph --><p>Custom footer</p><!-- /wp:paragraph -->"})
		if r.Status != 200 {
			t.Fatalf("customise the footer: %d %s", r.Status, r.Raw)
		}
		wantPage(t, e.page(anon, link), 200, "single", "Custom footer")
	})

	t.Run("another service's write shows when its notification comes", func(t *testing.T) {
		gen := e.svc.web.Generation()
		err := pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `UPDATE posts SET content = 'Third words' WHERE id = $1`, id); err != nil {
				return err
			}
			return postgres.NotifyChanged(ctx, tx, contract.ServiceMedia)
		})
		if err != nil {
			t.Fatal(err)
		}
		eventually(t, "the generation after a notification", func() bool { return e.svc.web.Generation() != gen })
		wantPage(t, e.page(anon, "/"), 200, "home", "Third words")
	})

	t.Run("a write no one announces is kept out until the next generation", func(t *testing.T) {
		// proves the snapshot is used: an unannounced change is not read
		// (no service writes without announcing; this stands for the
		// moment between a commit and its notification)
		// A notification of an earlier write may still be on its way (a
		// loaded machine delivers it late) and rightly start a generation:
		// only a try during which the generation held says anything.
		for try := range 5 {
			gen := e.svc.web.Generation()
			e.page(anon, "/") // the snapshot of this generation holds the excerpt
			words := fmt.Sprintf("Unannounced words %d", try)
			if _, err := e.pool.Exec(ctx, `UPDATE posts SET content = $2 WHERE id = $1`, id, words); err != nil {
				t.Fatal(err)
			}
			r := e.page(anon, "/")
			if e.svc.web.Generation() != gen {
				continue
			}
			if strings.Contains(string(r.Raw), words) {
				t.Fatal("the excerpt was read afresh: no snapshot in use")
			}
			return
		}
		t.Fatal("every try saw a new generation: notifications never settled")
	})

	t.Run("offline, every page reads afresh", func(t *testing.T) {
		stop()
		if e.svc.web.Online() {
			t.Fatal("still online")
		}
		if _, err := e.pool.Exec(ctx, `UPDATE posts SET content = 'Offline words' WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
		wantPage(t, e.page(anon, "/"), 200, "home", "Offline words")
	})
}

// Benchmarks of the website's two pages `make bench` loads, in process (no
// gateway, no network): the front page (ten latest posts) and a post's
// page, on the demo data, with the change listener online as in the
// service. queries/op counts statements sent to PostgreSQL per page.
func benchmarkSitePage(b *testing.B, path string) { benchmarkSitePageAs(b, path, anon, nil, false) }

// benchmarkSitePageAs is benchmarkSitePage as caller who, after setup;
// with discard the page is written to a writer that keeps nothing, as the
// server writes it to the connection (not kept in a recorder's buffer).
func benchmarkSitePageAs(b *testing.B, path, who string, setup func(e *testEnv), discard bool) {
	e := newEnv(b)
	if _, err := store.SeedDemo(context.Background(), e.pool, time.Now().UTC().Truncate(time.Second)); err != nil {
		b.Fatal(err)
	}
	if setup != nil {
		setup(e)
	}
	e.listen(b)
	h := identity.Middleware(identity.Static(testKey), contract.ServiceContent, nil, func(w http.ResponseWriter, r *http.Request, err error) {
		http.Error(w, err.Error(), http.StatusUnauthorized)
	})(e.svc.SiteHandler(nil))
	get := func() *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", contract.SitePath+path, nil)
		if id := callers[who]; id.LoggedIn() {
			req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey(testKey), contract.ServiceContent, id, time.Now().Add(time.Minute)))
		}
		if discard {
			h.ServeHTTP(discardWriter{rec}, req)
			return rec
		}
		h.ServeHTTP(rec, req)
		return rec
	}
	if rec := get(); rec.Code != 200 {
		b.Fatalf("GET %s: %d %.300s", path, rec.Code, rec.Body.String())
	}
	before := e.queries.n.Load()
	cpu := processCPU(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if rec := get(); rec.Code != 200 {
			b.Fatalf("status %d", rec.Code)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(e.queries.n.Load()-before)/float64(b.N), "queries/op")
	// CPU time rather than wall time: on a shared machine the wall time
	// of a page is mostly waiting for a core
	b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N), "cpu-ns/op")
}

func BenchmarkSiteFrontPage(b *testing.B) { benchmarkSitePage(b, "/") }

func BenchmarkSitePostPage(b *testing.B) { benchmarkSitePage(b, "/demo-post-100/") }

// processCPU is the CPU time (user and system) the test process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// discardWriter is a recorder that keeps the status and headers, not the
// body.
type discardWriter struct{ *httptest.ResponseRecorder }

func (d discardWriter) Write(p []byte) (int, error)       { return len(p), nil }
func (d discardWriter) WriteString(s string) (int, error) { return len(s), nil }
