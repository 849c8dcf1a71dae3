package media

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"image"
	_ "image/gif"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// hugePNG is a PNG header announcing w×h pixels (no pixel data): enough for
// image.DecodeConfig, and a decoder bomb for anything that would decode it.
func hugePNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk := func(typ string, data []byte) {
		_ = binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(typ)
		b.Write(data)
		_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	chunk("IHDR", ihdr)
	chunk("IDAT", []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})
	chunk("IEND", nil)
	return b.Bytes()
}

// rows counts the attachments in the service's database.
func (e *testEnv) rows() int {
	e.t.Helper()
	var n int
	r := e.json(admin, "GET", "/cms/v2/media?per_page=100&status=inherit,private", nil)
	wantStatus(e.t, r, http.StatusOK)
	n = len(r.list())
	return n
}

func TestUploadErrors(t *testing.T) {
	e := newEnv(t, EnvMaxUploadBytes, "200000", EnvMaxPixels, "40000000")
	jpg := testJPEG(t, 40, 30)
	sum := md5.Sum(jpg)
	raw := func(who string, h http.Header, body []byte) *resp {
		return e.request(who, "POST", "/cms/v2/media", bytes.NewReader(body), h)
	}
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Add(kv[i], kv[i+1])
		}
		return h
	}
	good := func(extra ...string) http.Header {
		return hdr(append([]string{"Content-Type", "image/jpeg", "Content-Disposition", `attachment; filename="a.jpg"`}, extra...)...)
	}
	tests := []struct {
		name    string
		do      func() *resp
		status  int
		code    string
		message string
	}{
		{"no data", func() *resp { return raw(author, good(), nil) }, 400, "rest_upload_no_data", "No data supplied."},
		{"no content type", func() *resp {
			return raw(author, hdr("Content-Disposition", `attachment; filename="a.jpg"`), jpg)
		}, 400, "rest_upload_no_content_type", "No Content-Type supplied."},
		{"no disposition", func() *resp { return raw(author, hdr("Content-Type", "image/jpeg"), jpg) }, 400,
			"rest_upload_no_content_disposition", "No Content-Disposition supplied."},
		{"invalid disposition", func() *resp {
			return raw(author, hdr("Content-Type", "image/jpeg", "Content-Disposition", "attachment"), jpg)
		}, 400, "rest_upload_invalid_disposition",
			"Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename=\"image.png\"` or similar."},
		{"filename* only", func() *resp {
			return raw(author, hdr("Content-Type", "image/jpeg", "Content-Disposition", "attachment; filename*=UTF-8''a.jpg"), jpg)
		}, 400, "rest_upload_invalid_disposition", ""},
		{"hash mismatch", func() *resp { return raw(author, good("Content-MD5", strings.Repeat("0", 32)), jpg) }, 412,
			"rest_upload_hash_mismatch", "Content hash did not match expected."},
		{"multipart hash mismatch", func() *resp {
			return e.uploadMultipartHeader(author, "a.jpg", jpg, hdr("Content-MD5", strings.Repeat("f", 32)))
		}, 412, "rest_upload_hash_mismatch", "Content hash did not match expected."},
		{"type not allowed (raw)", func() *resp {
			return raw(author, hdr("Content-Type", "text/html", "Content-Disposition", `attachment; filename="x.html"`), []byte("<html><script>alert(1)</script></html>"))
		}, 415, "rest_upload_sideload_error", "Sorry, you are not allowed to upload this file type."},
		{"name cannot make a script allowed", func() *resp {
			return raw(author, hdr("Content-Type", "image/jpeg", "Content-Disposition", `attachment; filename="x.jpg"`), []byte("<?php echo 1; ?>"))
		}, 415, "rest_upload_sideload_error", "Sorry, you are not allowed to upload this file type."},
		{"type not allowed (multipart)", func() *resp {
			return e.uploadMultipart(author, "x.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`), nil)
		},
			415, "rest_upload_unknown_error", "Sorry, you are not allowed to upload this file type."},
		{"multipart without file", func() *resp { return e.uploadMultipart(author, "", nil, map[string]string{"title": "x"}) },
			400, "rest_upload_no_data", "No data supplied."},
		{"too large", func() *resp { return raw(author, good(), bytes.Repeat([]byte{0xFF}, 200_001)) }, 400,
			"rest_upload_file_too_big", "This file is too big. Files must be less than 195 KB in size."},
		{"too large, refused by length", func() *resp { return raw(author, good(), bytes.Repeat([]byte{0xFF}, 200_000+2<<20)) }, 400,
			"rest_upload_file_too_big", ""},
		{"too many pixels", func() *resp {
			return raw(author, hdr("Content-Type", "image/png", "Content-Disposition", `attachment; filename="bomb.png"`), hugePNG(50000, 50000))
		}, 400, "rest_upload_image_too_large", ""},
		{"multipart image type without sizes", func() *resp { return e.uploadMultipart(author, "a.bmp", bmpFile(), nil) }, 400,
			"rest_upload_image_type_not_supported", "The web server cannot generate responsive image sizes for this image. Convert it to JPEG or PNG before uploading."},
		{"anonymous", func() *resp { return raw(anon, good(), jpg) }, 401, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user."},
		{"subscriber", func() *resp { return raw(subscriber, good(), jpg) }, 403, "rest_cannot_create", ""},
		{"contributor", func() *resp { return raw(contributor, good(), jpg) }, 403, "rest_cannot_create", ""},
		{"subscriber, multipart", func() *resp { return e.uploadMultipart(subscriber, "a.jpg", jpg, nil) }, 403, "rest_cannot_create", ""},
		{"inherit is not a write status", func() *resp { return raw(author, good(), jpg) }, 0, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.status == 0 {
				r := e.request(author, "POST", "/cms/v2/media?status=inherit", bytes.NewReader(jpg), good())
				wantError(t, r, 400, "rest_invalid_param", "")
			} else {
				wantError(t, tt.do(), tt.status, tt.code, tt.message)
			}
			if n := e.rows(); n != 0 {
				t.Fatalf("a failed upload left %d rows", n)
			}
			if f := e.files(); len(f) != 0 {
				t.Fatalf("a failed upload left files: %v", f)
			}
		})
	}
	// The same bytes with the right hash are accepted.
	r := raw(author, good("Content-MD5", hex.EncodeToString(sum[:])), jpg)
	wantStatus(t, r, http.StatusCreated)
}

