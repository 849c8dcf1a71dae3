package gateway

import (
	"net/http"

	"siteplane.dev/services/internal/platform/rest"
)

// restHeaders are sent on every REST response (reference §1.1 steps 1 and 5,
// §1.8). A proxied service's own values take precedence (see proxy), except
// that the discovery Link is only replaced when the service sends a Link.
func (g *Gateway) restHeaders(h http.Header, r *http.Request) {
	h.Set("X-Robots-Tag", "noindex")
	h.Set("Link", "<"+g.apiRoot()+">; rel=\"https://api.w.org/\"")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Access-Control-Expose-Headers", "X-WP-Total, X-WP-TotalPages, Link")
	h.Set("Access-Control-Allow-Headers", "Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type")
	if origin := r.Header.Get("Origin"); origin != "" {
		h.Set("Access-Control-Allow-Origin", rest.AllowedOrigin(origin))
		h.Set("Access-Control-Allow-Methods", "OPTIONS, GET, POST, PUT, PATCH, DELETE")
		h.Set("Access-Control-Allow-Credentials", "true")
		h.Add("Vary", "Origin")
	}
}

// apiRoot is the REST root with its trailing slash, as WordPress announces it.
func (g *Gateway) apiRoot() string { return g.cfg.Site.URL + RESTPrefix + "/" }

// wpSpelling writes WordPress's own header names with WordPress's capitals
// (X-WP-Total, X-WP-TotalPages, ...): net/http canonicalises the names it
// reads from a service ("X-Wp-Total"), and a few clients compare names
// case-sensitively. Names are respelled once, just before the status line.
type wpSpelling struct {
	http.ResponseWriter
	done bool
}

func (w *wpSpelling) WriteHeader(code int) {
	if !w.done && code >= 200 {
		w.done = true
		h := w.Header()
		for k, v := range h {
			if wp := rest.HeaderName(k); wp != k {
				delete(h, k)
				h[wp] = v
			}
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *wpSpelling) Write(b []byte) (int, error) {
	if !w.done {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (flushing).
func (w *wpSpelling) Unwrap() http.ResponseWriter { return w.ResponseWriter }
