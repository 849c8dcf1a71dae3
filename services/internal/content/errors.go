package content

import (
	"fmt"
	"net/http"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// APIError is a WordPress REST error: code, message and data.status (plus
// any extra data keys).
type APIError struct {
	Status  int
	Code    string
	Message string
	Data    map[string]any
}

func (e *APIError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

func apiErr(status int, code, message string) *APIError {
	return &APIError{Status: status, Code: code, Message: message}
}

// forbidden uses rest_authorization_required_code: 401 for anonymous callers,
// 403 for logged-in ones.
func forbidden(who identity.Identity, code, message string) *APIError {
	status := http.StatusForbidden
	if !who.LoggedIn() {
		status = http.StatusUnauthorized
	}
	return apiErr(status, code, message)
}

// invalidParam is rest_invalid_param for one parameter, shaped as
// has_valid_params reports it.
func invalidParam(name, innerCode, innerMessage string, innerData any) *APIError {
	return &APIError{Status: http.StatusBadRequest, Code: "rest_invalid_param",
		Message: "Invalid parameter(s): " + name,
		Data: map[string]any{
			"params":  map[string]any{name: innerMessage},
			"details": map[string]any{name: rest.Object{{Key: "code", Value: innerCode}, {Key: "message", Value: innerMessage}, {Key: "data", Value: innerData}}},
		}}
}

// Body renders the error envelope.
func (e *APIError) Body() map[string]any {
	data := map[string]any{"status": e.Status}
	for k, v := range e.Data {
		data[k] = v
	}
	return map[string]any{"code": e.Code, "message": e.Message, "data": data}
}

var (
	errInvalidPostID = apiErr(http.StatusNotFound, "rest_post_invalid_id", "Invalid post ID.")
)