func (e *testEnv) uploadMultipartHeader(who, name string, data []byte, extra http.Header) *resp {
	e.t.Helper()
	var buf bytes.Buffer
	mw := newMultipart(&buf, name, data)
	h := http.Header{"Content-Type": {mw}}
	for k, v := range extra {
		h[k] = v
	}
	return e.request(who, "POST", "/cms/v2/media", &buf, h)
}

// bmpFile is a 2×2 BMP.
func bmpFile() []byte {
	var b bytes.Buffer
	b.WriteString("BM")
	_ = binary.Write(&b, binary.LittleEndian, uint32(14+40+16))
	_ = binary.Write(&b, binary.LittleEndian, uint32(0))
	_ = binary.Write(&b, binary.LittleEndian, uint32(54))
	_ = binary.Write(&b, binary.LittleEndian, uint32(40))
	_ = binary.Write(&b, binary.LittleEndian, int32(2))
	_ = binary.Write(&b, binary.LittleEndian, int32(2))
	_ = binary.Write(&b, binary.LittleEndian, uint16(1))
	_ = binary.Write(&b, binary.LittleEndian, uint16(24))
	b.Write(make([]byte, 24))
	b.Write(make([]byte, 16))
	return b.Bytes()
}

func TestUploadRawAndMultipart(t *testing.T) {
	e := newEnv(t)
	r := e.uploadRaw(author, "?title=Hello&alt_text=An+alt&caption=Line&post=12", "My Photo.jpg", "image/jpeg", testJPEG(t, 1200, 900))
	wantStatus(t, r, http.StatusCreated)
	o := r.obj()
	id := r.id()
	if r.Header.Get("X-WP-Upload-Attachment-ID") != fmt.Sprint(id) || !strings.HasSuffix(r.Header.Get("Location"), fmt.Sprintf("/cms-json/cms/v2/media/%d", id)) {
		t.Fatalf("headers: %v", r.Header)
	}
	for k, want := range map[string]any{"alt_text": "An alt", "media_type": "image", "mime_type": "image/jpeg", "status": "inherit",
		"type": "attachment", "slug": "hello", "post": float64(12), "author": float64(3)} {
		if o[k] != want {
			t.Errorf("%s = %v, want %v", k, o[k], want)
		}
	}
	if field(o, "title", "raw") != "Hello" || field(o, "caption", "rendered") != "<p>Line</p>\n" {
		t.Errorf("title/caption: %v %v", o["title"], o["caption"])
	}
	if _, ok := o["missing_image_sizes"]; !ok {
		t.Error("create answers in edit context: missing_image_sizes absent")
	}
	file := field(o, "media_details", "file").(string)
	if !strings.HasSuffix(file, "/My-Photo.jpg") || !strings.HasSuffix(o["source_url"].(string), "/cms-content/uploads/"+file) {
		t.Errorf("file %q source_url %v", file, o["source_url"])
	}

	// Multipart: fields from the form, title from the client's file name.
	r = e.uploadMultipart(author, "Holiday.png", testPNG(t, 400, 320), map[string]string{"alt_text": "beach", "description": "Sun"})
	wantStatus(t, r, http.StatusCreated)
	o = r.obj()
	if field(o, "title", "raw") != "Holiday" || o["alt_text"] != "beach" || field(o, "description", "raw") != "Sun" || o["mime_type"] != "image/png" {
		t.Errorf("multipart: %.400s", r.Raw)
	}
	// Same name again: a new file name and slug.
	r = e.uploadMultipart(author, "Holiday.png", testPNG(t, 400, 320), nil)
	wantStatus(t, r, http.StatusCreated)
	if f := field(r.obj(), "media_details", "file").(string); !strings.HasSuffix(f, "/Holiday-1.png") || r.obj()["slug"] != "holiday-2" {
		t.Errorf("second Holiday.png stored as %s, slug %v", f, r.obj()["slug"])
	}
	// The type comes from the bytes: a PNG named .jpg is stored as .png.
	r = e.uploadRaw(author, "", "liar.jpg", "image/jpeg", testPNG(t, 20, 20))
	wantStatus(t, r, http.StatusCreated)
	if r.obj()["mime_type"] != "image/png" || !strings.HasSuffix(r.obj()["source_url"].(string), "/liar.png") {
		t.Errorf("PNG named .jpg: %v %v", r.obj()["mime_type"], r.obj()["source_url"])
	}
}

