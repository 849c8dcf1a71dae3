package media

import (
	"net/http"
	"testing"
)

// A type WordPress does not allow is refused with WordPress's code and
// message but a 4xx (415: the file is the client's problem; WordPress
// answers 500), style sheets and scripts included, whoever uploads them,
// and nothing is stored. On a1ed099 these were 500, and a .css file was
// stored and served from the site's origin.
func TestDisallowedUploadTypes(t *testing.T) {
	e := newEnv(t)
	const msg = "Sorry, you are not allowed to upload this file type."
	tests := []struct {
		name, who, file, ctype string
		data                   []byte
		multipart              bool
	}{
		{"html", author, "x.html", "text/html", []byte("<html><script>alert(1)</script></html>"), false},
		{"php", admin, "x.php", "application/x-php", []byte("<?php system($_GET['c']); ?>"), false},
		{"php named as a picture", author, "x.jpg", "image/jpeg", []byte("<?php echo 1; ?>"), false},
		{"exe", author, "setup.exe", "application/octet-stream", append([]byte("MZ\x90\x00\x03"), make([]byte, 200)...), false},
		{"css", author, "style.css", "text/css", []byte("body { background: url(x) }\n"), false},
		{"js, even by an administrator", admin, "app.js", "text/javascript", []byte("alert(document.cookie)\n"), false},
		{"svg, multipart", author, "x.svg", "", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>`), true},
		{"css, multipart", editor, "style.css", "", []byte("a { color: red }\n"), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r *resp
			code := "rest_upload_sideload_error"
			if tc.multipart {
				r, code = e.uploadMultipart(tc.who, tc.file, tc.data, nil), "rest_upload_unknown_error"
			} else {
				r = e.uploadRaw(tc.who, "", tc.file, tc.ctype, tc.data)
			}
			wantError(t, r, http.StatusUnsupportedMediaType, code, msg)
		})
	}
	if n := e.rows(); n != 0 {
		t.Errorf("%d attachments stored", n)
	}
}
