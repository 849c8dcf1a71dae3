package rest

import (
	"net/http"
	"strconv"
)

// The single writer of JSON bodies outside a Server's own responses: the
// services' internal endpoints, the health probes and the errors raised
// before a request reaches a route table (middleware, the gateway's proxy)
// use it, so every WordPress error body in the project is encoded once, the
// way the route kit encodes its own (PHP's escaping, members in order).

// WriteJSON writes v as the body of a response with status and WordPress's
// JSON content type. v is encoded as the kit encodes response data (an
// Object keeps its member order; other values go through encoding/json
// without HTML escaping).
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b := appendJSON(v, false)
	h := w.Header()
	h["Content-Type"] = hvJSON
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// WriteError writes e as WordPress's error body with e's status.
func WriteError(w http.ResponseWriter, e *Error) { WriteJSON(w, e.Status(), e.body()) }

// WriteErrorCode writes {"code", "message", "data": {"status"}}. Its
// signature is the one of the error callbacks of the platform server
// (server.ErrorWriter) and the gateway's proxy (routing.ErrorFunc), so it
// can be passed as either.
func WriteErrorCode(w http.ResponseWriter, _ *http.Request, status int, code, message string) {
	WriteError(w, NewError(code, message, status))
}