func TestUploadFileTypes(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name, mime, ext string
		data            []byte
	}{
		{"notes.txt", "text/plain", "txt", []byte("hello\nworld\n")},
		{"table.csv", "text/csv", "csv", []byte("a,b\n1,2\n")},
		{"doc.pdf", "application/pdf", "pdf", []byte("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")},
		{"song.mp3", "audio/mpeg", "mp3", append([]byte("ID3\x03\x00\x00\x00\x00\x00\x00"), make([]byte, 64)...)},
		{"clip.mp4", "video/mp4", "mp4", append([]byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"), make([]byte, 64)...)},
		{"sound.wav", "audio/wav", "wav", append([]byte("RIFF\x24\x00\x00\x00WAVEfmt "), make([]byte, 64)...)},
	}
	for _, tt := range tests {
		r := e.uploadRaw(author, "", tt.name, "application/octet-stream", tt.data)
		wantStatus(t, r, http.StatusCreated)
		o := r.obj()
		if o["mime_type"] != tt.mime || o["media_type"] != "file" || !strings.HasSuffix(o["source_url"].(string), "."+tt.ext) {
			t.Errorf("%s: mime %v media_type %v url %v", tt.name, o["mime_type"], o["media_type"], o["source_url"])
		}
		if md, _ := o["media_details"].(map[string]any); md["filesize"] != float64(len(tt.data)) || md["sizes"] == nil {
			t.Errorf("%s: media_details %v", tt.name, md)
		}
	}
	// media_type filters by the top-level type, mime_type by the full one.
	for q, want := range map[string]int{"media_type=audio": 2, "media_type=text": 2, "mime_type=application/pdf": 1,
		"media_type=video&mime_type=text/csv": 2, "mime_type=bogus/type": 0} {
		r := e.json(anon, "GET", "/cms/v2/media?"+q, nil)
		wantStatus(t, r, http.StatusOK)
		if len(r.list()) != want {
			t.Errorf("%s: %d items, want %d", q, len(r.list()), want)
		}
	}
}

// sizesOf returns the names and dimensions of an attachment's sizes.
func sizesOf(o map[string]any) map[string][2]int {
	out := map[string][2]int{}
	sizes, _ := field(o, "media_details", "sizes").(map[string]any)
	for name, v := range sizes {
		out[name] = [2]int{num(field(v, "width")), num(field(v, "height"))}
	}
	return out
}

func TestSizesPerFormat(t *testing.T) {
	e := newEnv(t)
	webp, err := os.ReadFile("testdata/quad-400x320.webp")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, ctype string
		data        []byte
		sizeMime    string
		want        map[string][2]int
	}{
		{"big.jpg", "image/jpeg", testJPEG(t, 2400, 1600), "image/jpeg", map[string][2]int{"thumbnail": {150, 150}, "medium": {300, 200},
			"medium_large": {768, 512}, "large": {1024, 683}, "1536x1536": {1536, 1024}, "2048x2048": {2048, 1365}, "full": {2400, 1600}}},
		{"quad.png", "image/png", testPNG(t, 400, 320), "image/png", map[string][2]int{"thumbnail": {150, 150}, "medium": {300, 240}, "full": {400, 320}}},
		{"quad.gif", "image/gif", testGIF(t, 400, 320), "image/gif", map[string][2]int{"thumbnail": {150, 150}, "medium": {300, 240}, "full": {400, 320}}},
		{"quad.webp", "image/webp", webp, "image/jpeg", map[string][2]int{"thumbnail": {150, 150}, "medium": {300, 240}, "full": {400, 320}}},
		{"tall.png", "image/png", testPNG(t, 100, 800), "image/png", map[string][2]int{"thumbnail": {100, 150}, "medium": {38, 300},
			"large": {0, 0}, "medium_large": {0, 0}, "full": {100, 800}}},
		{"small.png", "image/png", testPNG(t, 120, 90), "", map[string][2]int{"full": {120, 90}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.uploadRaw(author, "", tt.name, tt.ctype, tt.data)
			wantStatus(t, r, http.StatusCreated)
			got := sizesOf(r.obj())
			for name, dims := range tt.want {
				if dims == [2]int{0, 0} {
					if _, ok := got[name]; ok {
						t.Errorf("size %s generated, want none", name)
					}
					delete(tt.want, name)
				}
			}
			if len(got) != len(tt.want) {
				t.Errorf("sizes %v, want %v", got, tt.want)
			}
			for name, dims := range tt.want {
				if got[name] != dims {
					t.Errorf("size %s = %v, want %v", name, got[name], dims)
				}
				if name == "full" {
					continue
				}
				sz := field(r.obj(), "media_details", "sizes", name).(map[string]any)
				if sz["mime_type"] != tt.sizeMime {
					t.Errorf("size %s mime %v, want %s", name, sz["mime_type"], tt.sizeMime)
				}
				// The served file is that size.
				url := sz["source_url"].(string)
				f := e.request(anon, "GET", uploadPath(t, url), nil, nil)
				wantStatus(t, f, http.StatusOK)
				cfg, _, err := image.DecodeConfig(bytes.NewReader(f.Raw))
				if err != nil || cfg.Width != dims[0] || cfg.Height != dims[1] {
					t.Errorf("served %s: %dx%d %v, want %v", name, cfg.Width, cfg.Height, err, dims)
				}
				if f.Header.Get("Content-Type") != tt.sizeMime || num(sz["filesize"]) != len(f.Raw) {
					t.Errorf("served %s: type %s, %d bytes (filesize %v)", name, f.Header.Get("Content-Type"), len(f.Raw), sz["filesize"])
				}
			}
			if m := r.obj()["missing_image_sizes"].([]any); len(m) != 0 {
				t.Errorf("missing_image_sizes %v", m)
			}
		})
	}
}

