package media

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/service/servicetest"
	"siteplane.dev/services/pkg/contract"
)

// The callers of the tests, one per role, and a second author.
const (
	anon        = "anonymous"
	admin       = "administrator"
	editor      = "editor"
	author      = "author"
	author2     = "author2"
	contributor = "contributor"
	subscriber  = "subscriber"
)

var callers = map[string]identity.Identity{
	anon:        {},
	admin:       {UserID: 1, Role: identity.Administrator},
	editor:      {UserID: 2, Role: identity.Editor},
	author:      {UserID: 3, Role: identity.Author},
	contributor: {UserID: 4, Role: identity.Contributor},
	subscriber:  {UserID: 5, Role: identity.Subscriber},
	author2:     {UserID: 6, Role: identity.Author},
}

const testKey = "media-test-key"

type testEnv struct {
	t    testing.TB
	base string // the service's URL
	dir  string // the blob directory
	dsn  string // the database
}

// newEnv starts the media service as its main does (service.Run with
// Register) on a fresh database and blob directory, with extra settings.
func newEnv(t testing.TB, extra ...string) *testEnv {
	t.Helper()
	dir := t.TempDir()
	dsn := pgtest.NewDatabase(t)
	env := map[string]string{
		contract.EnvDatabaseURL: dsn,
		contract.EnvInternalKey: testKey,
		contract.EnvMediaDir:    dir,
		contract.EnvLogLevel:    "error",
	}
	for i := 0; i+1 < len(extra); i += 2 {
		env[extra[i]] = extra[i+1]
	}
	base := servicetest.Start(t, Options(), env, Register)
	return &testEnv{t: t, base: base, dir: dir, dsn: dsn}
}

type resp struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   any
}

func (r *resp) obj() map[string]any { m, _ := r.Body.(map[string]any); return m }

func (r *resp) list() []map[string]any {
	l, _ := r.Body.([]any)
	out := make([]map[string]any, len(l))
	for i, e := range l {
		out[i], _ = e.(map[string]any)
	}
	return out
}

func (r *resp) id() int64 { v, _ := r.obj()["id"].(float64); return int64(v) }

// request sends method path as who with the body and headers given.
func (e *testEnv) request(who, method, path string, body io.Reader, header http.Header) *resp {
	e.t.Helper()
	req, err := http.NewRequest(method, e.base+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if id := callers[who]; id.LoggedIn() {
		req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey([]byte(testKey)), contract.ServiceMedia, id, time.Now().Add(time.Minute)))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	r := &resp{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") && len(raw) > 0 {
		if err := json.Unmarshal(raw, &r.Body); err != nil {
			e.t.Fatalf("%s %s: body is not JSON: %s", method, path, raw)
		}
	}
	return r
}

// json sends a JSON body (nil: none).
func (e *testEnv) json(who, method, path string, body any) *resp {
	e.t.Helper()
	if body == nil {
		return e.request(who, method, path, nil, nil)
	}
	data, err := json.Marshal(body)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.request(who, method, path, bytes.NewReader(data), http.Header{"Content-Type": {"application/json"}})
}

// uploadRaw posts data as a raw body with a file name and type.
func (e *testEnv) uploadRaw(who, query, name, ctype string, data []byte) *resp {
	e.t.Helper()
	h := http.Header{}
	if ctype != "" {
		h.Set("Content-Type", ctype)
	}
	if name != "" {
		h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	}
	return e.request(who, "POST", "/cms/v2/media"+query, bytes.NewReader(data), h)
}

// uploadMultipart posts data as the "file" part, with form fields.
func (e *testEnv) uploadMultipart(who, name string, data []byte, fields map[string]string) *resp {
	e.t.Helper()
	var buf bytes.Buffer
	ct := newMultipart(&buf, name, data, fields)
	return e.request(who, "POST", "/cms/v2/media", &buf, http.Header{"Content-Type": {ct}})
}

// newMultipart writes a form with fields and, when data is not nil, the
// "file" part; it returns the Content-Type.
func newMultipart(buf *bytes.Buffer, name string, data []byte, fields ...map[string]string) string {
	mw := multipart.NewWriter(buf)
	for _, f := range fields {
		for k, v := range f {
			_ = mw.WriteField(k, v)
		}
	}
	if data != nil {
		fw, _ := mw.CreateFormFile("file", name)
		_, _ = fw.Write(data)
	}
	mw.Close()
	return mw.FormDataContentType()
}

// upload stores a JPEG of w×h as admin and returns the attachment.
func (e *testEnv) upload(who string, w, h int) map[string]any {
	e.t.Helper()
	r := e.uploadRaw(who, "", "photo.jpg", "image/jpeg", testJPEG(e.t, w, h))
	wantStatus(e.t, r, http.StatusCreated)
	return r.obj()
}

// files lists every regular file under the blob directory, relative.
func (e *testEnv) files() []string {
	var out []string
	_ = filepath.WalkDir(e.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(e.dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func wantError(t testing.TB, r *resp, status int, code, message string) {
	t.Helper()
	o := r.obj()
	if r.Status != status || o["code"] != code || (message != "" && o["message"] != message) {
		t.Fatalf("want %d %s %q, got %d %s", status, code, message, r.Status, r.Raw)
	}
	if data, _ := o["data"].(map[string]any); data == nil || data["status"] != float64(status) {
		t.Fatalf("error data.status: %s", r.Raw)
	}
}

func wantStatus(t testing.TB, r *resp, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("want status %d, got %d: %.600s", status, r.Status, r.Raw)
	}
}

func field(m any, path ...string) any {
	cur := m
	for _, p := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[p]
	}
	return cur
}

func num(v any) int { f, _ := v.(float64); return int(f) }

// gradient is a test picture whose corners differ, so orientation and
// flips can be checked: red top-left, green top-right, blue bottom-left.
func gradient(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{A: 255}
			switch {
			case x < w/2 && y < h/2:
				c.R = 255
			case x >= w/2 && y < h/2:
				c.G = 255
			case x < w/2:
				c.B = 255
			default:
				c.R, c.G, c.B = 255, 255, 255
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

func testJPEG(t testing.TB, w, h int) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, gradient(w, h), &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func testPNG(t testing.TB, w, h int) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, gradient(w, h)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func testGIF(t testing.TB, w, h int) []byte {
	var buf bytes.Buffer
	if err := gif.Encode(&buf, gradient(w, h), nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// colorAt decodes an image file and returns the colour at (x, y), rounded
// to the nearest primary (JPEG is lossy).
func colorAt(t testing.TB, data []byte, x, y int) string {
	t.Helper()
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	r, g, b, _ := img.At(img.Bounds().Min.X+x, img.Bounds().Min.Y+y).RGBA()
	bit := func(v uint32) string {
		if v > 0x8000 {
			return "1"
		}
		return "0"
	}
	switch bit(r) + bit(g) + bit(b) {
	case "100":
		return "red"
	case "010":
		return "green"
	case "001":
		return "blue"
	case "111":
		return "white"
	}
	return "other"
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// uploadPath is the service path of a served file URL.
func uploadPath(t testing.TB, url string) string {
	t.Helper()
	_, key, ok := strings.Cut(url, UploadsPath)
	if !ok {
		t.Fatalf("not an upload URL: %s", url)
	}
	return UploadsPath + key
}
