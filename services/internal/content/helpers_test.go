package content

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/content/migrations"
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// The callers of the tests: one user per role (ids fixed), plus a second
// author to test "others'" posts, and anonymous.
const (
	anon        = "anonymous"
	admin       = "administrator"
	editor      = "editor"
	author      = "author"
	author2     = "author2"
	contributor = "contributor"
	subscriber  = "subscriber"
)

var callers = map[string]identity.Identity{
	anon:        {},
	admin:       {UserID: 1, Role: identity.Administrator},
	editor:      {UserID: 2, Role: identity.Editor},
	author:      {UserID: 3, Role: identity.Author},
	contributor: {UserID: 4, Role: identity.Contributor},
	subscriber:  {UserID: 5, Role: identity.Subscriber},
	author2:     {UserID: 6, Role: identity.Author},
}

var testKey = []byte("content-test-key")

// queryCounter counts statements sent to PostgreSQL (round trips) and
// keeps the last ones' text.
type queryCounter struct {
	n    atomic.Int64
	mu   sync.Mutex
	last []string // at most 16
	args [][]any  // the arguments of last
}

func (q *queryCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	q.n.Add(1)
	q.mu.Lock()
	q.last = append(q.last, d.SQL)
	q.args = append(q.args, d.Args)
	if len(q.last) > 16 {
		q.last, q.args = q.last[1:], q.args[1:]
	}
	q.mu.Unlock()
	return ctx
}

// lastSQL returns the text of the last n statements, oldest first.
func (q *queryCounter) lastSQL(n int) []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return slices.Clone(q.last[max(0, len(q.last)-n):])
}

// lastStatement returns the text and arguments of the last statement.
func (q *queryCounter) lastStatement() (string, []any) {
	return q.lastLike("")
}

// lastLike returns the text and arguments of the last statement whose text
// holds part ("" for any).
func (q *queryCounter) lastLike(part string) (string, []any) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i := len(q.last) - 1; i >= 0; i-- {
		if strings.Contains(q.last[i], part) {
			return q.last[i], q.args[i]
		}
	}
	return "", nil
}

func (q *queryCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

type testEnv struct {
	t       testing.TB
	handler http.Handler
	svc     *Service
	pool    *pgxpool.Pool
	queries *queryCounter
}

// newEnv migrates a fresh database and serves the content routes over it
// with the identity middleware, as the service does. The site is in
// Europe/Paris so that local and GMT dates differ.
func newEnv(t testing.TB) *testEnv {
	t.Helper()
	users := store.FixedUsers{}
	for _, id := range callers {
		if id.UserID != 0 {
			users[id.UserID] = true
		}
	}
	return newEnvUsers(t, users)
}

// newEnvUsers is newEnv with its own user directory (names, slugs, roles).
func newEnvUsers(t testing.TB, users store.Users) *testEnv {
	t.Helper()
	dsn := pgtest.NewDatabase(t)
	ctx := context.Background()
	if err := postgres.Migrate(ctx, dsn, contract.ServiceContent, migrations.FS); err != nil {
		t.Fatal(err)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = contract.ServiceContent
	qc := &queryCounter{}
	cfg.ConnConfig.Tracer = qc
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	site := contract.DefaultSite("http://example.test")
	site.Timezone = "Europe/Paris"
	svc := New(pool, site, users)
	srv, err := svc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	h := identity.Middleware(identity.Static(testKey), contract.ServiceContent, nil, func(w http.ResponseWriter, r *http.Request, err error) {
		http.Error(w, err.Error(), http.StatusUnauthorized)
	})(srv)
	return &testEnv{t: t, handler: h, svc: svc, pool: pool, queries: qc}
}

type resp struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   any
}

// obj returns the body as an object.
func (r *resp) obj() map[string]any {
	m, _ := r.Body.(map[string]any)
	return m
}

// list returns the body as an array of objects.
func (r *resp) list() []map[string]any {
	l, _ := r.Body.([]any)
	out := make([]map[string]any, len(l))
	for i, e := range l {
		out[i], _ = e.(map[string]any)
	}
	return out
}

// do sends a request as who; body is JSON-encoded unless it is a string
// (then sent as a form).
func (e *testEnv) do(who, method, path string, body any) *resp {
	e.t.Helper()
	var rd io.Reader
	ct := ""
	switch b := body.(type) {
	case nil:
	case string:
		rd, ct = strings.NewReader(b), "application/x-www-form-urlencoded"
	default:
		data, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd, ct = bytes.NewReader(data), "application/json"
	}
	req := httptest.NewRequest(method, path, rd)
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if id := callers[who]; id.LoggedIn() {
		req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey(testKey), contract.ServiceContent, id, time.Now().Add(time.Minute)))
	}
	rec := httptest.NewRecorder()
	e.handler.ServeHTTP(rec, req)
	r := &resp{Status: rec.Code, Header: rec.Header(), Raw: rec.Body.Bytes()}
	if len(r.Raw) > 0 {
		if err := json.Unmarshal(r.Raw, &r.Body); err != nil {
			e.t.Fatalf("%s %s: body is not JSON: %s", method, path, r.Raw)
		}
	}
	return r
}

// wantError asserts a WordPress error body.
func wantError(t testing.TB, r *resp, status int, code, message string) {
	t.Helper()
	o := r.obj()
	if r.Status != status || o["code"] != code || (message != "" && o["message"] != message) {
		t.Fatalf("want %d %s %q, got %d %s", status, code, message, r.Status, r.Raw)
	}
	if data, _ := o["data"].(map[string]any); data == nil || data["status"] != float64(status) {
		t.Fatalf("error data.status: %s", r.Raw)
	}
}

func wantStatus(t testing.TB, r *resp, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("want status %d, got %d: %s", status, r.Status, r.Raw)
	}
}

// id returns the numeric id of a created item.
func (r *resp) id() int64 {
	v, _ := r.obj()["id"].(float64)
	return int64(v)
}

func str(v any) string { s, _ := v.(string); return s }

func field(m map[string]any, path ...string) any {
	var cur any = m
	for _, p := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[p]
	}
	return cur
}
