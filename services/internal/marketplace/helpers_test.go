package marketplace

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/platform/httpserver"
	"siteplane.dev/services/internal/platform/pgtest"
)

// testEnv is a marketplace API on a fresh database holding
// testdata/fixture.json (accounts alice, bob and carol; carol has no items),
// served through the platform server's middleware as in production.
type testEnv struct {
	t    testing.TB
	pool *pgxpool.Pool // for the tests' own set-up; not counted
	api  *API
	// queries counts the statements the API sends (its pool's round trips).
	queries *queryCounter
	url     string
	keys    map[string]string // account → a valid key
	logs    *syncBuffer       // everything the service logged
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newTestEnv(t testing.TB, cfg Config) *testEnv {
	t.Helper()
	ctx := context.Background()
	pool, err := OpenDatabase(ctx, pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	e := &testEnv{t: t, pool: pool, keys: map[string]string{}, logs: &syncBuffer{}, queries: &queryCounter{}}
	traced := pool.Config() // a copy
	traced.ConnConfig.Tracer = e.queries
	apiPool, err := pgxpool.NewWithConfig(ctx, traced)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(apiPool.Close)
	e.importFile(mustRead(t, "testdata/fixture.json"))
	for _, acc := range []string{"alice", "bob", "carol"} {
		e.keys[acc] = e.createKey(acc)
	}
	logger := slog.New(slog.NewJSONHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cfg.Pool, cfg.Logger = apiPool, logger
	e.api = New(cfg)
	srv := httpserver.New(httpserver.Config{Service: "marketplace", Errors: WriteError, Logger: logger})
	e.api.Mount(srv.Router())
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	e.url = ts.URL
	return e
}

// queryCounter counts statements sent to PostgreSQL: each is one round trip
// (the pool runs no batches or pipelines here).
type queryCounter struct{ n atomic.Int64 }

func (q *queryCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	q.n.Add(1)
	return ctx
}

func (q *queryCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tryImport imports data in one transaction and returns the error.
func (e *testEnv) tryImport(data []byte) error {
	return pgx.BeginFunc(context.Background(), e.pool, func(tx pgx.Tx) error {
		_, err := Import(context.Background(), tx, data)
		return err
	})
}

func (e *testEnv) importFile(data []byte) {
	e.t.Helper()
	if err := e.tryImport(data); err != nil {
		e.t.Fatal(err)
	}
}

func (e *testEnv) createKey(account string) string {
	e.t.Helper()
	var key string
	err := pgx.BeginFunc(context.Background(), e.pool, func(tx pgx.Tx) error {
		var err error
		key, _, err = CreateKey(context.Background(), tx, account, "")
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return key
}

// req describes one request; placement says where the parameters go.
type req struct {
	method    string
	path      string
	placement string // "query" (default), "form", "multipart", "json", "bearer" (key in header, rest in query)
	params    map[string]any
	body      string // raw body, overrides params placement when set
	ctype     string
}

type resp struct {
	status int
	header http.Header
	raw    string
	body   map[string]any
}

func (e *testEnv) do(r req) resp {
	e.t.Helper()
	method := r.method
	if method == "" {
		method = http.MethodGet
	}
	target := e.url + r.path
	var body io.Reader
	ctype := r.ctype
	header := http.Header{}
	q := urlValues(r.params)
	switch {
	case r.body != "":
		body = strings.NewReader(r.body)
	case r.placement == "form":
		body, ctype = strings.NewReader(q.Encode()), "application/x-www-form-urlencoded"
	case r.placement == "multipart":
		var buf bytes.Buffer
		mw := newMultipart(&buf, q)
		body, ctype = &buf, mw
	case r.placement == "json":
		b, _ := json.Marshal(r.params)
		body, ctype = bytes.NewReader(b), "application/json"
	case r.placement == "bearer":
		if k, ok := q["api_key"]; ok {
			header.Set("Authorization", "Bearer "+k[0])
			q.Del("api_key")
		}
		target += "?" + q.Encode()
	default:
		target += "?" + q.Encode()
	}
	hr, err := http.NewRequest(method, target, body)
	if err != nil {
		e.t.Fatal(err)
	}
	hr.Header = header
	if ctype != "" {
		hr.Header.Set("Content-Type", ctype)
	}
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := resp{status: res.StatusCode, header: res.Header, raw: string(raw)}
	if method != http.MethodHead {
		if err := json.Unmarshal(raw, &out.body); err != nil {
			e.t.Fatalf("%s %s: body is not a JSON object: %q", method, r.path, raw)
		}
	}
	return out
}
