package stack

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

// uploadJPEG uploads a sample JPEG of w×h as the administrator.
func uploadJPEG(t *testing.T, name string, w, h int) *Response {
	t.Helper()
	r := send(t, "POST", "/cms-json/cms/v2/media", sampleJPEG(t, w, h), http.Header{
		"Content-Type": {"image/jpeg"}, "Content-Disposition": {`attachment; filename="` + name + `"`}}, admin()...)
	if r.Status != 201 {
		t.Fatalf("upload: %d %.300s", r.Status, r.Raw)
	}
	return r
}

func sampleJPEG(t *testing.T, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{R: uint8(x), G: uint8(y), B: 128, A: 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// uploadPath is the gateway path of a served file URL.
func uploadPath(t *testing.T, url string) string {
	t.Helper()
	i := strings.Index(url, "/cms-content/uploads/")
	if i < 0 || !strings.HasPrefix(url, st.SiteURL) {
		t.Fatalf("not an upload URL of the site: %s", url)
	}
	return url[i:]
}

func TestMediaUploadThroughGateway(t *testing.T) {
	needs(t, contract.ServiceMedia)
	jpg := sampleJPEG(t, 640, 480)
	r := send(t, "POST", "/cms-json/cms/v2/media?title=Stack+photo", jpg, http.Header{
		"Content-Type": {"image/jpeg"}, "Content-Disposition": {`attachment; filename="stack photo.jpg"`}}, admin()...)
	if r.Status != 201 || r.Header.Get("X-WP-Upload-Attachment-ID") == "" {
		t.Fatalf("raw upload: %d %.400s", r.Status, r.Raw)
	}
	o := r.Obj()
	if r.Header.Get("Location") != fmt.Sprintf("%s/cms-json/cms/v2/media/%v", st.SiteURL, o["id"]) {
		t.Errorf("Location %q", r.Header.Get("Location"))
	}
	sizes, _ := o["media_details"].(map[string]any)["sizes"].(map[string]any)
	for _, name := range []string{"thumbnail", "medium", "full"} {
		if sizes[name] == nil {
			t.Errorf("size %s missing: %v", name, sizes)
		}
	}
	// The file is served by the gateway, with Range.
	path := uploadPath(t, o["source_url"].(string))
	f := send(t, "GET", path, nil, nil)
	if f.Status != 200 || !bytes.Equal(f.Raw, jpg) || f.Header.Get("Content-Type") != "image/jpeg" ||
		f.Header.Get("X-Content-Type-Options") != "nosniff" || f.Header.Get("ETag") == "" || f.Header.Get("Last-Modified") == "" ||
		!strings.Contains(f.Header.Get("Cache-Control"), "max-age=") {
		t.Fatalf("served file: %d %v (%d bytes)", f.Status, f.Header, len(f.Raw))
	}
	rg := send(t, "GET", path, nil, http.Header{"Range": {"bytes=0-9"}})
	if rg.Status != 206 || !bytes.Equal(rg.Raw, jpg[:10]) {
		t.Fatalf("range: %d %d bytes", rg.Status, len(rg.Raw))
	}
	thumb := uploadPath(t, sizes["thumbnail"].(map[string]any)["source_url"].(string))
	if f := send(t, "GET", thumb, nil, nil); f.Status != 200 {
		t.Fatalf("thumbnail: %d", f.Status)
	}
	// Traversal through the gateway never leaves the uploads root.
	for _, p := range []string{"/cms-content/uploads/../../etc/passwd", "/cms-content/uploads/..%2f..%2fetc%2fpasswd",
		"/cms-content/uploads/%2e%2e/%2e%2e/etc/passwd", "/cms-content/uploads/2026/../../routes.json"} {
		req, _ := http.NewRequest("GET", st.Gateway+"/", nil)
		req.URL.Opaque = p
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 404 || bytes.Contains(body, []byte("root:")) {
			t.Errorf("GET %s: %d %.100s", p, res.StatusCode, body)
		}
	}

	// Multipart with fields.
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("alt_text", "from a form")
	fw, _ := mw.CreateFormFile("file", "form.jpg")
	_, _ = fw.Write(jpg)
	mw.Close()
	r = send(t, "POST", "/cms-json/cms/v2/media", buf.Bytes(), http.Header{"Content-Type": {mw.FormDataContentType()}}, admin()...)
	if r.Status != 201 || r.Obj()["alt_text"] != "from a form" || r.Obj()["title"].(map[string]any)["raw"] != "form" {
		t.Fatalf("multipart upload: %d %.400s", r.Status, r.Raw)
	}
	// Errors keep WordPress's codes through the gateway.
	expectError(t, send(t, "POST", "/cms-json/cms/v2/media", jpg, http.Header{"Content-Type": {"image/jpeg"}}, admin()...),
		400, "rest_upload_no_content_disposition")
	expectError(t, send(t, "POST", "/cms-json/cms/v2/media", jpg, http.Header{"Content-Type": {"image/jpeg"},
		"Content-Disposition": {`attachment; filename="a.jpg"`}}), 401, "rest_cannot_create")
	// Listed, with the collection's headers.
	l := call(t, "GET", "/cms-json/cms/v2/media?media_type=image&per_page=1", nil)
	if l.Status != 200 || l.Header.Get("X-WP-Total") == "" {
		t.Fatalf("list: %d %v", l.Status, l.Header)
	}
	// Deleted with force: the file is gone.
	id := o["id"]
	expectError(t, call(t, "DELETE", fmt.Sprintf("/cms-json/cms/v2/media/%v", id), nil, admin()...), 501, "rest_trash_not_supported")
	if d := call(t, "DELETE", fmt.Sprintf("/cms-json/cms/v2/media/%v?force=true", id), nil, admin()...); d.Status != 200 {
		t.Fatalf("delete: %d %.300s", d.Status, d.Raw)
	}
	if f := send(t, "GET", path, nil, nil); f.Status != 404 {
		t.Fatalf("deleted file still served: %d", f.Status)
	}
}

// No media route is batchable, as in WordPress 6.9.7 (its attachments
// controller sets allow_batch false): each media sub-request answers 400
// rest_batch_not_allowed with WordPress's message, the other requests of a
// normal batch still run, and a require-all-validate batch runs nothing.
func TestMediaNotBatchable(t *testing.T) {
	needs(t, contract.ServiceMedia, contract.ServiceContent)
	item := fmt.Sprintf("/cms/v2/media/%v", uploadJPEG(t, "batch.jpg", 64, 64).Obj()["id"])
	idx := call(t, "GET", "/cms-json/", nil)
	for _, pattern := range []string{`/cms/v2/media`, `/cms/v2/media/(?P<id>[\d]+)`} {
		route, _ := idx.Obj()["routes"].(map[string]any)[pattern].(map[string]any)
		if route == nil || strings.Contains(fmt.Sprint(route["endpoints"]), "allow_batch") {
			t.Fatalf("%s in the index: %v", pattern, route)
		}
	}
	media := []any{
		map[string]any{"path": item, "body": map[string]any{"alt_text": "from a batch"}},
		map[string]any{"method": "DELETE", "path": item + "?force=true"},
		map[string]any{"path": "/cms/v2/media"},
	}
	cases := []struct {
		mode   string
		failed any // the batch's "failed" member
		post   any // the post create's status; nil: not run
	}{
		{"normal", nil, float64(201)},
		{"require-all-validate", "validation", nil},
	}
	for _, c := range cases {
		slug := "media-batch-" + c.mode
		r := call(t, "POST", "/cms-json/batch/v1", map[string]any{"validation": c.mode, "requests": append(append([]any{}, media...),
			map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"slug": slug}})}, admin()...)
		rs, _ := r.Obj()["responses"].([]any)
		if r.Status != 207 || len(rs) != 4 || r.Obj()["failed"] != c.failed {
			t.Fatalf("%s: %d %.400s", c.mode, r.Status, r.Raw)
		}
		for i := range media {
			x, _ := rs[i].(map[string]any)
			body, _ := x["body"].(map[string]any)
			if x["status"] != float64(400) || body["code"] != "rest_batch_not_allowed" || body["message"] != "The requested route does not support batch requests." {
				t.Errorf("%s: media request %d: %.300v", c.mode, i, x)
			}
		}
		var post any
		if x, ok := rs[3].(map[string]any); ok {
			post = x["status"]
		}
		if post != c.post {
			t.Errorf("%s: post create %v, want %v", c.mode, post, c.post)
		}
	}
	if g := call(t, "GET", "/cms-json"+item+"?context=edit", nil, admin()...); g.Status != 200 || g.Obj()["alt_text"] == "from a batch" {
		t.Fatalf("a refused batch request ran: %d %.300s", g.Status, g.Raw)
	}
}

