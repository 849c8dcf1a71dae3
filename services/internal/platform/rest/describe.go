package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// RouteDescription is one entry of the "routes" object of WordPress's
// index (§2.2), as the gateway merges it into GET / and /{namespace}.
type RouteDescription struct {
	// Route is the raw pattern, the key in "routes".
	Route     string
	Namespace string
	Methods   []string
	Endpoints []EndpointDescription
	// Schema is the item schema (shown with context=help and by OPTIONS).
	Schema *Schema
	// Self is the _links.self href; empty for routes with variables.
	Self string
}

// EndpointDescription is one element of "endpoints".
type EndpointDescription struct {
	Methods    []string
	AllowBatch *Batch
	Args       Props
	// Callbacks names the arguments whose declaration has a Validate or
	// Sanitize callback. Callbacks cannot travel in JSON, so the internal
	// index lists them ("x-callbacks") and RoutesForValidation does not
	// schema-check them: the gateway must never refuse what the owning
	// service would accept. The public index never shows the list.
	Callbacks []string
}

func (s *Server) describe(cr *compiledRoute) RouteDescription {
	d := RouteDescription{Route: cr.full, Namespace: cr.Namespace, Schema: cr.Schema, Methods: []string{}}
	for i := range cr.Endpoints {
		ep := &cr.Endpoints[i]
		if ep.Hidden {
			continue
		}
		d.Methods = append(d.Methods, ep.Methods...)
		ed := EndpointDescription{Methods: ep.Methods, Args: ep.Args}
		for _, a := range ep.Args {
			if a.Schema != nil && (a.Schema.Validate != nil || a.Schema.Sanitize != nil) {
				ed.Callbacks = append(ed.Callbacks, a.Name)
			}
		}
		if b := ep.batch(cr.Route); b != nil {
			ed.AllowBatch = b
		}
		d.Endpoints = append(d.Endpoints, ed)
	}
	if !cr.hasVars {
		d.Self = s.URL(cr.full)
	}
	return d
}

// Describe returns the descriptions of the visible routes, in order.
func (s *Server) Describe() []RouteDescription {
	out := make([]RouteDescription, 0, len(s.routes))
	for _, cr := range s.routes {
		if !cr.Hidden {
			out = append(out, s.describe(cr))
		}
	}
	return out
}

// object renders the description in WordPress's key order: namespace,
// methods, endpoints, schema (help context only), _links. internal adds
// each endpoint's "x-callbacks" for the gateway (see EndpointDescription).
func (d RouteDescription) object(withSchema, internal bool) Object {
	methods := make([]any, len(d.Methods))
	for i, m := range d.Methods {
		methods[i] = m
	}
	eps := make([]any, len(d.Endpoints))
	for i, ep := range d.Endpoints {
		em := make([]any, len(ep.Methods))
		for j, m := range ep.Methods {
			em[j] = m
		}
		o := Object{{"methods", em}}
		if ep.AllowBatch != nil {
			o = append(o, Member{"allow_batch", ep.AllowBatch})
		}
		args := make(Object, 0, len(ep.Args))
		for _, a := range ep.Args {
			args = append(args, Member{a.Name, argSchema{a.Schema}})
		}
		var av any = args
		if len(args) == 0 {
			av = []any{} // PHP's empty array
		}
		o = append(o, Member{"args", av})
		if internal && len(ep.Callbacks) > 0 {
			cb := make([]any, len(ep.Callbacks))
			for j, c := range ep.Callbacks {
				cb[j] = c
			}
			o = append(o, Member{"x-callbacks", cb})
		}
		eps[i] = o
	}
	o := Object{{"namespace", d.Namespace}, {"methods", methods}, {"endpoints", eps}}
	if withSchema && d.Schema != nil {
		o = append(o, Member{"schema", d.Schema})
	}
	if d.Self != "" {
		o = append(o, Member{"_links", Object{{"self", []any{Object{{"href", d.Self}}}}}})
	}
	return o
}

// Object renders the description as JSON-ready data; withSchema adds the
// item schema (the index's context=help form).
func (d RouteDescription) Object(withSchema bool) Object { return d.object(withSchema, false) }

// RoutesObject renders descriptions as the index's "routes" object.
func RoutesObject(descs []RouteDescription, withSchema bool) Object {
	return routesObject(descs, withSchema, false)
}

func routesObject(descs []RouteDescription, withSchema, internal bool) Object {
	o := make(Object, 0, len(descs))
	for _, d := range descs {
		o = append(o, Member{d.Route, d.object(withSchema, internal)})
	}
	return o
}

// Namespaces lists the namespaces of routes in first-seen order ("" is not
// a namespace).
func Namespaces(descs []RouteDescription) []string {
	var out []string
	for _, d := range descs {
		if d.Namespace != "" && !slices.Contains(out, d.Namespace) {
			out = append(out, d.Namespace)
		}
	}
	return out
}

// Index is the document a service serves at contract.RouteDescriptionsPath:
// its namespaces and route descriptions, schemas included.
type Index struct {
	Namespaces []string
	Routes     []RouteDescription
}