// withOrientation inserts an EXIF block with the orientation (and a camera
// model) after a JPEG's SOI marker.
func withOrientation(jpg []byte, orientation uint16) []byte {
	var tiff bytes.Buffer
	tiff.WriteString("II*\x00")
	_ = binary.Write(&tiff, binary.LittleEndian, uint32(8))
	_ = binary.Write(&tiff, binary.LittleEndian, uint16(3)) // three entries
	// Orientation, SHORT
	_ = binary.Write(&tiff, binary.LittleEndian, []uint16{0x0112, 3})
	_ = binary.Write(&tiff, binary.LittleEndian, uint32(1))
	_ = binary.Write(&tiff, binary.LittleEndian, []uint16{orientation, 0})
	// Model and ImageDescription, ASCII, stored after the IFD
	model, desc := "TestCam\x00", "Harbour at dawn\x00"
	_ = binary.Write(&tiff, binary.LittleEndian, []uint16{0x0110, 2})
	_ = binary.Write(&tiff, binary.LittleEndian, uint32(len(model)))
	_ = binary.Write(&tiff, binary.LittleEndian, uint32(8+2+3*12+4))
	_ = binary.Write(&tiff, binary.LittleEndian, []uint16{0x010E, 2})
	_ = binary.Write(&tiff, binary.LittleEndian, uint32(len(desc)))
	_ = binary.Write(&tiff, binary.LittleEndian, uint32(8+2+3*12+4+len(model)))
	_ = binary.Write(&tiff, binary.LittleEndian, uint32(0)) // no next IFD
	tiff.WriteString(model)
	tiff.WriteString(desc)
	seg := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	var out bytes.Buffer
	out.Write(jpg[:2])
	out.Write([]byte{0xFF, 0xE1})
	_ = binary.Write(&out, binary.BigEndian, uint16(len(seg)+2))
	out.Write(seg)
	out.Write(jpg[2:])
	return out.Bytes()
}

