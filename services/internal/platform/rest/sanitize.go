package rest

import "strconv"

// Sanitize converts a value that passed Validate to its typed form, exactly
// as WordPress's rest_sanitize_value_from_schema: integers become int64,
// numbers float64, booleans bool, arrays []any, objects map[string]any, and
// string formats are cleaned (sanitize_text_field, esc_url_raw, ...). The
// only error it reports is rest_duplicate_items (uniqueItems checked again
// after sanitising).
func Sanitize(value any, schema *Schema, param string) (any, *Error) {
	var buf [8]pathSeg
	return sanitize(value, schema, newPath(param, buf[:]))
}

// ParseArg validates then sanitises, like rest_parse_request_arg. Custom
// SanitizeFuncs call it to keep the schema checks.
func ParseArg(value any, schema *Schema, param string) (any, *Error) {
	var buf [8]pathSeg
	p := newPath(param, buf[:])
	if err := validate(value, schema, p); err != nil {
		return nil, err
	}
	return sanitize(value, schema, p)
}

func sanitize(v any, s *Schema, p path) (any, *Error) {
	typ := s.Type
	// anyOf, then oneOf: the matching candidate sanitises the value first
	// and, without a declared type, lends its own.
	for _, comb := range [2]struct {
		alts []*Schema
		find func(any, *Schema, path) (*Schema, *Error)
	}{{s.AnyOf, findAny}, {s.OneOf, findOne}} {
		if len(comb.alts) == 0 {
			continue
		}
		m, err := comb.find(v, s, p)
		if err != nil {
			return nil, err
		}
		if typ == "" && len(s.Types) == 0 {
			typ = m.Type
		}
		if v, err = sanitize(v, withParentType(m, s), p); err != nil {
			return nil, err
		}
	}
	if len(s.Types) > 0 {
		typ = bestType(v, s.Types)
		if typ == "" {
			return nil, nil
		}
	}
	return sanitizeTyped(v, s, p, typ)
}

func withParentType(c, parent *Schema) *Schema {
	if c.Type == "" && len(c.Types) == 0 && (parent.Type != "" || len(parent.Types) > 0) {
		cp := *c
		cp.Type, cp.Types = parent.Type, parent.Types
		return &cp
	}
	return c
}

// sanitizeTyped sanitises v once its type is resolved.
func sanitizeTyped(v any, s *Schema, p path, typ string) (any, *Error) {
	switch typ {
	case "array":
		return sanitizeArray(v, s, p)
	case "object":
		return sanitizeObject(v, s, p)
	case "null":
		return nil, nil
	case "integer":
		return toInt(v), nil
	case "number":
		f, _ := toFloat(v)
		return f, nil
	case "boolean":
		return toBool(v), nil
	}
	if s.Format != "" && (typ == "" || typ == "string") {
		str, ok := v.(string)
		if !ok && isScalar(v) {
			str = phpString(v)
		}
		switch s.Format {
		case "hex-color":
			if isHexColor(str) {
				return str, nil
			}
			return "", nil
		case "date-time", "email", "ip", "uuid", "text-field":
			return sanitizeTextField(str, false), nil
		case "textarea-field":
			return sanitizeTextField(str, true), nil
		case "uri":
			return sanitizeURL(str), nil
		}
	}
	if typ == "string" {
		if _, ok := v.(string); ok {
			return v, nil
		}
		return phpString(v), nil
	}
	return v, nil
}

// sanitizeArray sanitises v against an array schema: each item against
// items, then uniqueItems.
func sanitizeArray(v any, s *Schema, p path) (any, *Error) {
	if singleItem(v) {
		// One comma-free string: the item is the value itself.
		x := v
		if s.Items != nil {
			sx, err := sanitize(v, s.Items, p.index(0))
			if err != nil {
				return nil, err
			}
			x = sx
		}
		return []any{x}, nil
	}
	l := toList(v)
	out := l
	if s.Items != nil {
		out = make([]any, len(l))
		for i, x := range l {
			sx, err := sanitize(x, s.Items, p.index(i))
			if err != nil {
				return nil, err
			}
			out[i] = sx
		}
	}
	if s.UniqueItems && !uniqueItems(out) {
		if p.quiet {
			return nil, errQuiet
		}
		return nil, schemaErr("rest_duplicate_items", p.String()+" has duplicate items.")
	}
	if _, same := v.([]any); same && s.Items == nil {
		return v, nil // already a list: no new interface value
	}
	return out, nil
}

// sanitizeObject sanitises v against an object schema: each member against
// its property, pattern or additionalProperties schema.
func sanitizeObject(v any, s *Schema, p path) (any, *Error) {
	if l, ok := v.([]any); ok {
		return sanitizeListObject(l, s, p)
	}
	m := toObject(v)
	out := make(map[string]any, len(m))
	for k, x := range m {
		cp := p.key(k)
		ps := s.prop(k)
		if ps == nil {
			ps = patternPropertySchema(k, s)
		}
		if ps != nil {
			sx, err := sanitize(x, ps, cp)
			if err != nil {
				return nil, err
			}
			out[k] = sx
			continue
		}
		switch a := s.AdditionalProperties.(type) {
		case bool:
			if !a {
				continue
			}
		case *Schema:
			sx, err := sanitize(x, a, cp)
			if err != nil {
				return nil, err
			}
			out[k] = sx
			continue
		}
		out[k] = x
	}
	return out, nil
}

// sanitizeListObject sanitises a PHP list against an object schema; it
// stays a list unless additionalProperties:false removes members.
func sanitizeListObject(l []any, s *Schema, p path) (any, *Error) {
	if len(s.Properties) == 0 && len(s.PatternProperties) == 0 {
		switch a := s.AdditionalProperties.(type) {
		case nil:
			return l, nil
		case bool:
			if a {
				return l, nil
			}
		}
	}
	out := make([]any, 0, len(l))
	var kept []string
	removed := false
	for i, x := range l {
		k := strconv.Itoa(i)
		cp := p.key(k)
		c := s.prop(k)
		if c == nil {
			c = patternPropertySchema(k, s)
		}
		if c == nil {
			switch a := s.AdditionalProperties.(type) {
			case bool:
				if !a {
					removed = true
					continue
				}
			case *Schema:
				c = a
			}
		}
		if c != nil {
			sx, err := sanitize(x, c, cp)
			if err != nil {
				return nil, err
			}
			x = sx
		}
		out = append(out, x)
		kept = append(kept, k)
	}
	if !removed {
		return out, nil
	}
	m := make(map[string]any, len(out))
	for i, k := range kept {
		m[k] = out[i]
	}
	return m, nil
}
