package content

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"slices"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// Wiring of the declared routes (routes.go) to the route kit: the kit does
// parameter gathering, validation, the permission/handler order, Allow,
// OPTIONS/HEAD, _fields, _envelope, headers and the route descriptions.
// Nothing here is specific to one route.

// NewServer returns the kit server for every content route.
func (s *Service) NewServer(logger *slog.Logger) (*rest.Server, error) {
	var routes []rest.Route
	for _, rt := range s.Routes() {
		r := rest.Route{Namespace: Namespace, Path: rt.Path, Schema: toRestSchema(rt.Schema)}
		for _, ep := range rt.Endpoints {
			r.Endpoints = append(r.Endpoints, s.restEndpoint(ep))
		}
		routes = append(routes, r)
	}
	return rest.New(rest.Options{
		RootURL: s.restRoot + "/",
		Caller:  func(ctx context.Context) rest.Caller { return identity.FromContext(ctx) },
		Logger:  logger,
	}, routes...)
}

func (s *Service) restEndpoint(ep Endpoint) rest.Endpoint {
	out := rest.Endpoint{Methods: ep.Methods, Args: toRestProps(ep.Args)}
	if ep.AllowBatch {
		out.AllowBatch = &rest.Batch{V1: true}
	}
	if ep.Permission != nil {
		perm := ep.Permission
		out.Permission = func(r *rest.Request) error { return toRestError(perm(callOf(r, ep.Args))) }
	}
	h := ep.Handler
	out.Handler = func(r *rest.Request) (*rest.Response, error) {
		res, err := h(callOf(r, ep.Args))
		if err != nil {
			return nil, toRestError(err)
		}
		resp := &rest.Response{Status: res.Status, Data: res.Body, Header: res.Header}
		if pg := res.Page; pg != nil {
			rest.Paginate(r, resp, int64(pg.Total), pg.Page, pg.PerPage)
		}
		return resp, nil
	}
	return out
}

// restStash keeps request-scoped values on the kit's request, so that the
// permission check, the Allow computation and the handler share them.
type restStash struct{ r *rest.Request }

func (s restStash) recall(k string) (any, bool) {
	v := s.r.Param("\x00" + k)
	return v, v != nil
}
func (s restStash) remember(k string, v any) { s.r.Set("\x00"+k, v) }

// callOf builds the handler's view of a kit request: the declared arguments
// that are present, JSON nulls kept as nil (they reset dates), and an id
// sent in a create body (rest_post_exists).
func callOf(r *rest.Request, args []P) *Call {
	params := make(map[string]any, len(args)+1)
	var jsonParams map[string]any
	for _, a := range args {
		if v := r.Param(a.Name); v != nil {
			params[a.Name] = v
			continue
		}
		if jsonParams == nil {
			jsonParams = r.JSONParams()
		}
		if v, ok := jsonParams[a.Name]; ok && v == nil {
			params[a.Name] = nil
		}
	}
	if _, declared := params["id"]; !declared && r.InBody("id") {
		params["id"] = r.Param("id")
	}
	who := identity.FromContext(r.Context())
	return &Call{Ctx: r.Context(), Who: who, Method: r.Method, Params: params, stash: restStash{r}, undeclared: r.Param, wants: r.Wants, query: r.QueryParams}
}

// toRestError converts this package's errors to the kit's.
func toRestError(err error) error {
	if err == nil {
		return nil
	}
	var ae *APIError
	if !errors.As(err, &ae) {
		return err
	}
	data := rest.Object{{Key: "status", Value: ae.Status}}
	// has_valid_params' order: params, then details; other keys sorted
	for _, k := range []string{"params", "details"} {
		if v, ok := ae.Data[k]; ok {
			data = append(data, rest.Member{Key: k, Value: v})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(ae.Data)) {
		if k != "params" && k != "details" {
			data = append(data, rest.Member{Key: k, Value: ae.Data[k]})
		}
	}
	return &rest.Error{Code: ae.Code, Message: ae.Message, Data: data}
}

// toRestSchema converts a declaration to the kit's schema type.
func toRestSchema(s *S) *rest.Schema {
	if s == nil {
		return nil
	}
	r := &rest.Schema{Type: s.Type, Types: s.Types, Format: s.Format, Description: s.Description, Enum: s.Enum,
		Default: s.Default, Minimum: s.Minimum, Maximum: s.Maximum, UniqueItems: s.UniqueItems, Title: s.Title,
		Required: s.Required, Context: s.Context, Readonly: s.Readonly, Items: toRestSchema(s.Items),
		Properties: toRestProps(s.Properties)}
	if s.NoAdditional {
		r.AdditionalProperties = false
	}
	for _, o := range s.OneOf {
		r.OneOf = append(r.OneOf, toRestSchema(o))
	}
	if s.Raw {
		// title/content/excerpt: WordPress registers null callbacks (string or {raw})
		r.Validate = func(*rest.Request, any, string) error { return nil }
		r.Sanitize = func(_ *rest.Request, v any, _ string) (any, error) { return v, nil }
	}
	if s.Meta {
		r.Validate = func(_ *rest.Request, v any, _ string) error {
			switch v.(type) {
			case map[string]any, []any: // a PHP array either way
				return nil
			}
			return rest.ErrInvalid
		}
		r.Sanitize = func(_ *rest.Request, v any, _ string) (any, error) { return v, nil }
	}
	if s.Guard != nil {
		plain := *r
		guard := s.Guard
		r.Sanitize = func(req *rest.Request, v any, param string) (any, error) {
			clean, err := rest.ParseArg(v, &plain, param)
			if err != nil {
				return nil, err
			}
			if is := guard(identity.FromContext(req.Context()), clean); is != nil {
				return nil, &rest.Error{Code: is.code, Message: is.message, Data: is.data}
			}
			return clean, nil
		}
	}
	return r
}

func toRestProps(ps []P) rest.Props {
	if ps == nil {
		return nil
	}
	out := make(rest.Props, 0, len(ps))
	for _, p := range ps {
		out = append(out, rest.Prop{Name: p.Name, Schema: toRestSchema(p.S)})
	}
	return out
}
