package rest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

var fuzzMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

// FuzzServe drives the whole pipeline — route matching, PHP-style query and
// form parsing, JSON bodies, validation, sanitisation, filtering, envelope
// and JSONP — and checks that every answer is a well-formed response.
// Seeds: testdata/fuzz/FuzzServe.
func FuzzServe(f *testing.F) {
	f.Add(uint8(0), "/cms/v2/posts", "per_page=5&page=2&categories[]=3&_fields=id,title", "", []byte(nil))
	f.Add(uint8(1), "/cms/v2/posts", "", "application/json", []byte(`{"status":"draft","categories":[1,"2"],"title":{"raw":"x"}}`))
	f.Add(uint8(1), "/batch/v1", "", "application/json", []byte(`{"requests":[{"method":"PUT","path":"/cms/v2/posts/1","headers":{"a":["b"]}}]}`))
	f.Add(uint8(3), "/cms/v2/posts/1", "_method=delete&force=1&_envelope", "application/x-www-form-urlencoded", []byte("title[raw]=a&categories[]=1"))
	s := newTestServer(f)
	f.Fuzz(func(t *testing.T, m uint8, path, rawQuery, contentType string, body []byte) {
		method := fuzzMethods[int(m)%len(fuzzMethods)]
		req := &http.Request{
			Method: method,
			URL:    &url.URL{Path: path, RawQuery: rawQuery},
			Header: http.Header{},
			Body:   io.NopCloser(bytes.NewReader(body)),
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		req = req.WithContext(t.Context())
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code < 200 || rec.Code > 599 {
			t.Fatalf("status %d", rec.Code)
		}
		out := rec.Body.Bytes()
		if len(out) == 0 || strings.HasPrefix(rec.Header().Get("Content-Type"), "application/javascript") {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON body: %q", out)
		}
	})
}

// FuzzValidate checks that any schema the gateway could parse, applied to
// any JSON value or query-string value, validates and sanitises without
// panicking, and that a value that validates also sanitises.
// Seeds: testdata/fuzz/FuzzValidate.
func FuzzValidate(f *testing.F) {
	f.Add([]byte(`{"type":"integer","minimum":1,"maximum":100}`), []byte(`"5"`), "v=101")
	f.Add([]byte(`{"type":["object","array"],"oneOf":[{"title":"Term ID List","type":"array","items":{"type":"integer"}},{"title":"Term ID Taxonomy Query","type":"object","properties":{"terms":{"type":"array","items":{"type":"integer"}},"operator":{"type":"string","enum":["AND","OR"]}},"additionalProperties":false}]}`), []byte(`{"terms":[1],"operator":"AND"}`), "v[terms][]=5&v[operator]=OR")
	f.Add([]byte(`{"type":"array","maxItems":25,"uniqueItems":true,"items":{"type":"object","properties":{"path":{"type":"string","required":true}}}}`), []byte(`[{"path":"/a"},{"path":"/a"}]`), "v[0][path]=x")
	f.Add([]byte(`{"type":"string","format":"date-time","pattern":"^2","minLength":2}`), []byte(`"2024-01-01T00:00:00Z"`), "v=2024-01-01+00:00:00")
	f.Fuzz(func(t *testing.T, schemaJSON, valueJSON []byte, query string) {
		var s Schema
		if err := json.Unmarshal(schemaJSON, &s); err != nil {
			return
		}
		if err := s.Compile(); err != nil {
			return
		}
		values := []any{}
		if v, err := decodeJSON(valueJSON); err == nil {
			values = append(values, v)
		}
		if v, ok := parseQuery(query).get("v"); ok {
			values = append(values, v)
		}
		for _, v := range values {
			err := Validate(v, &s, "v")
			sv, serr := Sanitize(v, &s, "v")
			if err == nil && serr != nil && serr.Code != "rest_duplicate_items" {
				t.Fatalf("valid value failed sanitising: %s %s", serr.Code, serr.Message)
			}
			if err != nil && (err.Code == "" || err.Message == "") {
				t.Fatalf("error without code or message: %#v", err)
			}
			if !json.Valid(appendJSON(sv, false)) {
				t.Fatalf("sanitised value does not encode: %#v", sv)
			}
		}
		if out, err := json.Marshal(&s); err != nil || !json.Valid(out) {
			t.Fatalf("schema does not re-encode: %v", err)
		}
	})
}
