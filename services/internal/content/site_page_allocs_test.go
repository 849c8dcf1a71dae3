package content

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/content/theme/themetest"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// plainWriter is a ResponseWriter with Write only, as the service's own
// (httpserver's recorder) is: a page written to it as strings would be
// copied into a []byte per piece, which httptest's recorder (a
// StringWriter) hides.
type plainWriter struct {
	h         http.Header
	status, n int
}

func (w *plainWriter) Header() http.Header  { return w.h }
func (w *plainWriter) WriteHeader(code int) { w.status = code }
func (w *plainWriter) Write(b []byte) (int, error) {
	w.n += len(b)
	return len(b), nil
}

// A page of a block theme (Twenty Twenty-Three: 30–50 KB, two thirds of it
// the global stylesheet) allocates less than its own size: the shell with
// the stylesheet is not built as a string of its own per page, nor copied
// again on its way to the connection (site_page.go's render assembles the
// page in a pooled buffer and writes it once), and a template part is
// rendered into a buffer of its last size and written into the page
// (blocks.writeTemplatePart), not grown by doubling and concatenated. Before, a post
// page allocated 2.2 times its size, and content's garbage collection was
// a quarter of its CPU under load (docs/performance.md, issue 30's third
// pass).
func TestSitePageAllocations(t *testing.T) {
	dir := themetest.TT3Dir(t)
	e := newEnv(t)
	e.useTheme(filepath.Dir(dir), "twentytwentythree")
	cat := e.do(admin, "POST", "/cms/v2/categories", map[string]any{"name": "News"}).id()
	var link string
	for i := 0; i < 12; i++ {
		p := e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "Measured " + string(rune('a'+i)), "status": "publish",
			"content": "<!-- wp:paragraph --><p>A paragraph of the post.</p><!-- /wp:paragraph -->", "categories": []int64{cat}})
		link = p.obj()["link"].(string)
	}
	// a post with fifty comments, its page two or three times another's:
	// rendered first, it must not make every post's page allocate for
	// fifty comments (the size hints follow the last page, not the largest)
	big := e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "Commented", "status": "publish"}).obj()
	for _, sql := range []string{`INSERT INTO comments (post, parent, author_name, author_email, date_gmt, content, status)
		SELECT $1::bigint, 0, 'Reader ' || k, 'r@example.test', now() - k * interval '1 minute', 'Comment ' || k || ': lorem ipsum dolor sit amet.', 'approved'
		FROM generate_series(1, 50) k`, `UPDATE posts SET comment_count = 50 WHERE id = $1::bigint`} {
		if _, err := e.pool.Exec(context.Background(), sql, int64(big["id"].(float64))); err != nil {
			t.Fatal(err)
		}
	}
	bigPath := strings.TrimPrefix(big["link"].(string), "http://example.test")
	e.listen(t) // pages share the generation's snapshot, as in the service
	h := identity.Middleware(identity.Static(testKey), contract.ServiceContent, nil, func(w http.ResponseWriter, r *http.Request, err error) {
		http.Error(w, err.Error(), http.StatusUnauthorized)
	})(e.svc.SiteHandler(nil))
	serve := func(path string) *plainWriter {
		w := &plainWriter{h: http.Header{}}
		h.ServeHTTP(w, httptest.NewRequest("GET", contract.SitePath+path, nil))
		return w
	}
	const rounds = 40
	for _, tt := range []struct {
		name, path string
		maxRatio   float64 // bytes allocated per page ÷ the page's size
	}{
		{"a post", link[len("http://example.test"):], 1.0},
		{"the front page", "/", 1.0},
		{"a category archive", "/category/news/", 1.0},
	} {
		serve(tt.path) // the snapshot's compiled templates and the rows' cache
		bigPage := serve(bigPath)
		first := serve(tt.path)
		if bigPage.status != 200 || bigPage.n < first.n*3/2 {
			t.Fatalf("the page with fifty comments: status %d, %d bytes (a post's: %d)", bigPage.status, bigPage.n, first.n)
		}
		if first.status != 200 || first.n < 20_000 {
			t.Fatalf("%s: status %d, %d bytes", tt.name, first.status, first.n)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		for range rounds {
			serve(tt.path)
		}
		runtime.ReadMemStats(&after)
		perPage := float64(after.TotalAlloc-before.TotalAlloc) / rounds
		ratio := perPage / float64(first.n)
		t.Logf("%s: %d bytes, %.0f bytes allocated a page (%.2f×), %.0f µs a page", tt.name, first.n, perPage, ratio,
			float64(time.Since(start).Microseconds())/rounds)
		if ratio > tt.maxRatio {
			t.Errorf("%s: %.0f bytes allocated for a page of %d (%.2f×, want ≤ %.1f×)", tt.name, perPage, first.n, ratio, tt.maxRatio)
		}
	}
}
