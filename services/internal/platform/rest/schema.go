package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sync"
)

// Schema is the JSON-schema subset WordPress uses for endpoint arguments and
// item schemas (§3). It round-trips through JSON: the gateway parses the
// services' route descriptions back into Schemas and validates batch
// sub-requests with the same code the services use.
//
// Pointer fields are optional keywords (use Ptr to set them); a nil Default
// means "no default" (WordPress ignores a null default as well). A Schema must
// not be modified once a Server was built with it.
type Schema struct {
	SchemaURI   string   // "$schema", on item schemas
	Title       string   // names a oneOf/anyOf candidate in messages
	Description string   //
	Type        string   // one of array, object, string, number, integer, boolean, null
	Types       []string // several types, e.g. {"string", "null"}; wins over Type
	Format      string   // date-time, email, hex-color, ip, uri, uuid, text-field, textarea-field
	Context     []string // contexts the field appears in (view, embed, edit)
	Readonly    bool
	Default     any
	Enum        []any
	Items       *Schema
	Properties  Props
	// AdditionalProperties is nil (absent), a bool, or a *Schema.
	AdditionalProperties any
	PatternProperties    Props // Name is the (unanchored) pattern
	MinProperties        *int
	MaxProperties        *int
	Minimum              *float64
	Maximum              *float64
	ExclusiveMinimum     bool
	ExclusiveMaximum     bool
	MultipleOf           *float64
	MinLength            *int
	MaxLength            *int
	Pattern              string
	MinItems             *int
	MaxItems             *int
	UniqueItems          bool
	AnyOf                []*Schema
	OneOf                []*Schema
	// Required is the draft-3 form: on an endpoint argument it makes the
	// argument mandatory; on a property, the property of its object.
	Required bool
	// RequiredProps is the draft-4 "required" list of an object schema.
	RequiredProps []string
	// Extra keeps other keywords (for example "links") in order.
	Extra Object

	// Int32 marks a number stored in a 32-bit integer column (menu_order,
	// say): a value outside -2147483648..2147483647 is refused as
	// rest_invalid_param before any handler or database sees it, with
	// WordPress's "must be between" message. Not part of the JSON form, so
	// the schema the index describes is WordPress's.
	Int32 bool

	// Validate replaces schema validation for an endpoint argument
	// (WordPress's validate_callback). It is not part of the JSON form.
	Validate ValidateFunc
	// Sanitize replaces schema sanitisation for an endpoint argument
	// (sanitize_callback); call ParseArg inside it to keep schema checks.
	Sanitize SanitizeFunc

	props   map[string]*Schema // index of Properties, built by compile
	pattern *regexp.Regexp
	def     defaultCache
}

type defaultCache struct {
	ready bool
	value any
	err   *Error
}

// ValidateFunc validates one argument value; param is the argument name.
type ValidateFunc func(r *Request, value any, param string) error

// SanitizeFunc sanitises one argument value and returns the value handlers see.
type SanitizeFunc func(r *Request, value any, param string) (any, error)

// Prop is one named schema: an object property or an endpoint argument.
type Prop struct {
	Name   string
	Schema *Schema
}

// Props is an ordered list of named schemas. WordPress lists arguments and
// properties in declaration order, so a map would not do.
type Props []Prop

// Get returns the schema named name.
func (p Props) Get(name string) *Schema {
	for i := range p {
		if p[i].Name == name {
			return p[i].Schema
		}
	}
	return nil
}

// Ptr returns a pointer to v, for the optional numeric keywords:
// &rest.Schema{Type: "integer", Minimum: rest.Ptr(1.0)}.
func Ptr[T any](v T) *T { return &v }

// prop returns the schema of property name.
func (s *Schema) prop(name string) *Schema {
	if s.props != nil {
		return s.props[name]
	}
	return s.Properties.Get(name)
}

// types returns the declared type(s).
func (s *Schema) types() []string {
	if len(s.Types) > 0 {
		return s.Types
	}
	if s.Type != "" {
		return []string{s.Type}
	}
	return nil
}

var patternCache sync.Map // pattern string -> *regexp.Regexp (nil when invalid)

// compilePattern compiles a JSON-schema pattern the way WordPress runs it:
// unanchored, UTF-8. Patterns RE2 cannot compile never match.
func compilePattern(p string) *regexp.Regexp {
	if re, ok := patternCache.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = nil
	}
	patternCache.Store(p, re)
	return re
}

func matchPattern(pattern string, compiled *regexp.Regexp, value string) bool {
	re := compiled
	if re == nil {
		re = compilePattern(pattern)
	}
	return re != nil && re.MatchString(value)
}

// Compile checks the schema and prepares it for fast validation: property
// indexes, compiled patterns and normalised defaults (typed Go slices and
// numbers become their JSON form). Server construction compiles every schema
// it is given; call Compile yourself only for schemas used with Validate
// directly in hot paths.
func (s *Schema) Compile() error { return s.compile(map[*Schema]bool{}) }

func (s *Schema) compile(seen map[*Schema]bool) error {
	if s == nil || seen[s] {
		return nil
	}
	seen[s] = true
	for _, t := range s.types() {
		switch t {
		case "array", "object", "string", "number", "integer", "boolean", "null":
		default:
			return fmt.Errorf("unknown type %q", t)
		}
	}
	switch a := s.AdditionalProperties.(type) {
	case nil, bool:
	case *Schema:
		if err := a.compile(seen); err != nil {
			return fmt.Errorf("additionalProperties: %w", err)
		}
	default:
		return fmt.Errorf("additionalProperties must be nil, a bool or a *Schema, not %T", a)
	}
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err != nil {
			return fmt.Errorf("pattern %q: %w", s.Pattern, err)
		}
		s.pattern = compilePattern(s.Pattern)
	}
	if s.Default != nil {
		d, err := normalize(s.Default)
		if err != nil {
			return fmt.Errorf("default: %w", err)
		}
		s.Default = d
	}
	for i, e := range s.Enum {
		d, err := normalize(e)
		if err != nil {
			return fmt.Errorf("enum: %w", err)
		}
		s.Enum[i] = d
	}
	if err := s.Items.compile(seen); err != nil {
		return fmt.Errorf("items: %w", err)
	}
	if len(s.Properties) > 0 {
		s.props = make(map[string]*Schema, len(s.Properties))
		for _, p := range s.Properties {
			if p.Schema == nil {
				return fmt.Errorf("property %q has no schema", p.Name)
			}
			if err := p.Schema.compile(seen); err != nil {
				return fmt.Errorf("%s: %w", p.Name, err)
			}
			s.props[p.Name] = p.Schema
		}
	}
	for _, p := range s.PatternProperties {
		if _, err := regexp.Compile(p.Name); err != nil {
			return fmt.Errorf("patternProperties %q: %w", p.Name, err)
		}
		if err := p.Schema.compile(seen); err != nil {
			return err
		}
	}
	for _, list := range [][]*Schema{s.AnyOf, s.OneOf} {
		for _, c := range list {
			if err := c.compile(seen); err != nil {
				return err
			}
		}
	}
	return nil
}

// normalize turns a Go value into the JSON form the validators expect
// (json.Number, []any, map[string]any).
func normalize(v any) (any, error) {
	switch v.(type) {
	case string, bool, json.Number, []any, map[string]any:
		return v, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeJSON(b)
}

func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return v, nil
}

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
