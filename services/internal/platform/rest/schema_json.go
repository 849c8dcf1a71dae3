package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The JSON form of a Schema (the route index, and the gateway reading the
// services' descriptions back).

// keyword order of the JSON form.
func (s *Schema) object(topLevelArg bool) Object {
	o := make(Object, 0, 8)
	add := func(k string, v any) { o = append(o, Member{k, v}) }
	if s.SchemaURI != "" && !topLevelArg {
		add("$schema", s.SchemaURI)
	}
	if s.Title != "" {
		add("title", s.Title)
	}
	if s.Description != "" {
		add("description", s.Description)
	}
	if s.Default != nil {
		add("default", s.Default)
	}
	if len(s.Types) > 0 {
		l := anyList(s.Types)
		add("type", l)
	} else if s.Type != "" {
		add("type", s.Type)
	}
	if s.Format != "" {
		add("format", s.Format)
	}
	if !topLevelArg {
		if s.Context != nil {
			l := anyList(s.Context)
			add("context", l)
		}
		if s.Readonly {
			add("readonly", true)
		}
	}
	if s.Enum != nil {
		add("enum", s.Enum)
	}
	if s.Items != nil {
		add("items", s.Items)
	}
	if s.Properties != nil {
		add("properties", s.Properties)
	}
	if s.AdditionalProperties != nil {
		add("additionalProperties", s.AdditionalProperties)
	}
	if s.PatternProperties != nil {
		add("patternProperties", s.PatternProperties)
	}
	o = s.appendLimits(o)
	if s.AnyOf != nil {
		add("anyOf", s.AnyOf)
	}
	if s.OneOf != nil {
		add("oneOf", s.OneOf)
	}
	if topLevelArg {
		add("required", s.Required)
	} else if s.RequiredProps != nil {
		l := anyList(s.RequiredProps)
		add("required", l)
	} else if s.Required {
		add("required", true)
	}
	if !topLevelArg {
		o = append(o, s.Extra...)
	}
	return o
}

// appendLimits appends the numeric, length and item-count keywords, in the
// order of WordPress's schema.
func (s *Schema) appendLimits(o Object) Object {
	add := func(k string, v any) { o = append(o, Member{k, v}) }
	addInt := func(k string, p *int) {
		if p != nil {
			add(k, *p)
		}
	}
	addNum := func(k string, p *float64) {
		if p != nil {
			add(k, *p)
		}
	}
	addInt("minProperties", s.MinProperties)
	addInt("maxProperties", s.MaxProperties)
	addNum("minimum", s.Minimum)
	addNum("maximum", s.Maximum)
	if s.ExclusiveMinimum {
		add("exclusiveMinimum", true)
	}
	if s.ExclusiveMaximum {
		add("exclusiveMaximum", true)
	}
	addNum("multipleOf", s.MultipleOf)
	addInt("minLength", s.MinLength)
	addInt("maxLength", s.MaxLength)
	if s.Pattern != "" {
		add("pattern", s.Pattern)
	}
	addInt("minItems", s.MinItems)
	addInt("maxItems", s.MaxItems)
	if s.UniqueItems {
		add("uniqueItems", true)
	}
	return o
}

// anyList copies a list of strings into a JSON list.
func anyList(l []string) []any {
	out := make([]any, len(l))
	for i, v := range l {
		out[i] = v
	}
	return out
}

// MarshalJSON writes every keyword of the schema (nested schemas keep their
// context and readonly keywords, as WordPress's index does).
func (s *Schema) MarshalJSON() ([]byte, error) { return appendJSON(s, false), nil }

// MarshalJSON writes the properties as one JSON object, in order.
func (p Props) MarshalJSON() ([]byte, error) { return appendJSON(p, false), nil }

// UnmarshalJSON reads properties keeping their order.
func (p *Props) UnmarshalJSON(b []byte) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	t, err := d.Token()
	if err != nil {
		return err
	}
	if t == nil {
		*p = nil
		return nil
	}
	// PHP encodes an empty property list as [].
	if emptyArray, err := readObjectStart(d, t, "properties"); err != nil {
		return err
	} else if emptyArray {
		*p = Props{}
		return nil
	}
	out := Props{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return err
		}
		name := t.(string)
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			return err
		}
		s := &Schema{}
		if err := s.UnmarshalJSON(raw); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, Prop{Name: name, Schema: s})
	}
	*p = out
	return nil
}

// UnmarshalJSON reads a schema in WordPress's JSON form. Unknown keywords are
// kept in Extra (in order).
func (s *Schema) UnmarshalJSON(b []byte) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	t, err := d.Token()
	if err != nil {
		return err
	}
	// An empty PHP array: a schema without keywords.
	if emptyArray, err := readObjectStart(d, t, "schema"); err != nil {
		return err
	} else if emptyArray {
		*s = Schema{}
		return nil
	}
	var out Schema
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return err
		}
		key := t.(string)
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			return err
		}
		if err := out.setKeyword(key, raw); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
	}
	*s = out
	return nil
}

