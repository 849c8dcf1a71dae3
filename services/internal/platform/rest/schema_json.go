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
		l := make([]any, len(s.Types))
		for i, t := range s.Types {
			l[i] = t
		}
		add("type", l)
	} else if s.Type != "" {
		add("type", s.Type)
	}
	if s.Format != "" {
		add("format", s.Format)
	}
	if !topLevelArg {
		if s.Context != nil {
			l := make([]any, len(s.Context))
			for i, c := range s.Context {
				l[i] = c
			}
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
	if s.AnyOf != nil {
		add("anyOf", s.AnyOf)
	}
	if s.OneOf != nil {
		add("oneOf", s.OneOf)
	}
	if topLevelArg {
		add("required", s.Required)
	} else if s.RequiredProps != nil {
		l := make([]any, len(s.RequiredProps))
		for i, c := range s.RequiredProps {
			l[i] = c
		}
		add("required", l)
	} else if s.Required {
		add("required", true)
	}
	if !topLevelArg {
		o = append(o, s.Extra...)
	}
	return o
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
	if delim, ok := t.(json.Delim); !ok || delim != '{' {
		// PHP encodes an empty property list as [].
		if delim, ok := t.(json.Delim); ok && delim == '[' {
			if t, err := d.Token(); err == nil {
				if delim, ok := t.(json.Delim); ok && delim == ']' {
					*p = Props{}
					return nil
				}
			}
		}
		return fmt.Errorf("properties must be an object")
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
	if delim, ok := t.(json.Delim); !ok || delim != '{' {
		if delim, ok := t.(json.Delim); ok && delim == '[' {
			// An empty PHP array: a schema without keywords.
			if t, err := d.Token(); err == nil {
				if delim, ok := t.(json.Delim); ok && delim == ']' {
					*s = Schema{}
					return nil
				}
			}
		}
		return fmt.Errorf("schema must be an object")
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

func (s *Schema) setKeyword(key string, raw json.RawMessage) error {
	str := func(dst *string) error { return json.Unmarshal(raw, dst) }
	num := func(dst **float64) error {
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil {
			return err
		}
		*dst = &f
		return nil
	}
	integer := func(dst **int) error {
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil {
			return err
		}
		i := int(f)
		*dst = &i
		return nil
	}
	flag := func(dst *bool) error {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		*dst = toBool(v)
		return nil
	}
	schemas := func(dst *[]*Schema) error {
		var l []*Schema
		if err := json.Unmarshal(raw, &l); err != nil {
			return err
		}
		*dst = l
		return nil
	}
	switch key {
	case "$schema":
		return str(&s.SchemaURI)
	case "title":
		return str(&s.Title)
	case "description":
		return str(&s.Description)
	case "type":
		if len(raw) > 0 && raw[0] == '[' {
			return json.Unmarshal(raw, &s.Types)
		}
		return str(&s.Type)
	case "format":
		return str(&s.Format)
	case "context":
		return json.Unmarshal(raw, &s.Context)
	case "readonly":
		return flag(&s.Readonly)
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
		return integer(&s.MinProperties)
	case "maxProperties":
		return integer(&s.MaxProperties)
	case "minimum":
		return num(&s.Minimum)
	case "maximum":
		return num(&s.Maximum)
	case "exclusiveMinimum":
		return flag(&s.ExclusiveMinimum)
	case "exclusiveMaximum":
		return flag(&s.ExclusiveMaximum)
	case "multipleOf":
		return num(&s.MultipleOf)
	case "minLength":
		return integer(&s.MinLength)
	case "maxLength":
		return integer(&s.MaxLength)
	case "pattern":
		return str(&s.Pattern)
	case "minItems":
		return integer(&s.MinItems)
	case "maxItems":
		return integer(&s.MaxItems)
	case "uniqueItems":
		return flag(&s.UniqueItems)
	case "anyOf":
		return schemas(&s.AnyOf)
	case "oneOf":
		return schemas(&s.OneOf)
	case "required":
		if len(raw) > 0 && raw[0] == '[' {
			return json.Unmarshal(raw, &s.RequiredProps)
		}
		return flag(&s.Required)
	default:
		v, err := decodeJSON(raw)
		if err != nil {
			return err
		}
		s.Extra = append(s.Extra, Member{key, v})
	}
	return nil
}
