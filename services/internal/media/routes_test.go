package media

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCollection(t *testing.T) {
	e := newEnv(t)
	a := e.upload(author, 200, 100)
	b := e.uploadRaw(author2, "?post=7&title=Sunset", "sunset.png", "image/png", testPNG(t, 30, 30)).obj()
	c := e.uploadRaw(editor, "?status=private&post=7", "secret.txt", "text/plain", []byte("private notes")).obj()
	ids := func(r *resp) []int {
		t.Helper()
		wantStatus(t, r, http.StatusOK)
		var out []int
		for _, o := range r.list() {
			out = append(out, num(o["id"]))
		}
		return out
	}
	idA, idB, idC := num(a["id"]), num(b["id"]), num(c["id"])
	tests := []struct {
		who, query string
		want       []int
	}{
		{anon, "", []int{idB, idA}}, // status defaults to inherit, newest first
		{anon, "?order=asc&orderby=id", []int{idA, idB}},
		{admin, "?status=private", []int{idC}},
		{admin, "?status=inherit,private&orderby=id", []int{idC, idB, idA}},
		{anon, "?parent=7", []int{idB}},
		{anon, "?parent_exclude=7", []int{idA}},
		{anon, "?search=sunset", []int{idB}},
		{anon, "?author=6", []int{idB}},
		{anon, "?author_exclude=6", []int{idA}},
		{anon, fmt.Sprintf("?include=%d,%d&orderby=include", idA, idB), []int{idA, idB}},
		{anon, fmt.Sprintf("?exclude=%d", idA), []int{idB}},
		{anon, "?slug=sunset", []int{idB}},
		{anon, "?media_type=image&per_page=1", []int{idB}},
		{anon, "?media_type=image&per_page=1&page=2", []int{idA}},
		{anon, "?offset=1", []int{idA}},
		{anon, "?orderby=title&order=asc", []int{idA, idB}},
		{anon, "?after=2000-01-01T00:00:00&before=2999-01-01T00:00:00&orderby=id&order=asc", []int{idA, idB}},
		{anon, "?modified_after=2999-01-01T00:00:00", nil},
		{anon, "?search=photo&search_columns=post_title", []int{idA}},
		{anon, "?search=photo&search_semantics=exact", []int{idA}},
		{author, "?status=private", []int{}}, // private of others: dropped from the page
	}
	for _, tt := range tests {
		t.Run(tt.who+tt.query, func(t *testing.T) {
			got := ids(e.json(tt.who, "GET", "/cms/v2/media"+tt.query, nil))
			if fmt.Sprint(got) != fmt.Sprint(tt.want) && (len(got) != 0 || len(tt.want) != 0) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
	r := e.json(anon, "GET", "/cms/v2/media?per_page=1", nil)
	if r.Header.Get("X-WP-Total") != "2" || r.Header.Get("X-WP-TotalPages") != "2" || !strings.Contains(r.Header.Get("Link"), `rel="next"`) {
		t.Errorf("pagination headers: %v", r.Header)
	}
	wantError(t, e.json(anon, "GET", "/cms/v2/media?status=private", nil), 400, "rest_invalid_param", "")
	wantError(t, e.json(subscriber, "GET", "/cms/v2/media?status=private", nil), 400, "rest_invalid_param", "")
	wantError(t, e.json(anon, "GET", "/cms/v2/media?page=5", nil), 400, "rest_post_invalid_page_number", "")
	wantError(t, e.json(anon, "GET", "/cms/v2/media?orderby=relevance", nil), 400, "rest_no_search_term_defined", "")
	wantError(t, e.json(anon, "GET", "/cms/v2/media?orderby=include", nil), 400, "rest_orderby_include_missing_include", "")
	wantError(t, e.json(anon, "GET", "/cms/v2/media?media_type=font", nil), 400, "rest_invalid_param", "")
	wantError(t, e.json(anon, "GET", "/cms/v2/media?context=edit", nil), 401, "rest_forbidden_context", "")
	wantError(t, e.json(anon, "GET", "/cms/v2/media?per_page=101", nil), 400, "rest_invalid_param", "")

	// Items: a private attachment is for its author and editors only.
	wantStatus(t, e.json(anon, "GET", fmt.Sprintf("/cms/v2/media/%d", idA), nil), http.StatusOK)
	wantError(t, e.json(anon, "GET", fmt.Sprintf("/cms/v2/media/%d", idC), nil), 401, "rest_forbidden", "")
	wantError(t, e.json(author, "GET", fmt.Sprintf("/cms/v2/media/%d", idC), nil), 403, "rest_forbidden", "")
	wantStatus(t, e.json(editor, "GET", fmt.Sprintf("/cms/v2/media/%d?context=edit", idC), nil), http.StatusOK)
	wantError(t, e.json(author2, "GET", fmt.Sprintf("/cms/v2/media/%d?context=edit", idA), nil), 403, "rest_forbidden_context", "")
	wantError(t, e.json(anon, "GET", "/cms/v2/media/999999", nil), 404, "rest_post_invalid_id", "Invalid post ID.")
	// embed context keeps the embed fields only
	r = e.json(anon, "GET", fmt.Sprintf("/cms/v2/media/%d?context=embed", idB), nil)
	if _, ok := r.obj()["description"]; ok || r.obj()["source_url"] == nil || r.obj()["media_details"] == nil {
		t.Errorf("embed context: %.300s", r.Raw)
	}
	// the parent link
	r = e.json(anon, "GET", fmt.Sprintf("/cms/v2/media/%d", idB), nil)
	if l := field(r.obj(), "_links", "wp:attached-to"); l == nil {
		t.Errorf("no wp:attached-to link: %.600s", r.Raw)
	}
}

func TestUpdate(t *testing.T) {
	e := newEnv(t)
	id := num(e.upload(author, 200, 100)["id"])
	path := fmt.Sprintf("/cms/v2/media/%d", id)
	r := e.json(author, "POST", path, map[string]any{"title": "New title", "caption": map[string]any{"raw": "Cap"},
		"description": "Desc", "alt_text": " Alt ", "post": 42, "status": "private", "slug": "My Slug",
		"comment_status": "closed", "date": "2024-05-06T07:08:09"})
	wantStatus(t, r, http.StatusOK)
	o := r.obj()
	for k, want := range map[string]any{"alt_text": "Alt", "post": float64(42), "status": "private", "slug": "my-slug",
		"comment_status": "closed", "date": "2024-05-06T07:08:09"} {
		if o[k] != want {
			t.Errorf("%s = %v, want %v", k, o[k], want)
		}
	}
	if field(o, "title", "raw") != "New title" || field(o, "caption", "raw") != "Cap" || field(o, "description", "raw") != "Desc" {
		t.Errorf("text fields: %.400s", r.Raw)
	}
	// PUT and PATCH too; back to inherit by any public status
	r = e.json(author, "PATCH", path, map[string]any{"status": "publish", "post": 0})
	if r.obj()["status"] != "inherit" || r.obj()["post"] != nil {
		t.Errorf("status/post after PATCH: %v %v", r.obj()["status"], r.obj()["post"])
	}
	wantStatus(t, e.json(author, "PUT", path, map[string]any{"alt_text": "x"}), http.StatusOK)
	wantError(t, e.json(author, "POST", path, map[string]any{"status": "inherit"}), 400, "rest_invalid_param", "")
	wantError(t, e.json(author, "POST", path, map[string]any{"post": "abc"}), 400, "rest_invalid_param", "")
	wantError(t, e.json(author, "POST", path, map[string]any{"date": "yesterday"}), 400, "rest_invalid_param", "")
	wantError(t, e.json(author2, "POST", path, map[string]any{"title": "x"}), 403, "rest_cannot_edit", "")
	wantError(t, e.json(anon, "POST", path, map[string]any{"title": "x"}), 401, "rest_cannot_edit", "")
	wantStatus(t, e.json(editor, "POST", path, map[string]any{"title": "by editor"}), http.StatusOK)
	wantError(t, e.json(author, "POST", "/cms/v2/media/999999", map[string]any{"title": "x"}), 404, "rest_post_invalid_id", "")
	// read-only fields are ignored
	r = e.json(author, "POST", path, map[string]any{"source_url": "http://evil.test/x.jpg", "mime_type": "text/html"})
	if r.obj()["mime_type"] != "image/jpeg" {
		t.Errorf("mime_type changed: %v", r.obj()["mime_type"])
	}
}

func TestDelete(t *testing.T) {
	e := newEnv(t)
	o := e.upload(author, 800, 600)
	id := num(o["id"])
	path := fmt.Sprintf("/cms/v2/media/%d", id)
	if n := len(e.files()); n != 4 { // the original, thumbnail, medium and medium_large
		t.Fatalf("%d files before delete: %v", n, e.files())
	}
	wantError(t, e.json(author, "DELETE", path, nil), 501, "rest_trash_not_supported", "The post does not support trashing. Set 'force=true' to delete.")
	wantError(t, e.json(author2, "DELETE", path+"?force=true", nil), 403, "rest_cannot_delete", "")
	wantError(t, e.json(anon, "DELETE", path+"?force=true", nil), 401, "rest_cannot_delete", "")
	if n := len(e.files()); n != 4 {
		t.Fatalf("a refused delete removed files: %v", e.files())
	}
	r := e.json(author, "DELETE", path+"?force=true", nil)
	wantStatus(t, r, http.StatusOK)
	if r.obj()["deleted"] != true || field(r.obj(), "previous", "id") != float64(id) {
		t.Fatalf("delete answer: %.300s", r.Raw)
	}
	if f := e.files(); len(f) != 0 {
		t.Fatalf("files left after delete: %v", f)
	}
	wantError(t, e.json(anon, "GET", path, nil), 404, "rest_post_invalid_id", "")
	wantError(t, e.json(author, "DELETE", path+"?force=true", nil), 404, "rest_post_invalid_id", "")
	// The name is free again.
	r = e.uploadRaw(author, "", "photo.jpg", "image/jpeg", testJPEG(t, 10, 10))
	if !strings.HasSuffix(r.obj()["source_url"].(string), "/photo.jpg") {
		t.Errorf("name not reused: %v", r.obj()["source_url"])
	}
}

func TestServedFiles(t *testing.T) {
	e := newEnv(t)
	o := e.upload(editor, 300, 200)
	url := o["source_url"].(string)
	path := uploadPath(e.t, url)
	full := e.request(anon, "GET", path, nil, nil)
	wantStatus(t, full, http.StatusOK)
	h := full.Header
	if h.Get("Content-Type") != "image/jpeg" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("ETag") == "" ||
		h.Get("Last-Modified") == "" || !strings.Contains(h.Get("Cache-Control"), "max-age=31536000") || h.Get("Accept-Ranges") != "bytes" {
		t.Fatalf("headers: %v", h)
	}
	if num(field(o, "media_details", "filesize")) != len(full.Raw) {
		t.Fatalf("served %d bytes, filesize %v", len(full.Raw), field(o, "media_details", "filesize"))
	}
	r := e.request(anon, "GET", path, nil, http.Header{"Range": {"bytes=10-19"}})
	if r.Status != http.StatusPartialContent || string(r.Raw) != string(full.Raw[10:20]) ||
		r.Header.Get("Content-Range") != fmt.Sprintf("bytes 10-19/%d", len(full.Raw)) {
		t.Fatalf("range: %d %v", r.Status, r.Header)
	}
	r = e.request(anon, "GET", path, nil, http.Header{"Range": {fmt.Sprintf("bytes=%d-", len(full.Raw)+10)}})
	if r.Status != http.StatusRequestedRangeNotSatisfiable {
		t.Fatalf("unsatisfiable range: %d", r.Status)
	}
	r = e.request(anon, "GET", path, nil, http.Header{"If-None-Match": {h.Get("ETag")}})
	if r.Status != http.StatusNotModified {
		t.Fatalf("If-None-Match: %d", r.Status)
	}
	r = e.request(anon, "HEAD", path, nil, nil)
	if r.Status != http.StatusOK || len(r.Raw) != 0 || r.Header.Get("Content-Length") != fmt.Sprint(len(full.Raw)) {
		t.Fatalf("HEAD: %d %v", r.Status, r.Header)
	}
	if r := e.request(anon, "POST", path, nil, nil); r.Status != http.StatusMethodNotAllowed {
		t.Fatalf("POST on a file: %d", r.Status)
	}
	// Nothing outside the uploads root can be read.
	secret := filepath.Join(filepath.Dir(e.dir), "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(e.dir), filepath.Join(e.dir, "up")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		UploadsPath + "../secret.txt", UploadsPath + "..%2fsecret.txt", UploadsPath + "%2e%2e/secret.txt",
		UploadsPath + "2026/../../secret.txt", UploadsPath + "up/secret.txt", UploadsPath + "%2Fetc%2Fpasswd",
		UploadsPath + "/etc/passwd", UploadsPath + ".tmp-1", UploadsPath, UploadsPath + "2026", UploadsPath + "nope.jpg",
	} {
		req, _ := http.NewRequest("GET", e.base+"/", nil)
		req.URL.Opaque = p // sent as written, not cleaned by the client
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound && res.StatusCode != http.StatusMovedPermanently {
			t.Errorf("GET %s: %d, want 404", p, res.StatusCode)
		}
		if res.StatusCode == http.StatusMovedPermanently {
			// the router cleans ".." to a redirect: following it must not leak either
			loc := res.Header.Get("Location")
			if !strings.HasPrefix(loc, UploadsPath) {
				continue
			}
			wantStatus(t, e.request(anon, "GET", loc, nil, nil), http.StatusNotFound)
		}
	}
}

func TestRouteDescriptions(t *testing.T) {
	e := newEnv(t)
	r := e.request(anon, "GET", "/internal/routes", nil, nil)
	wantStatus(t, r, http.StatusOK)
	var idx struct {
		Routes map[string]struct {
			Endpoints []struct {
				Methods    []string       `json:"methods"`
				AllowBatch map[string]any `json:"allow_batch"`
			} `json:"endpoints"`
		} `json:"routes"`
	}
	if err := json.Unmarshal(r.Raw, &idx); err != nil {
		t.Fatalf("%v: %.300s", err, r.Raw)
	}
	for _, route := range []string{"/cms/v2/media", "/cms/v2/media/(?P<id>[\\d]+)", "/cms/v2/media/(?P<id>[\\d]+)/post-process", "/cms/v2/media/(?P<id>[\\d]+)/edit"} {
		if _, ok := idx.Routes[route]; !ok {
			t.Errorf("route %s not described: %v", route, idx.Routes)
		}
	}
	// As in WordPress, no media endpoint is batchable (no allow_batch key).
	for route, desc := range idx.Routes {
		for _, ep := range desc.Endpoints {
			if ep.AllowBatch != nil {
				t.Errorf("%s %v batchable (core: not)", route, ep.Methods)
			}
		}
	}
}

var _ = time.Second

// Served files run in a sandbox, are never sniffed, and what a browser
// would open as an active document (a PDF with scripts, say) is a
// download; a private attachment's files are not served to those who may
// not read it, nor to shared caches. On a1ed099 the PDF was served inline
// without a sandbox, and the private file to anyone, cacheable for a year.
func TestServedFileHeaders(t *testing.T) {
	e := newEnv(t)
	pdf := []byte("%PDF-1.4\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n%%EOF\n")
	pdfURL := e.uploadRaw(author, "", "doc.pdf", "application/pdf", pdf).obj()["source_url"].(string)
	txtURL := e.uploadRaw(author, "", "notes.txt", "text/plain", []byte("plain notes\n")).obj()["source_url"].(string)
	img := e.upload(author, 400, 300)
	private := e.upload(author, 400, 300)
	wantStatus(t, e.json(author, "POST", fmt.Sprintf("/cms/v2/media/%d", num(private["id"])), map[string]any{"status": "private"}), http.StatusOK)
	privateThumb := field(private, "media_details", "sizes", "thumbnail", "source_url").(string)
	tests := []struct {
		name, who, url string
		status         int
		disposition    string // "" : none (inline)
		cache          string
	}{
		{"pdf", anon, pdfURL, 200, `attachment; filename="doc.pdf"`, "public, max-age=31536000, immutable"},
		{"text", anon, txtURL, 200, "", "public, max-age=31536000, immutable"},
		{"image", anon, img["source_url"].(string), 200, "", "public, max-age=31536000, immutable"},
		{"private, anonymous", anon, private["source_url"].(string), 404, "", ""},
		{"private size, anonymous", anon, privateThumb, 404, "", ""},
		{"private, subscriber", subscriber, private["source_url"].(string), 404, "", ""},
		{"private, another author", author2, private["source_url"].(string), 404, "", ""},
		{"private, its author", author, private["source_url"].(string), 200, "", "private, no-cache"},
		{"private size, an editor", editor, privateThumb, 200, "", "private, no-cache"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := e.request(tc.who, "GET", uploadPath(t, tc.url), nil, nil)
			wantStatus(t, r, tc.status)
			if tc.status != http.StatusOK {
				return
			}
			h := r.Header
			if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Content-Security-Policy") != "sandbox" {
				t.Errorf("nosniff %q, CSP %q", h.Get("X-Content-Type-Options"), h.Get("Content-Security-Policy"))
			}
			if got := h.Get("Content-Disposition"); got != tc.disposition {
				t.Errorf("Content-Disposition %q, want %q", got, tc.disposition)
			}
			if got := h.Get("Cache-Control"); got != tc.cache {
				t.Errorf("Cache-Control %q, want %q", got, tc.cache)
			}
		})
	}
}