// readObjectStart checks that t, the first token of d, opens a JSON object.
// PHP writes an empty object as an empty array, []: emptyArray reports
// that case, with the array read. Anything else is an error naming what.
func readObjectStart(d *json.Decoder, t json.Token, what string) (emptyArray bool, err error) {
	delim, ok := t.(json.Delim)
	if ok && delim == '{' {
		return false, nil
	}
	if ok && delim == '[' {
		if t, err := d.Token(); err == nil {
			if delim, ok := t.(json.Delim); ok && delim == ']' {
				return true, nil
			}
		}
	}
	return false, fmt.Errorf("%s must be an object", what)
}

func (s *Schema) setKeyword(key string, raw json.RawMessage) error {
	switch key {
	case "$schema":
		return decodeString(raw, &s.SchemaURI)
	case "title":
		return decodeString(raw, &s.Title)
	case "description":
		return decodeString(raw, &s.Description)
	case "type":
		if len(raw) > 0 && raw[0] == '[' {
			return json.Unmarshal(raw, &s.Types)
		}
		return decodeString(raw, &s.Type)
	case "format":
		return decodeString(raw, &s.Format)
	case "context":
		return json.Unmarshal(raw, &s.Context)
	case "readonly":
		return decodeFlag(raw, &s.Readonly)
	case "default":
		v, err := decodeJSON(raw)
		s.Default = v
		return err
	case "enum":
		v, err := decodeJSON(raw)
		if err != nil {
			return err
		}
		l, ok := v.([]any)
		if !ok {
			return fmt.Errorf("enum must be an array")
		}
		s.Enum = l
	case "items":
		s.Items = &Schema{}
		return s.Items.UnmarshalJSON(raw)
	case "properties":
		return s.Properties.UnmarshalJSON(raw)
	case "patternProperties":
		return s.PatternProperties.UnmarshalJSON(raw)
	case "additionalProperties":
		if len(raw) > 0 && raw[0] == '{' {
			sub := &Schema{}
			if err := sub.UnmarshalJSON(raw); err != nil {
				return err
			}
			s.AdditionalProperties = sub
			return nil
		}
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			return err
		}
		s.AdditionalProperties = b
	case "minProperties":
		return decodeInt(raw, &s.MinProperties)
	case "maxProperties":
		return decodeInt(raw, &s.MaxProperties)
	case "minimum":
		return decodeFloat(raw, &s.Minimum)
	case "maximum":
		return decodeFloat(raw, &s.Maximum)
	case "exclusiveMinimum":
		return decodeFlag(raw, &s.ExclusiveMinimum)
	case "exclusiveMaximum":
		return decodeFlag(raw, &s.ExclusiveMaximum)
	case "multipleOf":
		return decodeFloat(raw, &s.MultipleOf)
	case "minLength":
		return decodeInt(raw, &s.MinLength)
	case "maxLength":
		return decodeInt(raw, &s.MaxLength)
	case "pattern":
		return decodeString(raw, &s.Pattern)
	case "minItems":
		return decodeInt(raw, &s.MinItems)
	case "maxItems":
		return decodeInt(raw, &s.MaxItems)
	case "uniqueItems":
		return decodeFlag(raw, &s.UniqueItems)
	case "anyOf":
		return decodeSchemas(raw, &s.AnyOf)
	case "oneOf":
		return decodeSchemas(raw, &s.OneOf)
	case "required":
		if len(raw) > 0 && raw[0] == '[' {
			return json.Unmarshal(raw, &s.RequiredProps)
		}
		return decodeFlag(raw, &s.Required)
	default:
		v, err := decodeJSON(raw)
		if err != nil {
			return err
		}
		s.Extra = append(s.Extra, Member{key, v})
	}
	return nil
}

// The decoders of setKeyword, one per kind of keyword value.

func decodeString(raw json.RawMessage, dst *string) error { return json.Unmarshal(raw, dst) }

func decodeFloat(raw json.RawMessage, dst **float64) error {
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return err
	}
	*dst = &f
	return nil
}

// decodeInt reads a number and truncates it, as PHP's (int) cast would.
func decodeInt(raw json.RawMessage, dst **int) error {
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return err
	}
	i := int(f)
	*dst = &i
	return nil
}

// decodeFlag reads any JSON value as a boolean the PHP way (toBool).
func decodeFlag(raw json.RawMessage, dst *bool) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	*dst = toBool(v)
	return nil
}

func decodeSchemas(raw json.RawMessage, dst *[]*Schema) error {
	var l []*Schema
	if err := json.Unmarshal(raw, &l); err != nil {
		return err
	}
	*dst = l
	return nil
}
