package rest

import (
	"encoding/json"
	"reflect"
	"testing"
)

func num(s string) json.Number { return json.Number(s) }

// TestValidateMessages compares every keyword check of §3.1-3.3 byte for
// byte with the reference templates.
func TestValidateMessages(t *testing.T) {
	intS := &Schema{Type: "integer"}
	tests := []struct {
		name   string
		schema *Schema
		param  string
		value  any
		code   string // "" = valid
		msg    string
	}{
		// Types and coercion (§3.1).
		{"bool true string", &Schema{Type: "boolean"}, "sticky", "TRUE", "", ""},
		{"bool 0", &Schema{Type: "boolean"}, "sticky", "0", "", ""},
		{"bool int 1", &Schema{Type: "boolean"}, "sticky", num("1"), "", ""},
		{"bool yes", &Schema{Type: "boolean"}, "sticky", "yes", "rest_invalid_type", "sticky is not of type boolean."},
		{"bool int 2", &Schema{Type: "boolean"}, "sticky", num("2"), "rest_invalid_type", "sticky is not of type boolean."},
		{"bool float 1.0", &Schema{Type: "boolean"}, "sticky", num("1.0"), "rest_invalid_type", "sticky is not of type boolean."},
		{"integer string", intS, "page", "5", "", ""},
		{"integer 5.0", intS, "page", "5.0", "", ""},
		{"integer 1e3", intS, "page", "1e3", "", ""},
		{"integer json float whole", intS, "page", num("5.0"), "", ""},
		{"integer 5.5", intS, "page", "5.5", "rest_invalid_type", "page is not of type integer."},
		{"integer abc", intS, "page", "abc", "rest_invalid_type", "page is not of type integer."},
		{"integer bool", intS, "page", true, "rest_invalid_type", "page is not of type integer."},
		{"number blanks", &Schema{Type: "number"}, "n", " 1.5 ", "", ""},
		{"number -2", &Schema{Type: "number"}, "n", "-2", "", ""},
		{"number x", &Schema{Type: "number"}, "n", "1.5x", "rest_invalid_type", "n is not of type number."},
		{"string ok", &Schema{Type: "string"}, "slug", "a", "", ""},
		{"string json number", &Schema{Type: "string"}, "slug", num("5"), "rest_invalid_type", "slug is not of type string."},
		{"array csv", &Schema{Type: "array", Items: intS}, "include", "1,2 3", "", ""},
		{"array item bad", &Schema{Type: "array", Items: intS}, "include", "1,x", "rest_invalid_type", "include[1] is not of type integer."},
		{"array assoc", &Schema{Type: "array"}, "include", map[string]any{"a": "1"}, "rest_invalid_type", "include is not of type array."},
		{"array null", &Schema{Type: "array"}, "include", nil, "rest_invalid_type", "include is not of type array."},
		{"object empty string", &Schema{Type: "object"}, "meta", "", "", ""},
		{"object string", &Schema{Type: "object"}, "meta", "x", "rest_invalid_type", "meta is not of type object."},
		{"null", &Schema{Type: "null"}, "x", "", "rest_invalid_type", "x is not of type null."},
		{"multi empty string", &Schema{Types: []string{"string", "null"}}, "date", "", "", ""},
		{"multi null", &Schema{Types: []string{"string", "null"}}, "date", nil, "", ""},
		{"multi fail", &Schema{Types: []string{"string", "null"}}, "date", num("5"), "rest_invalid_type", "date is not of type string,null."},
		// Keywords (§3.2).
		{"enum one", &Schema{Type: "string", Enum: []any{"a"}}, "x", "b", "rest_not_in_enum", "x is not a."},
		{"enum two", &Schema{Type: "string", Enum: []any{"asc", "desc"}}, "order", "up", "rest_not_in_enum", "order is not one of asc and desc."},
		{"enum three", &Schema{Type: "string", Enum: []any{"view", "embed", "edit"}}, "context", "bogus", "rest_not_in_enum", "context is not one of view, embed, and edit."},
		{"enum int vs float", &Schema{Type: "number", Enum: []any{num("1")}}, "x", "1.0", "", ""},
		{"enum typed strict", &Schema{Enum: []any{num("1")}}, "x", "1", "rest_not_in_enum", "x is not 1."},
		{"min only", &Schema{Type: "integer", Minimum: Ptr(1.0)}, "page", "0", "rest_out_of_bounds", "page must be greater than or equal to 1"},
		{"min exclusive", &Schema{Type: "integer", Minimum: Ptr(1.0), ExclusiveMinimum: true}, "page", "1", "rest_out_of_bounds", "page must be greater than 1"},
		{"max only", &Schema{Type: "integer", Maximum: Ptr(10.0)}, "n", "11", "rest_out_of_bounds", "n must be less than or equal to 10"},
		{"max exclusive", &Schema{Type: "integer", Maximum: Ptr(10.0), ExclusiveMaximum: true}, "n", "10", "rest_out_of_bounds", "n must be less than 10"},
		{"between", &Schema{Type: "integer", Minimum: Ptr(1.0), Maximum: Ptr(100.0)}, "per_page", "101", "rest_out_of_bounds", "per_page must be between 1 (inclusive) and 100 (inclusive)"},
		{"between low", &Schema{Type: "integer", Minimum: Ptr(1.0), Maximum: Ptr(100.0)}, "per_page", "0", "rest_out_of_bounds", "per_page must be between 1 (inclusive) and 100 (inclusive)"},
		{"between ex/in", &Schema{Type: "number", Minimum: Ptr(0.0), Maximum: Ptr(1.0), ExclusiveMinimum: true}, "n", "0", "rest_out_of_bounds", "n must be between 0 (exclusive) and 1 (inclusive)"},
		{"between in/ex", &Schema{Type: "number", Minimum: Ptr(0.0), Maximum: Ptr(1.0), ExclusiveMaximum: true}, "n", "1", "rest_out_of_bounds", "n must be between 0 (inclusive) and 1 (exclusive)"},
		{"between ex/ex", &Schema{Type: "number", Minimum: Ptr(0.0), Maximum: Ptr(1.0), ExclusiveMinimum: true, ExclusiveMaximum: true}, "n", "1", "rest_out_of_bounds", "n must be between 0 (exclusive) and 1 (exclusive)"},
		{"bounds before integer", &Schema{Type: "integer", Minimum: Ptr(1.0), Maximum: Ptr(100.0)}, "per_page", "500.5", "rest_out_of_bounds", "per_page must be between 1 (inclusive) and 100 (inclusive)"},
		{"bound %d truncates", &Schema{Type: "number", Minimum: Ptr(0.5)}, "n", "0.1", "rest_out_of_bounds", "n must be greater than or equal to 0"},
		{"multipleOf", &Schema{Type: "integer", MultipleOf: Ptr(3.0)}, "n", "4", "rest_invalid_multiple", "n must be a multiple of 3."},
		{"multipleOf float", &Schema{Type: "number", MultipleOf: Ptr(0.5)}, "n", "0.3", "rest_invalid_multiple", "n must be a multiple of 0.5."},
		{"minLength 1", &Schema{Type: "string", MinLength: Ptr(1)}, "slug", "", "rest_too_short", "slug must be at least 1 character long."},
		{"minLength 3", &Schema{Type: "string", MinLength: Ptr(3)}, "slug", "éé", "rest_too_short", "slug must be at least 3 characters long."},
		{"maxLength multibyte ok", &Schema{Type: "string", MaxLength: Ptr(2)}, "slug", "éé", "", ""},
		{"maxLength", &Schema{Type: "string", MaxLength: Ptr(1)}, "slug", "ab", "rest_too_long", "slug must be at most 1 character long."},
		{"maxLength thousands", &Schema{Type: "string", MaxLength: Ptr(0)}, "slug", "ab", "rest_too_long", "slug must be at most 0 characters long."},
		{"pattern", &Schema{Type: "string", Pattern: `^[a-zA-Z0-9_\%-]+$`}, "slug", "a b", "rest_invalid_pattern", `slug does not match pattern ^[a-zA-Z0-9_\%-]+$.`},
		{"pattern unanchored", &Schema{Type: "string", Pattern: `[0-9]`}, "slug", "ab1", "", ""},
		{"minItems", &Schema{Type: "array", MinItems: Ptr(2)}, "ids", "1", "rest_too_few_items", "ids must contain at least 2 items."},
		{"minItems one", &Schema{Type: "array", MinItems: Ptr(1)}, "ids", []any{}, "rest_too_few_items", "ids must contain at least 1 item."},
		{"maxItems batch", &Schema{Type: "array", MaxItems: Ptr(25)}, "requests", make([]any, 26), "rest_too_many_items", "requests must contain at most 25 items."},
		{"maxItems thousands", &Schema{Type: "array", MaxItems: Ptr(1000)}, "ids", make([]any, 1001), "rest_too_many_items", "ids must contain at most 1,000 items."},
		{"uniqueItems", &Schema{Type: "array", UniqueItems: true}, "ids", "1,2,1", "rest_duplicate_items", "ids has duplicate items."},
		{"uniqueItems types differ", &Schema{Type: "array", UniqueItems: true}, "ids", []any{"1", num("1")}, "", ""},
		{"minProperties", &Schema{Type: "object", MinProperties: Ptr(2)}, "meta", map[string]any{"a": "1"}, "rest_too_few_properties", "meta must contain at least 2 properties."},
		{"maxProperties one", &Schema{Type: "object", MaxProperties: Ptr(1)}, "meta", map[string]any{"a": "1", "b": "2"}, "rest_too_many_properties", "meta must contain at most 1 property."},
		{"required v4", &Schema{Type: "object", RequiredProps: []string{"path"}}, "requests[0]", map[string]any{}, "rest_property_required", "path is a required property of requests[0]."},
		{"required v3", &Schema{Type: "object", Properties: Props{{Name: "path", Schema: &Schema{Type: "string", Required: true}}}}, "requests[0]", map[string]any{}, "rest_property_required", "path is a required property of requests[0]."},
		{"additional forbidden", &Schema{Type: "object", AdditionalProperties: false, Properties: Props{{Name: "a", Schema: intS}}}, "q", map[string]any{"b": "1"}, "rest_additional_properties_forbidden", "b is not a valid property of Object."},
		{"additional schema", &Schema{Type: "object", AdditionalProperties: intS}, "meta", map[string]any{"foo": "x"}, "rest_invalid_type", "meta[foo] is not of type integer."},
		{"pattern properties", &Schema{Type: "object", PatternProperties: Props{{Name: "^x-", Schema: intS}}, AdditionalProperties: false}, "h", map[string]any{"x-a": "z"}, "rest_invalid_type", "h[x-a] is not of type integer."},
		{"nested path", &Schema{Type: "array", Items: &Schema{Type: "object", Properties: Props{{Name: "args", Schema: &Schema{Type: "object", Properties: Props{{Name: "angle", Schema: intS}}}}}}}, "modifiers", []any{map[string]any{"args": map[string]any{"angle": "x"}}}, "rest_invalid_type", "modifiers[0][args][angle] is not of type integer."},
		// Formats.
		{"date ok", &Schema{Type: "string", Format: "date-time"}, "after", "2024-01-02T03:04:05", "", ""},
		{"date tz", &Schema{Type: "string", Format: "date-time"}, "after", "2024-01-02 03:04:05.123+02:00", "", ""},
		{"date bad", &Schema{Type: "string", Format: "date-time"}, "after", "2024-01-02", "rest_invalid_date", "Invalid date."},
		{"date month 13", &Schema{Type: "string", Format: "date-time"}, "after", "2024-13-02T00:00:00", "rest_invalid_date", "Invalid date."},
		{"email ok", &Schema{Type: "string", Format: "email"}, "email", "a.b@example.com", "", ""},
		{"email bad", &Schema{Type: "string", Format: "email"}, "email", "nope", "rest_invalid_email", "Invalid email address."},
		{"hex ok", &Schema{Type: "string", Format: "hex-color"}, "c", "#fFf", "", ""},
		{"hex bad", &Schema{Type: "string", Format: "hex-color"}, "c", "#ffff", "rest_invalid_hex_color", "Invalid hex color."},
		{"ip v4", &Schema{Type: "string", Format: "ip"}, "ip", "192.168.0.1", "", ""},
		{"ip v6", &Schema{Type: "string", Format: "ip"}, "ip", "::1", "", ""},
		{"ip bad", &Schema{Type: "string", Format: "ip"}, "ip", "256.1.1.1", "rest_invalid_ip", "ip is not a valid IP address."},
		{"uuid bad", &Schema{Type: "string", Format: "uuid"}, "u", "ABC", "rest_invalid_uuid", "u is not a valid UUID."},
		{"uuid ok", &Schema{Type: "string", Format: "uuid"}, "u", "123e4567-e89b-12d3-a456-426614174000", "", ""},
		{"uri not validated", &Schema{Type: "string", Format: "uri"}, "u", "not a uri", "", ""},
		{"format ignored for integer", &Schema{Type: "integer", Format: "email"}, "n", "5", "", ""},
		// oneOf / anyOf (§3.3).
		{"term list", termQuery(), "categories", []any{"3"}, "", ""},
		{"term list csv", termQuery(), "categories", "3,4", "", ""},
		{"term object", termQuery(), "categories", map[string]any{"terms": []any{"5"}, "operator": "AND"}, "", ""},
		{"term object bad prop", termQuery(), "categories", map[string]any{"terms": []any{"5"}, "bogus": "1"}, "rest_no_matching_schema", "categories is not a valid Term ID Taxonomy Query. Reason: bogus is not a valid property of Object."},
		{"oneOf titles none", &Schema{OneOf: []*Schema{{Title: "A", Type: "integer"}, {Title: "B", Type: "boolean"}}}, "x", "zz", "rest_no_matching_schema", "x is not a valid A and B."},
		{"oneOf no titles none", &Schema{OneOf: []*Schema{{Type: "integer"}, {Type: "boolean"}}}, "x", "zz", "rest_no_matching_schema", "x does not match any of the expected formats."},
		{"oneOf single reason", &Schema{OneOf: []*Schema{{Type: "integer", Minimum: Ptr(5.0)}, {Type: "boolean"}}}, "x", "2", "rest_no_matching_schema", "x does not match the expected format. Reason: x must be greater than or equal to 5"},
		{"oneOf multiple titles", &Schema{OneOf: []*Schema{{Title: "A", Type: "integer"}, {Title: "B", Type: "number"}}}, "x", "1", "rest_one_of_multiple_matches", "x matches A and B, but should match only one."},
		{"oneOf multiple", &Schema{OneOf: []*Schema{{Type: "integer"}, {Type: "number"}}}, "x", "1", "rest_one_of_multiple_matches", "x matches more than one of the expected formats."},
		{"anyOf first", &Schema{AnyOf: []*Schema{{Type: "integer"}, {Type: "number"}}}, "x", "1", "", ""},
		{"anyOf objects best", &Schema{AnyOf: []*Schema{
			{Title: "Flip", Type: "object", Properties: Props{{Name: "type", Schema: &Schema{Type: "string", Enum: []any{"flip"}}}, {Name: "args", Schema: &Schema{Type: "object", Properties: Props{{Name: "flip", Schema: &Schema{Type: "object"}}}, RequiredProps: []string{"flip"}}}}},
			{Title: "Rotation", Type: "object", Properties: Props{{Name: "type", Schema: &Schema{Type: "string", Enum: []any{"rotate"}}}, {Name: "args", Schema: &Schema{Type: "object", Properties: Props{{Name: "angle", Schema: &Schema{Type: "number"}}}, RequiredProps: []string{"angle"}}}}},
		}}, "modifiers[0]", map[string]any{"type": "rotate", "args": map[string]any{}}, "rest_no_matching_schema", "modifiers[0] is not a valid Flip. Reason: modifiers[0][type] is not flip."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.schema.Compile(); err != nil {
				t.Fatal(err)
			}
			err := Validate(tc.value, tc.schema, tc.param)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("want valid, got %s: %s", err.Code, err.Message)
				}
				return
			}
			if err == nil {
				t.Fatalf("want %s, got valid", tc.code)
			}
			if err.Code != tc.code || err.Message != tc.msg {
				t.Fatalf("got  %s %q\nwant %s %q", err.Code, err.Message, tc.code, tc.msg)
			}
		})
	}
}

