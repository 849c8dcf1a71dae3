package idempotency_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/idempotency"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/pgtest"
)

type txKey struct{}

var migrations = fstest.MapFS{
	"0001_things.up.sql": {Data: []byte(`CREATE TABLE thing (id bigserial PRIMARY KEY, title text NOT NULL);`)},
	"0002_keys.up.sql": {Data: []byte(`CREATE TABLE idempotency_keys (scope text NOT NULL, key text NOT NULL,
		fingerprint bytea NOT NULL, status integer NOT NULL, header jsonb NOT NULL, body bytea NOT NULL,
		created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (scope, key));`)},
}

// A create handler that writes through the request's transaction, as the
// services' handlers do, and refuses an empty title with 400.
func create(w http.ResponseWriter, r *http.Request) {
	tx := r.Context().Value(txKey{}).(pgx.Tx)
	var in struct{ Title string }
	_ = json.NewDecoder(r.Body).Decode(&in)
	if in.Title == "" {
		http.Error(w, `{"code":"rest_missing_callback_param"}`, http.StatusBadRequest)
		return
	}
	var id int64
	if err := tx.QueryRow(r.Context(), "INSERT INTO thing (title) VALUES ($1) RETURNING id", in.Title).Scan(&id); err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	w.Header().Set("Location", fmt.Sprintf("/things/%d", id))
	w.WriteHeader(http.StatusCreated)
	fmt.Fprintf(w, `{"id":%d}`, id)
}

func TestIdempotencyKey(t *testing.T) {
	pool := pgtest.NewPool(t, "svc", migrations)
	store := idempotency.New(pool, func(ctx context.Context, tx pgx.Tx) (context.Context, func()) {
		return context.WithValue(ctx, txKey{}, tx), nil
	}, nil)
	user := 7
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := identity.NewContext(r.Context(), identity.Identity{UserID: int64(user), Role: identity.Author})
		store.Middleware(http.HandlerFunc(create)).ServeHTTP(w, r.WithContext(ctx))
	})
	post := func(key, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/things", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			req.Header.Set(idempotency.Header, key)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	count := func() int {
		var n int
		if err := pool.QueryRow(context.Background(), "SELECT count(*) FROM thing").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	first := post("k-1", `{"title":"a"}`)
	if first.Code != 201 || first.Header().Get("Location") == "" {
		t.Fatalf("first: %d %s", first.Code, first.Body)
	}
	again := post("k-1", `{"title":"a"}`)
	if again.Code != 201 || again.Body.String() != first.Body.String() || again.Header().Get("Location") != first.Header().Get("Location") ||
		again.Header().Get(idempotency.ReplayedHeader) != "true" {
		t.Fatalf("retry: %d %s %v, want the first answer replayed", again.Code, again.Body, again.Header())
	}
	if n := count(); n != 1 {
		t.Fatalf("%d rows after a retry, want 1", n)
	}
	if rec := post("k-1", `{"title":"b"}`); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "rest_idempotency_key_reused") {
		t.Fatalf("same key, other body: %d %s", rec.Code, rec.Body)
	}
	// Another caller's key space is its own.
	user = 8
	if rec := post("k-1", `{"title":"a"}`); rec.Code != 201 || rec.Header().Get(idempotency.ReplayedHeader) != "" {
		t.Fatalf("another user's same key: %d %v", rec.Code, rec.Header())
	}
	// A refused request stores nothing: the corrected one runs.
	if rec := post("k-2", `{}`); rec.Code != 400 {
		t.Fatalf("invalid: %d", rec.Code)
	}
	if rec := post("k-2", `{"title":"c"}`); rec.Code != 201 || rec.Header().Get(idempotency.ReplayedHeader) != "" {
		t.Fatalf("after a refused try: %d %v", rec.Code, rec.Header())
	}
	for _, bad := range []string{strings.Repeat("x", 256), "has space", "caf\u00e9"} {
		if rec := post(bad, `{"title":"d"}`); rec.Code != 400 {
			t.Errorf("key %q: %d, want 400", bad, rec.Code)
		}
	}
	// Eight concurrent requests with one key: one row, eight equal answers.
	before := count()
	var wg sync.WaitGroup
	bodies := make([]string, 8)
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := post("k-concurrent", `{"title":"z"}`)
			b, _ := io.ReadAll(rec.Body)
			bodies[i] = fmt.Sprint(rec.Code, string(b))
		}()
	}
	wg.Wait()
	for _, b := range bodies[1:] {
		if b != bodies[0] || !strings.HasPrefix(b, "201") {
			t.Fatalf("concurrent answers differ: %q", bodies)
		}
	}
	if n := count(); n != before+1 {
		t.Fatalf("%d rows written by concurrent retries, want 1", n-before)
	}
}
