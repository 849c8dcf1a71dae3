package media

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A raw upload is spooled to an unlinked file of the spool directory:
// stored byte for byte, with its sizes, and nothing stays behind; a spool
// directory that cannot be written is the server's error, in the API's
// envelope, and nothing is stored.
func TestUploadSpool(t *testing.T) {
	spool := t.TempDir()
	e := newEnv(t, EnvSpoolDir, spool)
	jpg := withOrientation(testJPEG(t, 1200, 900), 6)
	r := e.uploadRaw(author, "", "spooled.jpg", "image/jpeg", jpg)
	wantStatus(t, r, http.StatusCreated)
	o := r.obj()
	if w, h := num(field(o, "media_details", "width")), num(field(o, "media_details", "height")); w != 900 || h != 1200 {
		t.Errorf("upright size %dx%d, want 900x1200 (EXIF orientation 6 read from the spooled file)", w, h)
	}
	if got := mustRead(t, filepath.Join(e.dir, field(o, "media_details", "file").(string))); !bytes.Equal(got, jpg) {
		t.Errorf("stored original differs from the upload (%d bytes, want %d)", len(got), len(jpg))
	}
	if sizes, _ := field(o, "media_details", "sizes").(map[string]any); len(sizes) < 3 {
		t.Errorf("sizes: %v", sizes)
	}
	if left, _ := os.ReadDir(spool); len(left) != 0 {
		t.Errorf("spool directory holds %d files after the upload", len(left))
	}

	e = newEnv(t, EnvSpoolDir, filepath.Join(t.TempDir(), "missing"))
	before := len(e.files())
	r = e.uploadRaw(author, "", "nowhere.jpg", "image/jpeg", jpg)
	wantStatus(t, r, http.StatusInternalServerError)
	wantError(t, r, http.StatusInternalServerError, "rest_upload_sideload_error", "The uploaded file could not be saved.")
	if n := len(e.files()); n != before {
		t.Errorf("%d files stored after a failed spool", n-before)
	}
}

// jpegMetaHead keeps everything readJPEGMeta reads: the same answer for the
// head as for the whole file, for a good file and every truncation and
// corruption of its first bytes.
func TestJPEGMetaHead(t *testing.T) {
	good := withOrientation(testJPEG(t, 400, 300), 6)
	files := [][]byte{good, []byte("not a jpeg"), nil}
	for n := 0; n < 300 && n < len(good); n++ {
		files = append(files, good[:n])
		bad := append([]byte(nil), good...)
		bad[n] ^= 0xFF
		files = append(files, bad)
	}
	for i, f := range files {
		head := jpegMetaHead(bytes.NewReader(f), int64(len(f)))
		if want, got := readJPEGMeta(f), readJPEGMeta(head); !reflect.DeepEqual(got, want) {
			t.Fatalf("file %d: head meta %+v, whole file %+v", i, got, want)
		}
	}
	if head := jpegMetaHead(bytes.NewReader(good), int64(len(good))); len(head) >= len(good)/2 {
		t.Errorf("head of a %d-byte JPEG is %d bytes: the image data was read too", len(good), len(head))
	}
}
