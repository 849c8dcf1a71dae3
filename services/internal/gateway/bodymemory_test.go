package gateway

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
)

// body9MiB is head, then elem repeated (comma-separated) to about 9 MiB,
// then tail: the size the issue-26 attacker sent anonymously.
func body9MiB(head, elem, tail string) []byte {
	var b bytes.Buffer
	b.WriteString(head)
	for b.Len() < 9<<20 {
		if b.Len() > len(head) {
			b.WriteByte(',')
		}
		b.WriteString(elem)
	}
	b.WriteString(tail)
	return b.Bytes()
}

// An anonymous 9 MiB body to the gateway's own routes is answered 4xx for a
// small multiple of its size (it cost 338 MiB at /batch/v1), and a route
// that needs little refuses it by its declared limit before reading it.
func TestAnonymousOversizedBodiesStayBounded(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name, target string
		body         []byte
		status       int
		most         uint64 // bytes allocated at most
	}{
		{"batch, requests of numbers", "/cms-json/batch/v1", body9MiB(`{"requests":[`, "0", "]}"), http.StatusBadRequest, 4 * 9 << 20},
		{"batch, a bare array", "/cms-json/batch/v1", body9MiB("[", "{}", "]"), http.StatusBadRequest, 4 * 9 << 20},
		{"batch, many requests", "/cms-json/batch/v1", body9MiB(`{"requests":[`, `{"path":"/cms/v2/posts"}`, "]}"), http.StatusBadRequest, 4 * 9 << 20},
		{"users, declared limit", "/cms-json/cms/v2/users", body9MiB("[", "0", "]"), http.StatusRequestEntityTooLarge, 1 << 20},
		{"application passwords, declared limit", "/cms-json/cms/v2/users/1/application-passwords", body9MiB("[", "0", "]"), http.StatusRequestEntityTooLarge, 1 << 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			req := httptest.NewRequest(http.MethodPost, tc.target, bytes.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			f.gw.ServeHTTP(rec, req)
			runtime.ReadMemStats(&after)
			used := after.TotalAlloc - before.TotalAlloc
			if rec.Code != tc.status {
				t.Errorf("status %d, want %d: %.200s", rec.Code, tc.status, rec.Body.String())
			}
			if used > tc.most {
				t.Errorf("allocated %d MiB for a %d MiB body, want at most %d MiB", used>>20, len(tc.body)>>20, tc.most>>20)
			}
		})
	}
}
