package rest

// Sanitize converts a value that passed Validate to its typed form, exactly
// as WordPress's rest_sanitize_value_from_schema: integers become int64,
// numbers float64, booleans bool, arrays []any, objects map[string]any, and
// string formats are cleaned (sanitize_text_field, esc_url_raw, ...). The
// only error it reports is rest_duplicate_items (uniqueItems checked again
// after sanitising).
func Sanitize(value any, schema *Schema, param string) (any, *Error) {
	return sanitize(value, schema, &path{name: param})
}

// ParseArg validates then sanitises, like rest_parse_request_arg. Custom
// SanitizeFuncs call it to keep the schema checks.
func ParseArg(value any, schema *Schema, param string) (any, *Error) {
	p := &path{name: param}
	if err := validate(value, schema, p); err != nil {
		return nil, err
	}
	return sanitize(value, schema, p)
}

func sanitize(v any, s *Schema, p *path) (any, *Error) {
	typ := s.Type
	if len(s.AnyOf) > 0 {
		m, err := findAny(v, s, p)
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
	if len(s.OneOf) > 0 {
		m, err := findOne(v, s, p)
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
func sanitizeTyped(v any, s *Schema, p *path, typ string) (any, *Error) {
	switch typ {
	case "array":
		l := toList(v)
		if s.Items != nil {
			out := make([]any, len(l))
			for i, x := range l {
				sx, err := sanitize(x, s.Items, &path{parent: p, index: i, isIdx: true})
				if err != nil {
					return nil, err
				}
				out[i] = sx
			}
			l = out
		}
		if s.UniqueItems && !uniqueItems(l) {
			return nil, schemaErr("rest_duplicate_items", p.String()+" has duplicate items.")
		}
		return l, nil
	case "object":
		m := toObject(v)
		out := make(map[string]any, len(m))
		for k, x := range m {
			cp := &path{parent: p, name: k}
			if ps := s.prop(k); ps != nil {
				sx, err := sanitize(x, ps, cp)
				if err != nil {
					return nil, err
				}
				out[k] = sx
				continue
			}
			if ps := patternPropertySchema(k, s); ps != nil {
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
		if _, wasList := v.([]any); wasList {
			// A PHP list is an array with keys 0..n-1 whatever the schema
			// calls it; keep it a list when it still is one.
			if keys, ok := numericKeys(out); ok && sequential(keys) {
				l := make([]any, len(keys))
				for i, k := range keys {
					l[i] = out[k]
				}
				return l, nil
			}
		}
		return out, nil
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
		if str, ok := v.(string); ok {
			return str, nil
		}
		return phpString(v), nil
	}
	return v, nil
}