func TestValidateErrorData(t *testing.T) {
	err := Validate("x", &Schema{Type: "integer"}, "page")
	if got := mustJSON(err); got != `{"code":"rest_invalid_type","message":"page is not of type integer.","data":{"param":"page"}}` {
		t.Fatalf("type error body %s", got)
	}
	err = Validate("0", &Schema{Type: "integer", Minimum: Ptr(1.0)}, "page")
	if got := mustJSON(err); got != `{"code":"rest_out_of_bounds","message":"page must be greater than or equal to 1","data":null}` {
		t.Fatalf("keyword error body %s", got)
	}
	err = Validate("1", &Schema{OneOf: []*Schema{{Type: "integer"}, {Type: "number"}}}, "x")
	if got := mustJSON(err.Data); got != `{"positions":[0,1]}` {
		t.Fatalf("positions %s", got)
	}
}

func TestSanitize(t *testing.T) {
	tests := []struct {
		name   string
		schema *Schema
		value  any
		want   any
	}{
		{"integer", &Schema{Type: "integer"}, "5", int64(5)},
		{"integer exp", &Schema{Type: "integer"}, "1e3", int64(1000)},
		{"integer float", &Schema{Type: "integer"}, "5.0", int64(5)},
		{"number", &Schema{Type: "number"}, "1.5", 1.5},
		{"bool false", &Schema{Type: "boolean"}, "FALSE", false},
		{"bool 0", &Schema{Type: "boolean"}, "0", false},
		{"bool 1", &Schema{Type: "boolean"}, num("1"), true},
		{"array csv", &Schema{Type: "array", Items: &Schema{Type: "integer"}}, "1, 2 3", []any{int64(1), int64(2), int64(3)}},
		{"array assoc int keys", &Schema{Type: "array"}, map[string]any{"1": "b", "0": "a"}, []any{"a", "b"}},
		{"object drops unknown", &Schema{Type: "object", AdditionalProperties: false, Properties: Props{{Name: "a", Schema: &Schema{Type: "integer"}}}}, map[string]any{"a": "1", "b": "2"}, map[string]any{"a": int64(1)}},
		{"object keeps unknown", &Schema{Type: "object", Properties: Props{{Name: "a", Schema: &Schema{Type: "integer"}}}}, map[string]any{"a": "1", "b": "2"}, map[string]any{"a": int64(1), "b": "2"}},
		{"object from empty string", &Schema{Type: "object"}, "", map[string]any{}},
		{"multi null", &Schema{Types: []string{"string", "null"}}, nil, nil},
		{"multi no match", &Schema{Types: []string{"integer", "null"}}, "x", nil},
		{"text field", &Schema{Type: "string", Format: "text-field"}, "  a <b>bold</b>\n\tc %41 ", "a bold c"},
		{"hex invalid", &Schema{Type: "string", Format: "hex-color"}, "red", ""},
		{"uri", &Schema{Type: "string", Format: "uri"}, "example.com/a b", "http://example.com/a%20b"},
		{"uri bad scheme", &Schema{Type: "string", Format: "uri"}, "javascript:alert(1)", ""},
		{"term list", termQuery(), "3,4", []any{int64(3), int64(4)}},
		{"term object", termQuery(), map[string]any{"terms": []any{"5"}, "include_children": "1"}, map[string]any{"terms": []any{int64(5)}, "include_children": true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Sanitize(tc.value, tc.schema, "p")
			if err != nil {
				t.Fatalf("unexpected error %s: %s", err.Code, err.Message)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
	// uniqueItems is checked again after sanitising: "1" and 1 collide as integers.
	_, err := ParseArg([]any{"1", num("1")}, &Schema{Type: "array", UniqueItems: true, Items: &Schema{Type: "integer"}}, "ids")
	if err == nil || err.Code != "rest_duplicate_items" || err.Message != "ids has duplicate items." {
		t.Fatalf("post-sanitise uniqueness: %v", err)
	}
}
