package content

import (
	"net/http"

	"siteplane.dev/services/internal/platform/rest"
)

// invalidParam is rest_invalid_param for one parameter, shaped as
// has_valid_params reports it.
func invalidParam(name, innerCode, innerMessage string, innerData any) *rest.Error {
	return &rest.Error{Code: "rest_invalid_param", Message: "Invalid parameter(s): " + name,
		Data: rest.Object{
			{Key: "status", Value: http.StatusBadRequest},
			{Key: "params", Value: rest.Object{{Key: name, Value: innerMessage}}},
			{Key: "details", Value: rest.Object{{Key: name, Value: rest.Object{{Key: "code", Value: innerCode}, {Key: "message", Value: innerMessage}, {Key: "data", Value: innerData}}}}},
		}}
}

func errInvalidPostID() *rest.Error {
	return rest.NewError("rest_post_invalid_id", "Invalid post ID.", http.StatusNotFound)
}
