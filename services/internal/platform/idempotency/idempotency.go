// Package idempotency lets a client retry a create without creating twice.
//
// A POST that carries an Idempotency-Key header runs in one transaction that
// also stores the answer under (caller, key), so the answer exists exactly
// when the write does. A retry with the same key and the same request gets
// the stored answer back (with "Idempotent-Replayed: true") and writes
// nothing; the same key with a different request is refused with 422
// rest_idempotency_key_reused. Two requests with the same key at once are
// serialised on a transaction-scoped advisory lock: the second waits for the
// first and then replays its answer. Keys live 24 hours. Only successful
// (2xx) answers are stored: a refused request wrote nothing and may be sent
// again as is.
//
// The table (idempotency_keys, see content's and media's migrations) lives
// in the service's own schema.
package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/rest"
)

// Header is the request header naming the key; ReplayedHeader marks a
// replayed answer.
const (
	Header         = "Idempotency-Key"
	ReplayedHeader = "Idempotent-Replayed"
)

// TTL is how long a stored answer is replayed.
const TTL = 24 * time.Hour

// MaxBody is the largest request body an idempotent request may have: the
// body is held in memory to fingerprint it before anything runs.
const MaxBody = 64 << 20

func tooLarge(w http.ResponseWriter) {
	rest.WriteError(w, rest.NewError("rest_idempotency_body_too_large",
		fmt.Sprintf("A request with an Idempotency-Key header may have a body of at most %d bytes.", MaxBody), http.StatusRequestEntityTooLarge))
}

// maxKeyLength bounds the key (a UUID is 36 characters).
const maxKeyLength = 255

// Store runs idempotent requests of one service.
type Store struct {
	pool *pgxpool.Pool
	// withTx returns a context whose database work goes through tx: the
	// service's own seam (its handlers' writes become savepoints of tx),
	// and what to run once tx has committed (nil for nothing).
	withTx WithTx
	logger *slog.Logger
}

// WithTx routes a request's statements through tx; afterCommit, when not
// nil, runs once tx has committed.
type WithTx func(ctx context.Context, tx pgx.Tx) (txCtx context.Context, afterCommit func())

// New returns a Store over pool; withTx is how the service routes a
// request's statements through a transaction.
func New(pool *pgxpool.Pool, withTx WithTx, logger *slog.Logger) *Store {
	if logger == nil {
		logger = slog.Default()
	}
	return &Store{pool: pool, withTx: withTx, logger: logger}
}

// Middleware makes every POST with an Idempotency-Key header idempotent;
// other requests pass through untouched. It must run after the identity
// middleware: keys are scoped to the caller.
func (s *Store) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get(Header)
		if r.Method != http.MethodPost || key == "" {
			next.ServeHTTP(w, r)
			return
		}
		if !validKey(key) {
			rest.WriteError(w, rest.NewError("rest_invalid_idempotency_key",
				fmt.Sprintf("The Idempotency-Key header must be 1 to %d visible ASCII characters.", maxKeyLength), http.StatusBadRequest))
			return
		}
		if r.ContentLength > MaxBody {
			tooLarge(w)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
		if err == nil && len(body) > MaxBody {
			tooLarge(w)
			return
		}
		if err != nil {
			// the body limit, or a client that went away: let the handler
			// meet the same error on an empty body
			next.ServeHTTP(w, r)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		s.serve(w, r, next, key, fingerprint(r, body))
	})
}

// stored is an answer kept for replay.
type stored struct {
	fingerprint []byte
	status      int
	header      http.Header
	body        []byte
}

func (s *Store) serve(w http.ResponseWriter, r *http.Request, next http.Handler, key string, fp []byte) {
	ctx := r.Context()
	scope := strconv.FormatInt(identity.FromContext(ctx).UserID, 10)
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after Commit
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", lockKey(scope, key)); err != nil {
		s.fail(w, r, err)
		return
	}
	prev, err := load(ctx, tx, scope, key)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if prev != nil {
		if !bytes.Equal(prev.fingerprint, fp) {
			rest.WriteError(w, rest.NewError("rest_idempotency_key_reused",
				"This Idempotency-Key was already used with a different request.", http.StatusUnprocessableEntity))
			return
		}
		replay(w, prev)
		return
	}
	rec := &capture{header: http.Header{}, status: http.StatusOK}
	txCtx, afterCommit := s.withTx(ctx, tx)
	next.ServeHTTP(rec, r.WithContext(txCtx))
	if rec.status < 200 || rec.status > 299 {
		// Nothing to keep: the handler's savepoints rolled back what it did.
		_ = tx.Rollback(ctx)
		rec.writeTo(w)
		return
	}
	answer := &stored{fingerprint: fp, status: rec.status, header: rec.header, body: rec.body.Bytes()}
	if err := save(ctx, tx, scope, key, answer); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := tx.Commit(ctx); err != nil {
		s.fail(w, r, postgres.CommitError(err))
		return
	}
	if afterCommit != nil {
		afterCommit()
	}
	rec.writeTo(w)
}

