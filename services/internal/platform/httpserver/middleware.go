package httpserver

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/gorilla/mux"

	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/metrics"
	"siteplane.dev/services/pkg/contract"
)

// middleware wraps next with, outermost first: request id, metrics and access
// log, panic recovery, body limit.
func (s *Server) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := requestID(r.Header.Get(contract.RequestIDHeader))
		r.Header.Set(contract.RequestIDHeader, id)
		w.Header().Set(contract.RequestIDHeader, id)
		ctx := logging.WithRequestID(r.Context(), id)
		ctx, route := metrics.WithRouteSlot(ctx)
		r = r.WithContext(ctx)
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}

		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.cfg.Logger.Error("panic", "request_id", id, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if !rec.wrote {
					s.cfg.Errors(rec, r, http.StatusInternalServerError, "internal_server_error",
						"There has been a critical error on this website.")
				}
			}
			tmpl := *route
			if tmpl == "" {
				tmpl = "unmatched"
			}
			d := time.Since(start)
			s.metrics.Observe(s.cfg.Service, tmpl, r.Method, rec.status, d)
			// Path only: query strings can carry api_key and passwords.
			s.cfg.Logger.Info("request", "request_id", id, "method", r.Method, "path", r.URL.Path, "route", tmpl,
				"status", rec.status, "bytes", rec.bytes, "duration_ms", float64(d.Microseconds())/1000)
		}()

		if r.ContentLength > s.cfg.MaxBodyBytes {
			s.cfg.Errors(rec, r, http.StatusRequestEntityTooLarge, "rest_request_too_large",
				fmt.Sprintf("The request body exceeds the limit of %d bytes.", s.cfg.MaxBodyBytes))
			return
		}
		r.Body = http.MaxBytesReader(rec, r.Body, s.cfg.MaxBodyBytes)
		next.ServeHTTP(rec, r)
	})
}

// routeTemplate names the gorilla/mux route that matched, or "unmatched" so
// that scanners probing random paths cannot create new series.
func routeTemplate(r *http.Request) string {
	if cr := mux.CurrentRoute(r); cr != nil {
		if t, err := cr.GetPathTemplate(); err == nil {
			return t
		}
	}
	return "unmatched"
}

// requestID keeps a caller's id when it is short and printable, else makes one.
func requestID(in string) string {
	if n := len(in); n > 0 && n <= 128 {
		ok := true
		for i := 0; i < n; i++ {
			if c := in[i]; c < 0x21 || c > 0x7e {
				ok = false
				break
			}
		}
		if ok {
			return in
		}
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// IsBodyTooLarge reports whether err came from the body limit.
func IsBodyTooLarge(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}

type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool
}

// RetryAfter is the Retry-After (seconds) of a 503 that names none: every
// 503 of a service means "not now, try again" (a database outage, a commit
// of unknown outcome, a draining replica), and says when.
const RetryAfter = "2"

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
		if code == http.StatusServiceUnavailable && r.Header().Get("Retry-After") == "" {
			r.Header().Set("Retry-After", RetryAfter)
		}
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Flush supports streaming proxies.
func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack supports protocol upgrades through the gateway.
func (r *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if h, ok := r.ResponseWriter.(http.Hijacker); ok {
		return h.Hijack()
	}
	return nil, nil, errors.New("hijack not supported")
}
