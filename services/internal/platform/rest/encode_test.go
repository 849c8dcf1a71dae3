package rest

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPHPJSON checks json_encode's visible choices: "/" escaped, non-ASCII
// as lower-case \u escapes (surrogate pairs above the BMP), PHP's pretty
// layout, empty containers.
func TestPHPJSON(t *testing.T) {
	tests := []struct {
		v      any
		pretty bool
		want   string
	}{
		{"a/b", false, `"a\/b"`},
		{"é€😀", false, `"\u00e9\u20ac\ud83d\ude00"`},
		{"\x01\t\n\"\\<>&", false, `"\u0001\t\n\"\\<>&"`},
		{"bad\xffbyte", false, `"bad\ufffdbyte"`},
		{Object{}.With("a", []any{}).With("b", Object{}).With("c", map[string]any{}), false, `{"a":[],"b":{},"c":{}}`},
		{Object{}.With("a", []any{int64(1), 2.5, true, nil}).With("b", Object{}.With("c", "d")), true,
			"{\n    \"a\": [\n        1,\n        2.5,\n        true,\n        null\n    ],\n    \"b\": {\n        \"c\": \"d\"\n    }\n}"},
		{json.Number("1e3"), false, `1e3`},
		{float64(5), false, `5`},
		{struct {
			A string `json:"a"`
			B []int  `json:"b"`
		}{"x/y", []int{1}}, true, "{\n    \"a\": \"x\\/y\",\n    \"b\": [\n        1\n    ]\n}"},
		{NewError("rest_x", "Nope.", 418), false, `{"code":"rest_x","message":"Nope.","data":{"status":418}}`},
	}
	for _, tc := range tests {
		if got := string(appendJSON(tc.v, tc.pretty)); got != tc.want {
			t.Errorf("%#v:\n got %s\nwant %s", tc.v, got, tc.want)
		}
	}
}

func TestMultiErrorBody(t *testing.T) {
	e := NewError("rest_title_required", "The title is required when using a custom menu item type.", 400).
		With(NewError("rest_url_required", "The url is required when using a custom menu item type.", 400))
	want := `{"code":"rest_title_required","message":"The title is required when using a custom menu item type.","data":{"status":400},"additional_errors":[{"code":"rest_url_required","message":"The url is required when using a custom menu item type.","data":{"status":400}}]}`
	if got := mustJSON(e); got != want {
		t.Fatalf("got %s", got)
	}
	withData := &Error{Code: "c", Message: "m", Data: Object{}.With("status", 409), AdditionalData: []any{Object{}.With("status", 400)}}
	if withData.Status() != 409 || mustJSON(withData) != `{"code":"c","message":"m","data":{"status":409},"additional_data":[{"status":400}]}` {
		t.Fatalf("additional_data: %d %s", withData.Status(), mustJSON(withData))
	}
	if (&Error{Code: "c", Message: "m"}).Status() != 500 {
		t.Fatal("no status must be 500")
	}
	if e.With(NewError("late", "x", 422)).Status() != 422 {
		t.Fatal("status is the last payload's")
	}
}

// An Encoded value is written exactly as the value it was encoded from,
// compact and with _pretty.
func TestEncodedValue(t *testing.T) {
	inner := Object{{Key: "route/é", Value: []any{"a/b", 1, true, nil}}, {Key: "n", Value: Object{{Key: "x", Value: "<tag>"}}}}
	enc := Encode(inner)
	for _, pretty := range []bool{false, true} {
		want := appendJSON(Object{{Key: "routes", Value: inner}, {Key: "z", Value: 2}}, pretty)
		got := appendJSON(Object{{Key: "routes", Value: enc}, {Key: "z", Value: 2}}, pretty)
		if string(got) != string(want) {
			t.Errorf("pretty=%v:\n got %s\nwant %s", pretty, got, want)
		}
	}
	if !strings.Contains(string(enc), `"route\/\u00e9"`) {
		t.Errorf("Encode did not use PHP escaping: %s", enc)
	}
}
