package rest

import (
	"fmt"
	"io"
	"net/http"
	"testing"
)

// A StreamBody endpoint gets a raw body unread, bounded by MaxBodyBytes;
// JSON and form bodies are still parsed into parameters, and other
// endpoints still get Body.
func TestStreamBody(t *testing.T) {
	report := func(r *Request) (*Response, error) {
		if r.BodyReader == nil {
			return &Response{Data: fmt.Sprintf("read len=%d title=%q", len(r.Body), r.String("title"))}, nil
		}
		b, err := io.ReadAll(r.BodyReader)
		if err != nil {
			return nil, BodyError(err)
		}
		return &Response{Data: fmt.Sprintf("stream body=%q nil=%v", b, r.Body == nil)}, nil
	}
	args := Props{{Name: "title", Schema: &Schema{Type: "string"}}}
	s, err := New(Options{MaxBodyBytes: 16},
		Route{Namespace: "t/v1", Path: "/stream", Endpoints: []Endpoint{{Methods: Creatable, Args: args, Handler: report, StreamBody: true}}},
		Route{Namespace: "t/v1", Path: "/read", Endpoints: []Endpoint{{Methods: Creatable, Args: args, Handler: report}}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, ct, body string
		status               int
		want                 string
	}{
		{"raw body streamed", "/t/v1/stream", "image/jpeg", "abcdefghijklmnop", 200, `"stream body=\"abcdefghijklmnop\" nil=true"`},
		{"no content type streamed", "/t/v1/stream", "", "abc", 200, `"stream body=\"abc\" nil=true"`},
		{"over the limit while streaming", "/t/v1/stream", "image/jpeg", "abcdefghijklmnopq", 413,
			`{"code":"rest_body_too_large","message":"The request body is too large.","data":{"status":413}}`},
		{"json still parsed", "/t/v1/stream", "application/json", `{"title":"abcdef"}`, 413, `{"code":"rest_body_too_large","message":"The request body is too large.","data":{"status":413}}`},
		{"small json parsed", "/t/v1/stream", "application/json", `{"title":"ab"}`, 200, `"read len=14 title=\"ab\""`},
		{"form parsed", "/t/v1/stream", "application/x-www-form-urlencoded", `title=ab`, 200, `"read len=8 title=\"ab\""`},
		{"other endpoints read", "/t/v1/read", "image/jpeg", "abc", 200, `"read len=3 title=\"\""`},
		{"other endpoints limited", "/t/v1/read", "image/jpeg", "abcdefghijklmnopq", 413, `{"code":"rest_body_too_large","message":"The request body is too large.","data":{"status":413}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h []string
			if tc.ct != "" {
				h = []string{"Content-Type", tc.ct}
			}
			res := do(t, s, http.MethodPost, tc.path, nil, tc.body, h...)
			if res.status != tc.status || res.body != tc.want {
				t.Fatalf("%d %s, want %d %s", res.status, res.body, tc.status, tc.want)
			}
		})
	}
}
