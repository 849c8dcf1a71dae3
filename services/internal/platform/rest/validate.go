package rest

import (
	"sort"
	"strconv"
	"strings"
)

// path is a parameter path such as categories[0] or meta[foo]. It is a
// value whose segments live in a caller-provided array, so validating does
// not allocate; the string is built only when a message needs it.
type path struct {
	root string
	segs []pathSeg
	// quiet skips building messages: the caller only wants to know whether
	// the value matches (oneOf/anyOf candidates), and errQuiet is returned.
	quiet bool
}

type pathSeg struct {
	name  string
	index int
	isIdx bool
}

// newPath starts a path at param, using buf for the segments.
func newPath(param string, buf []pathSeg) path { return path{root: param, segs: buf[:0]} }

func (p path) key(k string) path {
	return path{root: p.root, segs: append(p.segs, pathSeg{name: k}), quiet: p.quiet}
}

func (p path) index(i int) path {
	return path{root: p.root, segs: append(p.segs, pathSeg{index: i, isIdx: true}), quiet: p.quiet}
}

func (p path) String() string {
	if len(p.segs) == 0 {
		// A copy: returning p.root itself would make escape analysis move
		// every path's segment array to the heap.
		return strings.Clone(p.root)
	}
	var b strings.Builder
	b.WriteString(p.root)
	for _, s := range p.segs {
		b.WriteByte('[')
		if s.isIdx {
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteString(s.name)
		}
		b.WriteByte(']')
	}
	return b.String()
}

// errQuiet is the failure of a quiet validation.
var errQuiet = &Error{Code: "rest_invalid", Message: "invalid"}

func schemaErr(code, msg string) *Error { return &Error{Code: code, Message: msg} }

func typeErr(p path, t string) *Error {
	if p.quiet {
		return errQuiet
	}
	ps := p.String()
	return &Error{
		Code:    "rest_invalid_type",
		Message: ps + " is not of type " + t + ".",
		Data:    Object{{"param", ps}},
	}
}

// Validate checks value against schema exactly as WordPress's
// rest_validate_value_from_schema does; param names the value in messages
// ("per_page", "requests"). It returns nil or the first failure.
func Validate(value any, schema *Schema, param string) *Error {
	var buf [8]pathSeg
	return validate(value, schema, newPath(param, buf[:]))
}

// validate is rest_validate_value_from_schema.
func validate(v any, s *Schema, p path) *Error {
	typ := s.Type
	if len(s.AnyOf) > 0 {
		m, err := findAny(v, s, p)
		if err != nil {
			return err
		}
		if typ == "" && len(s.Types) == 0 {
			typ = m.Type
		}
	}
	if len(s.OneOf) > 0 {
		m, err := findOne(v, s, p)
		if err != nil {
			return err
		}
		if typ == "" && len(s.Types) == 0 {
			typ = m.Type
		}
	}
	if len(s.Types) > 0 {
		typ = bestType(v, s.Types)
		if typ == "" {
			return typeErr(p, strings.Join(s.Types, ","))
		}
	}
	var err *Error
	switch typ {
	case "null":
		if v != nil {
			err = typeErr(p, "null")
		}
	case "boolean":
		if !isBoolean(v) {
			err = typeErr(p, "boolean")
		}
	case "object":
		err = validateObject(v, s, p)
	case "array":
		err = validateArray(v, s, p)
	case "number", "integer":
		err = validateNumber(v, s, p, typ)
	case "string":
		err = validateString(v, s, p)
	}
	if err != nil {
		return err
	}
	if len(s.Enum) > 0 {
		if err := validateEnum(v, s, p, typ); err != nil {
			return err
		}
	}
	if s.Format != "" && (typ == "" || typ == "string") {
		if err := validateFormat(v, s.Format, p); err != nil {
			return err
		}
	}
	return nil
}

// bestType is rest_get_best_type_for_value.
func bestType(v any, types []string) string {
	if str, ok := v.(string); ok && str == "" {
		for _, t := range types {
			if t == "string" {
				return "string"
			}
		}
	}
	for _, t := range types {
		ok := false
		switch t {
		case "array":
			ok = isList(v)
		case "object":
			ok = isObject(v)
		case "integer":
			ok = isInteger(v)
		case "number":
			_, ok = toFloat(v)
		case "boolean":
			ok = isBoolean(v)
		case "string":
			_, ok = v.(string)
		case "null":
			ok = v == nil
		}
		if ok {
			return t
		}
	}
	return ""
}

func validateObject(v any, s *Schema, p path) *Error {
	if !isObject(v) {
		return typeErr(p, "object")
	}
	if l, ok := v.([]any); ok {
		return validateListObject(l, s, p)
	}
	m := toObject(v)
	if err := requiredProps(s, p, func(name string) bool { _, ok := m[name]; return ok }); err != nil {
		return err
	}
	// Go maps have no order; visit declared properties first, then the rest
	// sorted, so the first reported error is deterministic.
	if len(m) > 0 {
		for _, prop := range s.Properties {
			if x, ok := m[prop.Name]; ok {
				if err := validate(x, prop.Schema, p.key(prop.Name)); err != nil {
					return err
				}
			}
		}
		for _, k := range extraKeys(m, s) {
			if err := validateExtraProp(k, m[k], s, p); err != nil {
				return err
			}
		}
	}
	return propertyCount(len(m), s, p)
}

