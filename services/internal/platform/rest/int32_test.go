package rest

import (
	"net/http"
	"testing"
)

// A number bound for a 32-bit column that does not fit is a 400
// rest_invalid_param before the handler (issue 26: menu_order=2147483648
// reached the database and answered 503 or 500).
func TestInt32ArgumentsOutOfRangeAre400(t *testing.T) {
	handled := 0
	ok := func(*Request) (*Response, error) { handled++; return &Response{Data: true}, nil }
	s, err := New(Options{}, Route{Namespace: "t/v1", Path: "/pages", Endpoints: []Endpoint{{Methods: Creatable, Handler: ok,
		Args: Props{{Name: "menu_order", Schema: &Schema{Type: "integer", Int32: true}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	msg := `{"code":"rest_invalid_param","message":"Invalid parameter(s): menu_order","data":{"status":400,"params":{"menu_order":"menu_order must be between -2147483648 (inclusive) and 2147483647 (inclusive)"},"details":{"menu_order":{"code":"rest_out_of_bounds","message":"menu_order must be between -2147483648 (inclusive) and 2147483647 (inclusive)","data":null}}}}`
	tests := []struct {
		name, query, json string
		status            int
		body              string
	}{
		{"largest int32", "menu_order=2147483647", "", http.StatusOK, "true"},
		{"smallest int32", "menu_order=-2147483648", "", http.StatusOK, "true"},
		{"one past the largest", "menu_order=2147483648", "", http.StatusBadRequest, msg},
		{"one below the smallest", "menu_order=-2147483649", "", http.StatusBadRequest, msg},
		{"int64 maximum", "menu_order=9223372036854775807", "", http.StatusBadRequest, msg},
		{"past int64", "menu_order=99999999999999999999999", "", http.StatusBadRequest, msg},
		{"JSON number", "", `{"menu_order":2147483648}`, http.StatusBadRequest, msg},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := handled
			var h []string
			if tc.json != "" {
				h = []string{"Content-Type", "application/json"}
			}
			res := do(t, s, http.MethodPost, "/t/v1/pages?"+tc.query, nil, tc.json, h...)
			if res.status != tc.status || res.body != tc.body {
				t.Fatalf("%d %s, want %d %s", res.status, res.body, tc.status, tc.body)
			}
			if tc.status != http.StatusOK && handled != before {
				t.Fatal("the handler ran")
			}
		})
	}
}