func TestMediaFeaturedOnPosts(t *testing.T) {
	needs(t, contract.ServiceMedia, contract.ServiceContent)
	m := uploadJPEG(t, "featured.jpg", 400, 300)
	mid := m.Obj()["id"]
	p := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "With image", "status": "publish", "featured_media": mid}, admin()...)
	if p.Status != 201 {
		t.Fatalf("post: %d %.300s", p.Status, p.Raw)
	}
	pid := p.Obj()["id"]
	if p.Obj()["featured_media"] != mid {
		t.Fatalf("featured_media %v, want %v", p.Obj()["featured_media"], mid)
	}
	// An id that is no attachment is dropped, as WordPress does (201, featured_media 0).
	bad := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "Bad image", "featured_media": 99999999}, admin()...)
	if bad.Status != 201 || bad.Obj()["featured_media"] != float64(0) {
		t.Fatalf("unknown featured_media: %d %.300s", bad.Status, bad.Raw)
	}
	// attach the image to the post, then follow the post's links
	if u := call(t, "POST", fmt.Sprintf("/cms-json/cms/v2/media/%v", mid), map[string]any{"post": pid}, admin()...); u.Status != 200 {
		t.Fatalf("attach: %d %.300s", u.Status, u.Raw)
	}
	r := call(t, "GET", fmt.Sprintf("/cms-json/cms/v2/posts/%v?_embed=wp:featuredmedia", pid), nil)
	emb, _ := r.Obj()["_embedded"].(map[string]any)
	list, _ := emb["wp:featuredmedia"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["id"] != mid || list[0].(map[string]any)["source_url"] == nil {
		t.Fatalf("embedded featured media: %.600s", r.Raw)
	}
	links, _ := r.Obj()["_links"].(map[string]any)
	att, _ := links["wp:attachment"].([]any)
	if len(att) != 1 {
		t.Fatalf("wp:attachment link: %v", links)
	}
	href := att[0].(map[string]any)["href"].(string)
	a := call(t, "GET", strings.TrimPrefix(href, st.SiteURL), nil)
	items, _ := a.JSON.([]any)
	if a.Status != 200 || len(items) != 1 || items[0].(map[string]any)["id"] != mid {
		t.Fatalf("wp:attachment collection %s: %d %.300s", href, a.Status, a.Raw)
	}
	// The website shows the featured image on the post's page.
	src := m.Obj()["source_url"].(string)
	pg := page(t, "GET", p.Obj()["link"].(string))
	if pg.Status != 200 || !strings.Contains(string(pg.Raw), `<img src="`+src+`"`) {
		t.Fatalf("post page without its featured image %s: %d", src, pg.Status)
	}
}
