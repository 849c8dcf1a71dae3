// Package rest is the route kit: it serves REST routes with the behaviour of
// WordPress's REST server (docs/reference/wp-rest-behavior.md, which the §
// numbers in this package's comments refer to), from
// one declaration per route.
//
// A Route is data: namespace, WordPress-style path pattern with named groups,
// endpoints (methods, ordered argument schemas, allow_batch, permission check,
// handler) and the item schema. From it a Server derives parameter gathering
// (JSON, form and multipart bodies, PHP bracket syntax in query strings, URL
// groups, defaults), validation and sanitisation with WordPress's exact error
// codes and messages, the validation-before-permission order, the 401/403
// rule, OPTIONS and HEAD, the Allow header and targetHints, context filtering,
// _fields, _envelope, _jsonp, _pretty, _method, CORS and cache headers, and
// the route descriptions the gateway merges into its index.
//
// A minimal service:
//
//	item := &rest.Schema{Type: "object", Properties: rest.Props{
//		{Name: "id", Schema: &rest.Schema{Type: "integer", Context: []string{"view", "edit", "embed"}, Readonly: true}},
//		{Name: "secret", Schema: &rest.Schema{Type: "string", Context: []string{"edit"}}},
//	}}
//	srv, err := rest.New(rest.Options{RootURL: "https://example.com/cms-json/"}, rest.Route{
//		Namespace: "cms/v2",
//		Path:      `/things/(?P<id>[\d]+)`,
//		Schema:    item,
//		Endpoints: []rest.Endpoint{{
//			Methods: rest.Readable,
//			Args: rest.Props{
//				{Name: "id", Schema: &rest.Schema{Type: "integer"}},
//				{Name: "context", Schema: rest.ContextArg(item, "view")},
//			},
//			Handler: func(r *rest.Request) (*rest.Response, error) {
//				id := r.Int("id")
//				if id != 7 {
//					return nil, rest.NewError("rest_thing_invalid_id", "Invalid thing ID.", 404)
//				}
//				return rest.OK(rest.Item{
//					Data:  rest.Object{}.With("id", id).With("secret", "s3cret"),
//					Links: rest.Links{{Rel: "self", Href: r.URL("/cms/v2/things/7")}},
//				}), nil
//			},
//		}},
//	})
//	router.Handle(contract.RouteDescriptionsPath, srv.IndexHandler())
//	router.PathPrefix("/").Handler(srv) // the REST route is the URL path
//
// Callers: by default the caller is identity.FromContext (the identity
// middleware verifies the gateway's signed header); Options.Caller replaces
// it. Anonymous callers get 401 from Denied/Forbidden, logged-in ones 403.
// The matched route pattern is reported to metrics.SetRoute for the HTTP
// metrics and access log.
//
// Values: handlers read parameters with Request.Param and the typed helpers
// (Int, String, Bool, Ints, List, Map); sanitised integers are int64,
// numbers float64, arrays []any, objects map[string]any. Parameters and
// declared defaults must be treated as read-only.
//
// Responses: return an Item (or []Item for a collection) carrying every field
// of every context; the kit drops what the request's context and _fields
// exclude and folds the Item's Links into "_links" (compact "wp:" relations,
// curies, targetHints on self). Errors are *Error values; NewError, Denied
// and Forbidden build the common ones.
//
// Batch: Server.Check pre-validates a sub-request (route, allow_batch,
// arguments) and Server.Do runs one in-process. The gateway rebuilds the
// services' routes from their descriptions (ParseIndex, RoutesForValidation)
// and validates sub-requests with the same code.
package rest
