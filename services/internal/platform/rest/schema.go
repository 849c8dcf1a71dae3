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
