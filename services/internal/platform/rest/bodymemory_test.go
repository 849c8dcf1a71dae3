package rest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// nineMiB builds a body of about 9 MiB from a head, a repeated element and
// a tail: the sizes the issue-26 attacker sent anonymously.
func nineMiB(head, elem, tail string) []byte {
	const size = 9 << 20
	var b bytes.Buffer
	b.Grow(size + len(head) + len(tail) + len(elem))
	b.WriteString(head)
	for b.Len() < size {
		if b.Len() > len(head) {
			b.WriteByte(',')
		}
		b.WriteString(elem)
	}
	b.WriteString(tail)
	return b.Bytes()
}

// allocated is the memory allocated while f ran (cumulative, so a peak is
// bounded by it too).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// An anonymous oversized JSON body costs a small multiple of its size, not
// tens of times it (issue 26: 9 MiB to content's posts cost 421 MiB), and is
// answered 4xx: the permission check refuses it, or the body's shape does.
func TestAnonymousJSONBodyMemoryIsBounded(t *testing.T) {
	deny := func(r *Request) error { return Forbidden(r) }
	ok := func(*Request) (*Response, error) { return &Response{Data: true}, nil }
	s, err := New(Options{},
		Route{Namespace: "t/v1", Path: "/posts", Endpoints: []Endpoint{{Methods: Creatable, Permission: deny, Handler: ok,
			Args: Props{{Name: "title", Schema: &Schema{Type: "string"}}}}}},
		Route{Namespace: "t/v1", Path: "/small", Endpoints: []Endpoint{{Methods: Creatable, Handler: ok, MaxBody: 64 << 10}}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		body       []byte
		status     int
	}{
		{"array of numbers", "/t/v1/posts", nineMiB("[", "0", "]"), http.StatusUnauthorized},
		{"array of empty objects", "/t/v1/posts", nineMiB("[", "{}", "]"), http.StatusUnauthorized},
		{"object holding an array", "/t/v1/posts", nineMiB(`{"title":"x","a":[`, "0", "]}"), http.StatusBadRequest},
		{"object of many members", "/t/v1/posts", nineMiB(`{"title":"x"`, `"k":0`, "}"), http.StatusBadRequest},
		{"nested arrays", "/t/v1/posts", nineMiB(`{"a":[`, "[[[]]]", "]}"), http.StatusBadRequest},
		{"one long string", "/t/v1/posts", []byte(`{"title":"` + strings.Repeat("a", 9<<20) + `"}`), http.StatusUnauthorized},
		{"no route", "/t/v1/nothing", nineMiB("[", "0", "]"), http.StatusNotFound},
		{"over the route's own limit", "/t/v1/small", nineMiB("[", "0", "]"), http.StatusRequestEntityTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var status int
			used := allocated(func() {
				hr := httptest.NewRequest(http.MethodPost, tc.path, bytes.NewReader(tc.body))
				hr.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, hr)
				status = rec.Code
			})
			if status != tc.status {
				t.Errorf("status %d, want %d", status, tc.status)
			}
			// The body itself, the decoder's buffer and the decoded
			// strings fit (a long string costs about 5 times its size either
			// way); the old decode into any took 30-50 times the body.
			if limit := 6 * uint64(len(tc.body)); used > limit {
				t.Errorf("allocated %d MiB for a %d MiB body, want at most %d MiB", used>>20, len(tc.body)>>20, limit>>20)
			}
			t.Logf("%s: %d MiB allocated", tc.name, used>>20)
		})
	}
}
