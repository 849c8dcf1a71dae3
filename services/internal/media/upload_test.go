package media

import (
	"net/http"
	"testing"
)

func TestUploadRawJPEG(t *testing.T) {
	e := newEnv(t)
	r := e.uploadRaw(author, "?title=Hello&alt_text=An+alt", "My Photo.jpg", "image/jpeg", testJPEG(t, 1200, 900))
	wantStatus(t, r, http.StatusCreated)
	o := r.obj()
	t.Logf("%s", r.Raw)
	if r.Header.Get("X-WP-Upload-Attachment-ID") == "" || r.Header.Get("Location") == "" {
		t.Fatalf("headers: %v", r.Header)
	}
	_ = o
	t.Log(e.files())
}
