package gateway

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"siteplane.dev/services/internal/platform/rest"
)

// wpError is a WordPress error body: {"code", "message", "data": {"status"}}.
type wpError struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data"`
}

func newError(code, message string, status int) *wpError {
	return &wpError{Code: code, Message: message, Data: map[string]any{"status": status}}
}

// MarshalJSON writes the body as the route kit does, with PHP's escaping
// ("</strong>" as "<\/strong>").
func (e *wpError) MarshalJSON() ([]byte, error) {
	return rest.NewError(e.Code, e.Message, e.status()).MarshalJSON()
}

func (e *wpError) status() int {
	if s, ok := e.Data["status"].(int); ok {
		return s
	}
	return http.StatusInternalServerError
}

// writeJSON writes v with WordPress's content type. HTML characters are not
// escaped: WordPress sends "<strong>" in auth messages as is.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"code":"rest_encode_error","message":"The response could not be encoded.","data":{"status":500}}`)
	}
	b := bytes.TrimRight(buf.Bytes(), "\n")
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeError(w http.ResponseWriter, e *wpError) { writeJSON(w, e.status(), e) }

// errorFunc adapts writeError to routing.ErrorFunc and server.ErrorWriter.
func errorFunc(w http.ResponseWriter, _ *http.Request, status int, code, message string) {
	writeError(w, newError(code, message, status))
}

const msgNoRoute = "No route was found matching the URL and request method."

func errNoRoute() *wpError { return newError("rest_no_route", msgNoRoute, http.StatusNotFound) }