// Index returns the service's route index.
func (s *Server) Index() Index {
	d := s.Describe()
	return Index{Namespaces: Namespaces(d), Routes: d}
}

// MarshalJSON writes {"namespaces": [...], "routes": {...}} with schemas.
func (ix Index) MarshalJSON() ([]byte, error) {
	ns := make([]any, len(ix.Namespaces))
	for i, n := range ix.Namespaces {
		ns[i] = n
	}
	return appendJSON(Object{{"namespaces", ns}, {"routes", routesObject(ix.Routes, true, true)}}, false), nil
}

// IndexHandler serves Index as JSON (mount it at contract.RouteDescriptionsPath).
func (s *Server) IndexHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		b, _ := s.Index().MarshalJSON()
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		_, _ = w.Write(b)
	})
}

// ParseIndex reads an Index (or a WordPress index body with a "routes"
// object) back into descriptions whose argument schemas validate exactly
// like the originals.
func ParseIndex(b []byte) (*Index, error) {
	var doc struct {
		Namespaces []string        `json:"namespaces"`
		Routes     json.RawMessage `json:"routes"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	ix := &Index{Namespaces: doc.Namespaces}
	var routes orderedRaw
	if err := routes.UnmarshalJSON(doc.Routes); err != nil {
		return nil, fmt.Errorf("routes: %w", err)
	}
	for _, r := range routes {
		d, err := parseDescription(r.key, r.raw)
		if err != nil {
			return nil, fmt.Errorf("route %s: %w", r.key, err)
		}
		ix.Routes = append(ix.Routes, d)
	}
	return ix, nil
}

type rawMember struct {
	key string
	raw json.RawMessage
}

type orderedRaw []rawMember

func (o *orderedRaw) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		if d, ok := t.(json.Delim); ok && d == '[' {
			return nil // empty PHP array
		}
		return fmt.Errorf("expected an object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		*o = append(*o, rawMember{t.(string), raw})
	}
	return nil
}

func parseDescription(route string, b []byte) (RouteDescription, error) {
	var doc struct {
		Namespace string   `json:"namespace"`
		Methods   []string `json:"methods"`
		Endpoints []struct {
			Methods    []string        `json:"methods"`
			AllowBatch *Batch          `json:"allow_batch"`
			Args       json.RawMessage `json:"args"`
			Callbacks  []string        `json:"x-callbacks"`
		} `json:"endpoints"`
		Schema *Schema `json:"schema"`
		Links  struct {
			Self []struct {
				Href string `json:"href"`
			} `json:"self"`
		} `json:"_links"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return RouteDescription{}, err
	}
	d := RouteDescription{Route: route, Namespace: doc.Namespace, Methods: doc.Methods, Schema: doc.Schema}
	if len(doc.Links.Self) > 0 {
		d.Self = doc.Links.Self[0].Href
	}
	for _, ep := range doc.Endpoints {
		ed := EndpointDescription{Methods: ep.Methods, AllowBatch: ep.AllowBatch, Callbacks: ep.Callbacks}
		if len(ep.Args) > 0 {
			if err := ed.Args.UnmarshalJSON(ep.Args); err != nil {
				return d, fmt.Errorf("args: %w", err)
			}
		}
		d.Endpoints = append(d.Endpoints, ed)
	}
	return d, nil
}

// RoutesForValidation turns the descriptions into validation-only routes (no handlers,
// no permission checks): a Server built from them answers Check exactly
// like the owning service, which is how the gateway pre-validates batch
// sub-requests. Arguments listed in Callbacks keep only "required": their
// service validates them with code the gateway does not have.
func (ix *Index) RoutesForValidation() []Route {
	out := make([]Route, 0, len(ix.Routes))
	for _, d := range ix.Routes {
		rt := Route{Path: d.Route, Schema: d.Schema}
		if d.Namespace != "" && strings.HasPrefix(d.Route, "/"+d.Namespace) {
			rt.Namespace, rt.Path = d.Namespace, d.Route[len(d.Namespace)+1:]
		}
		for _, ed := range d.Endpoints {
			rt.Endpoints = append(rt.Endpoints, Endpoint{Methods: ed.Methods, Args: permissive(ed.Args, ed.Callbacks), AllowBatch: ed.AllowBatch})
		}
		out = append(out, rt)
	}
	return out
}

// permissive replaces the schemas of the named arguments by one that accepts
// any value unchanged, keeping whether the argument is required.
func permissive(args Props, names []string) Props {
	if len(names) == 0 {
		return args
	}
	out := make(Props, len(args))
	for i, a := range args {
		out[i] = a
		if a.Schema != nil && slices.Contains(names, a.Name) {
			out[i].Schema = &Schema{Required: a.Schema.Required, Validate: acceptAny, Sanitize: keepValue}
		}
	}
	return out
}

func acceptAny(*Request, any, string) error              { return nil }
func keepValue(_ *Request, v any, _ string) (any, error) { return v, nil }
