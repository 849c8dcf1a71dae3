package server

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz runs every readiness check with a short deadline. A draining server
// is never ready, so load balancers stop sending before the listener closes.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	checks, draining := s.readiness, s.draining
	s.mu.Unlock()
	if draining {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "draining"})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	failed := map[string]string{}
	for _, c := range checks {
		if err := c.check(ctx); err != nil {
			// The check's error is a short reason written by us, not a driver message.
			failed[c.name] = err.Error()
		}
	}
	if len(failed) > 0 {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "unavailable", "failed": failed})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// WordPressError writes WordPress's error envelope.
func WordPressError(w http.ResponseWriter, _ *http.Request, status int, code, message string) {
	writeJSON(w, status, map[string]any{"code": code, "message": message, "data": map[string]int{"status": status}})
}
