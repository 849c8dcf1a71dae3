package marketplace

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
)

// The seed's error messages, one per operation. The message never changes
// with the cause (missing key, unknown item, rate limit); the HTTP status says
// what went wrong.
const (
	msgAccount  = "Invalid request"
	msgItems    = "No items found"
	msgItem     = "Item Not Found"
	msgPurchase = "Invalid purchase code"
)

type errorBody struct {
	Status string `json:"status"`
	Msg    string `json:"msg"`
}

// WriteError is the service's server.ErrorWriter: errors raised outside the
// handlers (panics, unknown paths, oversized bodies) come out in the same
// {"status":"error","msg":...} envelope as the handlers' own. The code
// argument is WordPress-style and has no place in this envelope.
func WriteError(w http.ResponseWriter, _ *http.Request, status int, _ string, message string) {
	writeJSON(w, status, errorBody{Status: "error", Msg: message})
}

// writeJSON writes v without HTML escaping (URLs keep their '&') and with
// no-store caching: every answer depends on a secret key.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only a programming error (an invalid json.Number) gets here.
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"status":"error","msg":"Internal error"}` + "\n")
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=UTF-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
