package httpserver

import (
	"context"
	"net/http"
	"time"

	"siteplane.dev/services/internal/platform/rest"
)

func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	rest.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz runs every readiness check with a short deadline. A draining server
// is never ready, so load balancers stop sending before the listener closes.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	checks, draining := s.readiness, s.draining
	s.mu.Unlock()
	if draining {
		rest.WriteJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "draining"})
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
		rest.WriteJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "unavailable", "failed": failed})
		return
	}
	rest.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// WordPressError writes WordPress's error envelope: it is the route kit's
// rest.WriteErrorCode, the one writer of that body, named here as the
// default ErrorWriter.
func WordPressError(w http.ResponseWriter, r *http.Request, status int, code, message string) {
	rest.WriteErrorCode(w, r, status, code, message)
}