// fail answers a database failure: 503 when it could not serve (or the
// commit's outcome is unknown), else a logged 500.
func (s *Store) fail(w http.ResponseWriter, r *http.Request, err error) {
	log := logging.FromContext(r.Context(), s.logger)
	if e := rest.FromUnavailable(err); e != nil {
		log.Warn("idempotent request: database unavailable", "error", err.Error())
		rest.WriteError(w, e)
		return
	}
	log.Error("idempotent request failed", "error", err.Error())
	rest.WriteError(w, rest.NewError("internal_server_error", "There has been a critical error on this website.", http.StatusInternalServerError))
}

func load(ctx context.Context, tx pgx.Tx, scope, key string) (*stored, error) {
	var st stored
	var header []byte
	err := tx.QueryRow(ctx, `SELECT fingerprint, status, header, body FROM idempotency_keys
		WHERE scope = $1 AND key = $2 AND created_at > now() - make_interval(secs => $3)`,
		scope, key, TTL.Seconds()).Scan(&st.fingerprint, &st.status, &header, &st.body)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read idempotency key: %w", err)
	}
	if err := json.Unmarshal(header, &st.header); err != nil {
		return nil, fmt.Errorf("decode stored headers: %w", err)
	}
	return &st, nil
}

func save(ctx context.Context, tx pgx.Tx, scope, key string, st *stored) error {
	header, err := json.Marshal(st.header)
	if err != nil {
		return err
	}
	// An expired row of the same key is replaced.
	if _, err := tx.Exec(ctx, `INSERT INTO idempotency_keys (scope, key, fingerprint, status, header, body)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (scope, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, status = EXCLUDED.status,
			header = EXCLUDED.header, body = EXCLUDED.body, created_at = now()`,
		scope, key, st.fingerprint, st.status, header, st.body); err != nil {
		return fmt.Errorf("store idempotency key: %w", err)
	}
	return nil
}

// Cleanup deletes expired keys every interval until ctx ends.
func (s *Store) Cleanup(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := s.pool.Exec(ctx, "DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(secs => $1)", TTL.Seconds()); err != nil && ctx.Err() == nil {
				s.logger.Warn("delete expired idempotency keys", "error", err.Error())
			}
		}
	}
}

func replay(w http.ResponseWriter, st *stored) {
	h := w.Header()
	for k, v := range st.header {
		h[k] = v
	}
	h.Set(ReplayedHeader, "true")
	h.Set("Content-Length", strconv.Itoa(len(st.body)))
	w.WriteHeader(st.status)
	_, _ = w.Write(st.body)
}

// fingerprint identifies the request a key was first used with: method,
// path and query, content type and body.
func fingerprint(r *http.Request, body []byte) []byte {
	h := sha256.New()
	for _, part := range []string{r.Method, r.URL.RequestURI(), r.Header.Get("Content-Type")} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	h.Write(body)
	return h.Sum(nil)
}

func lockKey(scope, key string) int64 {
	h := fnv.New64a()
	h.Write([]byte("siteplane-idempotency\x00" + scope + "\x00" + key))
	return int64(h.Sum64())
}

func validKey(k string) bool {
	if len(k) > maxKeyLength {
		return false
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x21 || c > 0x7e {
			return false
		}
	}
	return true
}

// capture holds a response until the transaction's outcome is known.
type capture struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (c *capture) Header() http.Header { return c.header }

func (c *capture) WriteHeader(status int) {
	if !c.wrote {
		c.status, c.wrote = status, true
	}
}

func (c *capture) Write(b []byte) (int, error) {
	c.wrote = true
	return c.body.Write(b)
}

// writeTo sends the held response.
func (c *capture) writeTo(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range c.header {
		h[k] = v
	}
	w.WriteHeader(c.status)
	_, _ = w.Write(c.body.Bytes())
}
