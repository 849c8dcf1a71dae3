package rest

import "slices"

// Argument helpers mirroring WP_REST_Controller, so services declare the
// usual parameters the way WordPress does.

// Contexts returns the contexts used by the properties of an item schema,
// sorted descending (["view", "embed", "edit"] for posts), as the enum of
// the context parameter (§2.4).
func Contexts(item *Schema) []string {
	var out []string
	if item != nil {
		// get_context_param reads only the top-level properties.
		for _, p := range item.Properties {
			for _, c := range p.Schema.Context {
				if !slices.Contains(out, c) {
					out = append(out, c)
				}
			}
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out
}

// ContextArg is the "context" parameter of WP_REST_Controller::get_context_param:
// a string whose enum is Contexts(item), sanitised with sanitize_key. def is
// its default ("" for none; collections and single GETs use "view").
func ContextArg(item *Schema, def string) *Schema {
	s := &Schema{
		Description: "Scope under which the request is made; determines fields present in response.",
		Type:        "string",
		Sanitize: func(_ *Request, v any, _ string) (any, error) {
			k := sanitizeKey(phpString(v))
			if s, ok := v.(string); ok && s == k {
				return v, nil
			}
			return k, nil
		},
	}
	for _, c := range Contexts(item) {
		s.Enum = append(s.Enum, c)
	}
	if def != "" {
		s.Default = def
	}
	return s
}

// CollectionArgs are WP_REST_Controller::get_collection_params: context
// (default view), page, per_page (1..100, default 10) and search.
func CollectionArgs(item *Schema) Props {
	absint := func(_ *Request, v any, _ string) (any, error) {
		n := toInt(v)
		if n < 0 {
			n = -n
		}
		return n, nil
	}
	return Props{
		{Name: "context", Schema: ContextArg(item, "view")},
		{Name: "page", Schema: &Schema{
			Description: "Current page of the collection.", Type: "integer", Default: 1,
			Minimum: Ptr(1.0), Sanitize: absint,
		}},
		{Name: "per_page", Schema: &Schema{
			Description: "Maximum number of items to be returned in result set.", Type: "integer", Default: 10,
			Minimum: Ptr(1.0), Maximum: Ptr(100.0), Sanitize: absint,
		}},
		{Name: "search", Schema: &Schema{
			Description: "Limit results to those matching a string.", Type: "string",
			Sanitize: func(_ *Request, v any, _ string) (any, error) {
				return sanitizeTextField(phpString(v), false), nil
			},
		}},
	}
}

// ArgsFromSchema derives endpoint arguments from an item schema like
// rest_get_endpoint_args_for_schema (§3.5): every property that is not
// readonly becomes an argument; default and required are kept only when
// create is true (POST to the collection), never for updates.
func ArgsFromSchema(item *Schema, create bool) Props {
	var out Props
	for _, p := range item.Properties {
		if p.Schema.Readonly {
			continue
		}
		a := *p.Schema
		a.Context, a.Readonly = nil, false
		if !create {
			a.Default, a.Required = nil, false
		}
		a.def = defaultCache{}
		out = append(out, Prop{Name: p.Name, Schema: &a})
	}
	return out
}

// BatchArgs are the arguments of POST /batch/v1 (§11.1): "validation"
// (require-all-validate or normal) and "requests", an array of at most
// maxItems {method, path, body, headers} objects. The "requests must
// contain at most 25 items." error comes from this schema's maxItems.
func BatchArgs(maxItems int) Props {
	return Props{
		{Name: "validation", Schema: &Schema{Type: "string", Enum: []any{"require-all-validate", "normal"}, Default: "normal"}},
		{Name: "requests", Schema: &Schema{
			Required: true, Type: "array", MaxItems: Ptr(maxItems),
			Items: &Schema{Type: "object", Properties: Props{
				{Name: "method", Schema: &Schema{Type: "string", Enum: []any{"POST", "PUT", "PATCH", "DELETE"}, Default: "POST"}},
				{Name: "path", Schema: &Schema{Type: "string", Required: true}},
				{Name: "body", Schema: &Schema{Type: "object", Properties: Props{}, AdditionalProperties: true}},
				{Name: "headers", Schema: &Schema{Type: "object", Properties: Props{}, AdditionalProperties: &Schema{
					Types: []string{"string", "array"}, Items: &Schema{Type: "string"},
				}}},
			}},
		}},
	}
}
