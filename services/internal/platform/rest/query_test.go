package rest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
)

// Query reads names and values as the kit's request does.
func TestQueryReadsAsTheKit(t *testing.T) {
	tests := []struct {
		raw, name string
		scalar    string
		has       bool
	}{
		{"+_method=POST", "_method", "POST", true},
		{"%5Fmethod=POST", "_method", "POST", true},
		{"rest.route=/x", "rest_route", "/x", true},
		{"per_page=1&per.page=3", "per_page", "3", true},
		{"_method[]=POST", "_method", "", true},
		{"a=1", "_method", "", false},
	}
	for _, tc := range tests {
		q := ParseQuery(tc.raw)
		v, ok := q.Scalar(tc.name)
		if q.Has(tc.name) != tc.has || v != tc.scalar || ok != (tc.scalar != "") {
			t.Errorf("%q: Has %v Scalar %q %v", tc.raw, q.Has(tc.name), v, ok)
		}
	}
	if base, nested := ParamName("+rest.route"); base != "rest_route" || nested {
		t.Errorf("ParamName: %q %v", base, nested)
	}
}

// FuzzQuery checks that rest.Query (what the gateway and its edge cache
// read) agrees with the kit's own request reading: the method override the
// kit runs, and a canonical spelling that re-reads identically.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{"per_page=1&per.page=3", "+_method=POST", "_method[]=x&a[b][c]=1", "%5Fmethod=delete&rest.route=/x", "a[]=1&a[]=2&a[x]=3"} {
		f.Add(s, "")
	}
	f.Add("", "PATCH")
	s := newTestServer(f)
	f.Fuzz(func(t *testing.T, raw, override string) {
		q := ParseQuery(raw)
		hr := &http.Request{Method: http.MethodGet, URL: &url.URL{Path: "/", RawQuery: raw}, Header: http.Header{}}
		if override != "" {
			hr.Header.Set("X-HTTP-Method-Override", override)
		}
		req, _ := s.newRequest(hr, q.a)
		// The kit overrides with a scalar _method, else with the header.
		_, scalar := q.Scalar("_method")
		want := ""
		if scalar || override != "" {
			want = req.Method
		}
		if got := q.MethodOverride(hr.Header); got != want {
			t.Fatalf("MethodOverride %q, the kit runs %q", got, want)
		}
		c := q.Canonical()
		if c != "" && !json.Valid([]byte(c)) {
			t.Fatalf("Canonical is not JSON: %q", c)
		}
		if q.Err() == nil && ParseQuery(q.Values().Encode()).Canonical() != c && !lossyValues(q) {
			t.Fatalf("Values re-read differently: %q -> %q", raw, q.Values().Encode())
		}
	})
}

// lossyValues reports whether Values cannot spell q exactly (arrays, or
// names holding brackets, dots or blanks that re-read differently), where
// the round trip is not expected to hold.
func lossyValues(q Query) bool {
	for _, it := range q.a.items {
		switch it.val.(type) {
		case []any, map[string]any:
			// A list re-reads as a map of "0", "1"..., and a nested value
			// is spelled as its JSON: not the same Canonical.
			return true
		}
		if base, nested := ParamName(url.QueryEscape(it.key)); base != it.key || nested {
			return true
		}
	}
	return false
}