// validateListObject validates a PHP list against an object schema: its
// keys are "0".."n-1".
func validateListObject(l []any, s *Schema, p path) *Error {
	if err := requiredProps(s, p, func(name string) bool {
		i, err := strconv.Atoi(name)
		return err == nil && isCanonicalIntKey(name) && i >= 0 && i < len(l)
	}); err != nil {
		return err
	}
	for i, x := range l {
		k := strconv.Itoa(i)
		if c := s.prop(k); c != nil {
			if err := validate(x, c, p.key(k)); err != nil {
				return err
			}
			continue
		}
		if err := validateExtraProp(k, x, s, p); err != nil {
			return err
		}
	}
	return propertyCount(len(l), s, p)
}

func requiredProps(s *Schema, p path, has func(string) bool) *Error {
	if s.RequiredProps != nil {
		for _, name := range s.RequiredProps {
			if !has(name) {
				if p.quiet {
					return errQuiet
				}
				return schemaErr("rest_property_required", name+" is a required property of "+p.String()+".")
			}
		}
		return nil
	}
	for _, prop := range s.Properties {
		if prop.Schema.Required && !has(prop.Name) {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_property_required", prop.Name+" is a required property of "+p.String()+".")
		}
	}
	return nil
}

// validateExtraProp checks a member that is not a declared property.
func validateExtraProp(k string, x any, s *Schema, p path) *Error {
	cp := p.key(k)
	if ps := patternPropertySchema(k, s); ps != nil {
		return validate(x, ps, cp)
	}
	switch a := s.AdditionalProperties.(type) {
	case bool:
		if !a {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_additional_properties_forbidden", k+" is not a valid property of Object.")
		}
	case *Schema:
		return validate(x, a, cp)
	}
	return nil
}

func propertyCount(n int, s *Schema, p path) *Error {
	if s.MinProperties != nil && n < *s.MinProperties {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_too_few_properties", p.String()+" must contain at least "+countNoun(*s.MinProperties, "property", "properties")+".")
	}
	if s.MaxProperties != nil && n > *s.MaxProperties {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_too_many_properties", p.String()+" must contain at most "+countNoun(*s.MaxProperties, "property", "properties")+".")
	}
	return nil
}

// extraKeys lists, sorted, the keys of m that are not declared properties.
func extraKeys(m map[string]any, s *Schema) []string {
	var out []string
	for k := range m {
		if s.prop(k) == nil {
			out = append(out, k)
		}
	}
	if len(out) > 1 {
		sort.Strings(out)
	}
	return out
}

func patternPropertySchema(key string, s *Schema) *Schema {
	for _, pp := range s.PatternProperties {
		if matchPattern(pp.Name, nil, key) {
			return pp.Schema
		}
	}
	return nil
}

func validateArray(v any, s *Schema, p path) *Error {
	if !isList(v) {
		return typeErr(p, "array")
	}
	if singleItem(v) {
		// One comma-free string: the list is [v]; no need to build it.
		if s.Items != nil {
			if err := validate(v, s.Items, p.index(0)); err != nil {
				return err
			}
		}
		if s.MinItems != nil && 1 < *s.MinItems {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_too_few_items", p.String()+" must contain at least "+countNoun(*s.MinItems, "item", "items")+".")
		}
		if s.MaxItems != nil && 1 > *s.MaxItems {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_too_many_items", p.String()+" must contain at most "+countNoun(*s.MaxItems, "item", "items")+".")
		}
		return nil
	}
	l := toList(v)
	if s.Items != nil {
		for i, x := range l {
			if err := validate(x, s.Items, p.index(i)); err != nil {
				return err
			}
		}
	}
	if s.MinItems != nil && len(l) < *s.MinItems {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_too_few_items", p.String()+" must contain at least "+countNoun(*s.MinItems, "item", "items")+".")
	}
	if s.MaxItems != nil && len(l) > *s.MaxItems {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_too_many_items", p.String()+" must contain at most "+countNoun(*s.MaxItems, "item", "items")+".")
	}
	if s.UniqueItems && !uniqueItems(l) {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_duplicate_items", p.String()+" has duplicate items.")
	}
	return nil
}

func uniqueItems(l []any) bool {
	if len(l) < 2 {
		return true
	}
	seen := make(map[string]struct{}, len(l))
	var b strings.Builder
	for _, x := range l {
		b.Reset()
		stableKey(&b, x)
		k := b.String()
		if _, dup := seen[k]; dup {
			return false
		}
		seen[k] = struct{}{}
	}
	return true
}