func TestEXIFOrientation(t *testing.T) {
	e := newEnv(t)
	// Stored 800×400 (red top-left, blue bottom-left); orientation 6 means
	// "rotate 90° clockwise to display": upright it is 400×800 with blue
	// at the top left.
	r := e.uploadRaw(author, "", "turned.jpg", "image/jpeg", withOrientation(testJPEG(t, 800, 400), 6))
	wantStatus(t, r, http.StatusCreated)
	o := r.obj()
	if num(field(o, "media_details", "width")) != 400 || num(field(o, "media_details", "height")) != 800 {
		t.Fatalf("dimensions %v x %v, want 400 x 800", field(o, "media_details", "width"), field(o, "media_details", "height"))
	}
	if field(o, "media_details", "image_meta", "orientation") != "6" || field(o, "media_details", "image_meta", "camera") != "TestCam" {
		t.Errorf("image_meta %v", field(o, "media_details", "image_meta"))
	}
	// A short description is the default title and the caption (wp_read_image_metadata).
	if field(o, "title", "raw") != "Harbour at dawn" || field(o, "caption", "raw") != "Harbour at dawn" ||
		field(o, "media_details", "image_meta", "title") != "Harbour at dawn" {
		t.Errorf("title %v caption %v", o["title"], o["caption"])
	}
	medium := field(o, "media_details", "sizes", "medium").(map[string]any)
	if num(medium["width"]) != 150 || num(medium["height"]) != 300 {
		t.Fatalf("medium %v", medium)
	}
	url := medium["source_url"].(string)
	f := e.request(anon, "GET", uploadPath(t, url), nil, nil)
	if c := colorAt(t, f.Raw, 10, 10); c != "blue" {
		t.Errorf("upright medium top-left is %s, want blue", c)
	}
	if c := colorAt(t, f.Raw, 140, 10); c != "red" {
		t.Errorf("upright medium top-right is %s, want red", c)
	}
}

func TestPostProcess(t *testing.T) {
	e := newEnv(t)
	o := e.upload(author, 800, 600)
	id := int64(o["id"].(float64))
	// Lose the medium size (as an interrupted upload would).
	e.dropSize(id, "medium")
	r := e.json(author, "GET", fmt.Sprintf("/cms/v2/media/%d?context=edit", id), nil)
	if m := r.obj()["missing_image_sizes"].([]any); len(m) != 1 || m[0] != "medium" {
		t.Fatalf("missing_image_sizes %v", m)
	}
	wantError(t, e.json(author, "POST", fmt.Sprintf("/cms/v2/media/%d/post-process", id), map[string]any{}), 400, "rest_missing_callback_param", "")
	wantError(t, e.json(author, "POST", fmt.Sprintf("/cms/v2/media/%d/post-process", id), map[string]any{"action": "other"}), 400, "rest_invalid_param", "")
	wantError(t, e.json(author2, "POST", fmt.Sprintf("/cms/v2/media/%d/post-process", id), map[string]any{"action": "create-image-subsizes"}), 403, "rest_cannot_edit", "")
	r = e.json(author, "POST", fmt.Sprintf("/cms/v2/media/%d/post-process", id), map[string]any{"action": "create-image-subsizes"})
	wantStatus(t, r, http.StatusOK)
	if m := r.obj()["missing_image_sizes"].([]any); len(m) != 0 || sizesOf(r.obj())["medium"] != [2]int{300, 225} {
		t.Fatalf("after post-process: missing %v sizes %v", m, sizesOf(r.obj()))
	}
	url := field(r.obj(), "media_details", "sizes", "medium", "source_url").(string)
	wantStatus(t, e.request(anon, "GET", uploadPath(t, url), nil, nil), http.StatusOK)
}

// dropSize removes a size from an attachment's metadata and its file.
func (e *testEnv) dropSize(id int64, name string) {
	e.t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, e.dsn)
	if err != nil {
		e.t.Fatal(err)
	}
	defer conn.Close(ctx)
	var file, dir string
	err = conn.QueryRow(ctx, `SELECT details->'sizes'->$2->>'file', regexp_replace(file, '/[^/]*$', '') FROM media.attachments WHERE id=$1`, id, name).Scan(&file, &dir)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `UPDATE media.attachments SET details = details #- ARRAY['sizes', $2] WHERE id=$1`, id, name); err != nil {
		e.t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `DELETE FROM media.files WHERE key = $1`, dir+"/"+file); err != nil {
		e.t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(e.dir, dir, file)); err != nil {
		e.t.Fatal(err)
	}
}
