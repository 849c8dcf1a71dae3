package rest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Error is a WordPress error (WP_Error): a code, a message, optional data and,
// rarely, further errors. Handlers and permission checks return it to answer
// with the WordPress error body (§1.2):
//
//	{"code": "...", "message": "...", "data": {"status": 404}}
//
// The HTTP status is the "status" key of the last data payload that has one
// (AdditionalData, then Data, then each of Additional in order); 500 if none.
type Error struct {
	Code    string
	Message string
	// Data is usually an Object with a "status" member; nil encodes as null.
	Data any
	// AdditionalData holds earlier data payloads of the same code (oldest
	// first); it is emitted as "additional_data" only when non-empty.
	AdditionalData []any
	// Additional holds the further (code, message) pairs of a multi-error;
	// emitted as "additional_errors".
	Additional []*Error
}

// NewError returns an error whose data is {"status": status}.
func NewError(code, message string, status int) *Error {
	return &Error{Code: code, Message: message, Data: Object{{Key: "status", Value: boxStatus(status)}}}
}

// Error implements the error interface.
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Status is the HTTP status of the error.
func (e *Error) Status() int {
	if s, ok := e.lastStatus(); ok {
		return s
	}
	return http.StatusInternalServerError
}

func (e *Error) lastStatus() (status int, found bool) {
	for _, d := range e.AdditionalData {
		if s, ok := statusOf(d); ok {
			status, found = s, true
		}
	}
	if s, ok := statusOf(e.Data); ok {
		status, found = s, true
	}
	for _, a := range e.Additional {
		if s, ok := a.lastStatus(); ok {
			status, found = s, true
		}
	}
	return status, found
}

// With appends more errors (WP_Error::add with a different code); it returns e.
func (e *Error) With(more ...*Error) *Error {
	e.Additional = append(e.Additional, more...)
	return e
}

// Messages is every message of the error, first error first.
func (e *Error) Messages() []string {
	out := []string{e.Message}
	for _, a := range e.Additional {
		out = append(out, a.Messages()...)
	}
	return out
}

func statusOf(d any) (int, bool) {
	var v any
	switch m := d.(type) {
	case Object:
		x, ok := m.Get("status")
		if !ok {
			return 0, false
		}
		v = x
	case map[string]any:
		x, ok := m["status"]
		if !ok {
			return 0, false
		}
		v = x
	default:
		return 0, false
	}
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case float64:
		return int(n), true
	case json.Number:
		i, err := n.Int64()
		return int(i), err == nil
	}
	return 0, false
}

// body is the error as WordPress's rest_convert_error_to_response renders it.
func (e *Error) body() Object {
	o := make(Object, 0, 5)
	o = append(o, Member{"code", e.Code}, Member{"message", e.Message}, Member{"data", e.Data})
	if len(e.AdditionalData) > 0 {
		o = append(o, Member{"additional_data", e.AdditionalData})
	}
	if len(e.Additional) > 0 {
		extra := make([]any, 0, len(e.Additional))
		for _, a := range e.Additional {
			extra = append(extra, a.body())
		}
		o = append(o, Member{"additional_errors", extra})
	}
	return o
}

// MarshalJSON renders the WordPress error body.
func (e *Error) MarshalJSON() ([]byte, error) {
	return appendJSON(e.body(), false), nil
}

// Codes and messages of the errors the kit itself raises (§1.3).
const (
	msgNoRoute       = "No route was found matching the URL and request method."
	msgInvalidJSON   = "Invalid JSON body passed."
	msgForbidden     = "Sorry, you are not allowed to do that."
	msgBatchNotAllow = "The requested route does not support batch requests."
	msgInternal      = "There has been a critical error on this website."
)

func errNoRoute() *Error { return NewError("rest_no_route", msgNoRoute, http.StatusNotFound) }

// NoRoute is rest_no_route (404), WordPress's answer to a URL and method no
// route serves, for handlers outside a Server's route table.
func NoRoute() *Error { return errNoRoute() }

func errBatchNotAllowed() *Error {
	return NewError("rest_batch_not_allowed", msgBatchNotAllow, http.StatusBadRequest)
}

func errInternal() *Error {
	return NewError("internal_server_error", msgInternal, http.StatusInternalServerError)
}

// AuthStatus is WordPress's rest_authorization_required_code: 401 for an
// anonymous caller, 403 for a logged-in one (§1.4).
func AuthStatus(c Caller) int {
	if c != nil && c.LoggedIn() {
		return http.StatusForbidden
	}
	return http.StatusUnauthorized
}

// Forbidden is the error of a permission check that said no: code
// rest_forbidden, "Sorry, you are not allowed to do that.", 401 or 403.
func Forbidden(r *Request) *Error { return Denied(r, "rest_forbidden", msgForbidden) }

// Denied is a "not allowed" error with the 401-versus-403 status of §1.4,
// e.g. Denied(r, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user.").
func Denied(r *Request, code, message string) *Error {
	return NewError(code, message, AuthStatus(r.Caller))
}

// invalidParams builds rest_invalid_param from per-parameter errors in
// argument order.
func invalidParams(names []string, errs []*Error) *Error {
	params := make(Object, 0, len(names))
	details := make(Object, 0, len(names))
	for i, n := range names {
		params = append(params, Member{n, strings.Join(errs[i].Messages(), " ")})
		if errs[i].Code != "" { // a callback's plain "false" has no details
			details = append(details, Member{n, errs[i].body()})
		}
	}
	return &Error{
		Code:    "rest_invalid_param",
		Message: "Invalid parameter(s): " + strings.Join(names, ", "),
		Data: Object{
			{"status", http.StatusBadRequest},
			{"params", params},
			{"details", details},
		},
	}
}

func missingParams(names []string) *Error {
	list := make([]any, len(names))
	for i, n := range names {
		list[i] = n
	}
	return &Error{
		Code:    "rest_missing_callback_param",
		Message: "Missing parameter(s): " + strings.Join(names, ", "),
		Data:    Object{{"status", http.StatusBadRequest}, {"params", list}},
	}
}

// boxedStatus holds the HTTP statuses as interface values, so building an
// error (permission checks run on every response for Allow) does not
// allocate for the number.
var boxedStatus = func() (b [600]any) {
	for i := range b {
		b[i] = i
	}
	return b
}()

func boxStatus(status int) any {
	if status >= 0 && status < len(boxedStatus) {
		return boxedStatus[status]
	}
	return status
}
