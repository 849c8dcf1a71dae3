package media

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Oversized bodies of callers who may not upload are refused after reading
// at most guestBodyBytes, whatever the route's spelling, and JSON bodies of
// uploaders after jsonBodyBytes: the answer is a 4xx and the service's live
// heap stays far below the body (on a1ed099 an 8 MiB JSON array was read
// and decoded first: over 200 MiB held, then 401).
func TestOversizedBodiesAreRefusedBeforeDecoding(t *testing.T) {
	e := newEnv(t)
	array := []byte("[" + strings.Repeat("0,", 4<<20) + "0]") // 8 MiB of JSON numbers
	form := []byte(strings.Repeat("a[]=1&", 8<<20/6))
	var multi bytes.Buffer
	multiType := newMultipart(&multi, "big.pdf", append([]byte("%PDF-1.4\n"), make([]byte, 8<<20)...))
	tests := []struct {
		name, who, method, path, ctype string
		body                           []byte
		status                         []int
	}{
		{"anonymous JSON upload", anon, "POST", "/cms/v2/media", "application/json", array, []int{401, 413}},
		{"anonymous JSON upload, rest_route", anon, "POST", "/?rest_route=/cms/v2/media", "application/json", array, []int{401, 413}},
		{"anonymous JSON upload, _method", anon, "GET", "/cms/v2/media?_method=POST", "application/json", array, []int{401, 413}},
		{"anonymous JSON to an item", anon, "POST", "/cms/v2/media/1", "application/json", array, []int{401, 404, 413}},
		{"anonymous JSON body on a list", anon, "GET", "/cms/v2/media", "application/json", array, []int{413}},
		{"anonymous form upload", anon, "POST", "/cms/v2/media", "application/x-www-form-urlencoded", form, []int{400, 401, 413}},
		{"anonymous multipart upload", anon, "POST", "/cms/v2/media", multiType, multi.Bytes(), []int{400, 401, 413}},
		{"subscriber JSON upload", subscriber, "POST", "/cms/v2/media", "application/json", array, []int{403, 413}},
		{"contributor multipart upload", contributor, "POST", "/cms/v2/media", multiType, multi.Bytes(), []int{400, 403, 413}},
		{"author JSON upload", author, "POST", "/cms/v2/media", "application/json", array, []int{400, 413}},
	}
	for _, tc := range tests {
		for _, chunked := range []bool{false, true} {
			name := tc.name
			if chunked {
				name += ", chunked" // no Content-Length: refused while reading
			}
			t.Run(name, func(t *testing.T) {
				var body io.Reader = bytes.NewReader(tc.body)
				if chunked {
					body = struct{ io.Reader }{body} // hides the length from the client
				}
				var r *resp
				held := heldDuring(t, func() {
					r = e.request(tc.who, tc.method, tc.path, body, http.Header{"Content-Type": {tc.ctype}})
				})
				ok := false
				for _, s := range tc.status {
					ok = ok || r.Status == s
				}
				if !ok {
					t.Errorf("status %d, want one of %v: %.300s", r.Status, tc.status, r.Raw)
				}
				if held > 4<<20 {
					t.Errorf("the service held %d MiB for a %d MiB body", held>>20, len(tc.body)>>20)
				}
			})
		}
	}
}

// A multipart upload waits in a temporary file, not in the heap (on
// a1ed099 the route kit kept the whole 8 MiB part in memory).
func TestMultipartUploadWaitsOnDisk(t *testing.T) {
	e := newEnv(t)
	var multi bytes.Buffer
	ct := newMultipart(&multi, "big.pdf", append([]byte("%PDF-1.4\n"), make([]byte, 8<<20)...))
	var r *resp
	held := heldDuring(t, func() {
		r = e.request(author, "POST", "/cms/v2/media", bytes.NewReader(multi.Bytes()), http.Header{"Content-Type": {ct}})
	})
	wantStatus(t, r, http.StatusCreated)
	if held > 4<<20 {
		t.Errorf("the service held %d MiB for an 8 MiB multipart upload", held>>20)
	}
}
