package media

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// fetch downloads a served file by its URL.
func (e *testEnv) fetch(url string) []byte {
	e.t.Helper()
	r := e.request(anon, "GET", uploadPath(e.t, url), nil, nil)
	wantStatus(e.t, r, http.StatusOK)
	return r.Raw
}

func TestEdit(t *testing.T) {
	e := newEnv(t)
	// 400×200: red top-left, green top-right, blue bottom-left, white bottom-right
	orig := e.uploadRaw(author, "?title=Quad&alt_text=four", "quad.png", "image/png", testPNG(t, 400, 200)).obj()
	id := num(orig["id"])
	src := orig["source_url"].(string)
	path := fmt.Sprintf("/cms/v2/media/%d/edit", id)
	type corners struct{ tl, tr, bl, br string }
	tests := []struct {
		name   string
		body   map[string]any
		w, h   int
		want   corners
		suffix string
	}{
		{"flip horizontal", map[string]any{"modifiers": []any{map[string]any{"type": "flip", "args": map[string]any{"flip": map[string]any{"horizontal": true, "vertical": false}}}}},
			400, 200, corners{"green", "red", "white", "blue"}, "-edited"},
		{"flip vertical", map[string]any{"modifiers": []any{map[string]any{"type": "flip", "args": map[string]any{"flip": map[string]any{"horizontal": false, "vertical": true}}}}},
			400, 200, corners{"blue", "white", "red", "green"}, "-edited-2"},
		{"rotate 90 clockwise", map[string]any{"modifiers": []any{map[string]any{"type": "rotate", "args": map[string]any{"angle": 90}}}},
			200, 400, corners{"blue", "red", "white", "green"}, "-edited-3"},
		{"rotate 270", map[string]any{"modifiers": []any{map[string]any{"type": "rotate", "args": map[string]any{"angle": 270}}}},
			200, 400, corners{"green", "white", "red", "blue"}, "-edited-4"},
		{"crop the top-left quarter", map[string]any{"modifiers": []any{map[string]any{"type": "crop", "args": map[string]any{"left": 0, "top": 0, "width": 50, "height": 50}}}},
			200, 100, corners{"red", "red", "red", "red"}, "-edited-5"},
		{"in order: rotate then crop", map[string]any{"modifiers": []any{
			map[string]any{"type": "rotate", "args": map[string]any{"angle": 180}},
			map[string]any{"type": "crop", "args": map[string]any{"left": 50, "top": 50, "width": 50, "height": 50}}}},
			200, 100, corners{"red", "red", "red", "red"}, "-edited-6"},
		{"deprecated rotation and crop", map[string]any{"rotation": 90, "x": 0, "y": 0, "width": 100, "height": 50},
			200, 200, corners{"blue", "red", "blue", "red"}, "-edited-7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.body["src"] = src
			r := e.json(author, "POST", path, tt.body)
			wantStatus(t, r, http.StatusCreated)
			o := r.obj()
			if num(o["id"]) == id || !strings.HasSuffix(r.Header.Get("Location"), fmt.Sprintf("/cms/v2/media/%d", num(o["id"]))) {
				t.Fatalf("not a new attachment: %.300s", r.Raw)
			}
			md := o["media_details"].(map[string]any)
			if num(md["width"]) != tt.w || num(md["height"]) != tt.h {
				t.Fatalf("size %vx%v, want %dx%d", md["width"], md["height"], tt.w, tt.h)
			}
			if !strings.HasSuffix(md["file"].(string), "/quad"+tt.suffix+".png") {
				t.Errorf("file %v, want suffix %s", md["file"], tt.suffix)
			}
			if p := field(md, "parent_image", "attachment_id"); num(p) != id || field(md, "parent_image", "file") != field(orig, "media_details", "file") {
				t.Errorf("parent_image %v", md["parent_image"])
			}
			if field(o, "title", "rendered") != "Quad" || o["alt_text"] != "four" || o["post"] != nil {
				t.Errorf("copied fields: title %v alt %v post %v", o["title"], o["alt_text"], o["post"])
			}
			img := e.fetch(o["source_url"].(string))
			got := corners{colorAt(t, img, 2, 2), colorAt(t, img, tt.w-3, 2), colorAt(t, img, 2, tt.h-3), colorAt(t, img, tt.w-3, tt.h-3)}
			if got != tt.want {
				t.Errorf("corners %v, want %v", got, tt.want)
			}
			if _, ok := sizesOf(o)["thumbnail"]; !ok {
				t.Errorf("the edited image has no sizes: %v", sizesOf(o))
			}
		})
	}
	// The original is untouched.
	r := e.json(anon, "GET", fmt.Sprintf("/cms/v2/media/%d", id), nil)
	if num(field(r.obj(), "media_details", "width")) != 400 || colorAt(t, e.fetch(src), 2, 2) != "red" {
		t.Fatal("the original changed")
	}
	// A size's URL is a valid src; fields may be given.
	thumb := field(orig, "media_details", "sizes", "thumbnail", "source_url").(string)
	r = e.json(author, "POST", path, map[string]any{"src": thumb, "rotation": 180, "title": "Upside", "post": 9, "alt_text": "down"})
	wantStatus(t, r, http.StatusCreated)
	if field(r.obj(), "title", "raw") != nil || field(r.obj(), "title", "rendered") != "Upside" || r.obj()["post"] != float64(9) || r.obj()["alt_text"] != "down" {
		t.Errorf("fields on edit: %.300s", r.Raw)
	}
	// Edit in edit context.
	r = e.json(author, "POST", path+"?context=edit", map[string]any{"src": src, "rotation": 90})
	if field(r.obj(), "title", "raw") != "Quad" {
		t.Errorf("context=edit: %.300s", r.Raw)
	}

	// Any angle: 45° puts the 400×200 image on a 425×425 canvas with
	// transparent corners, centre kept.
	r = e.json(author, "POST", path, map[string]any{"src": src, "modifiers": []any{map[string]any{"type": "rotate", "args": map[string]any{"angle": 45}}}})
	wantStatus(t, r, http.StatusCreated)
	if num(field(r.obj(), "media_details", "width")) != 425 || num(field(r.obj(), "media_details", "height")) != 425 {
		t.Fatalf("45°: %vx%v", field(r.obj(), "media_details", "width"), field(r.obj(), "media_details", "height"))
	}
	img := e.fetch(r.obj()["source_url"].(string))
	if c := colorAt(t, img, 1, 1); c != "other" { // transparent corner
		t.Errorf("45°: corner %s, want transparent", c)
	}
	if c := colorAt(t, img, 212, 150); c != "red" && c != "green" {
		t.Errorf("45°: above the centre %s, want the top half's colours", c)
	}
}

// The edit route's errors, in WordPress's order and words.
func TestEditErrors(t *testing.T) {
	e := newEnv(t)
	orig := e.uploadRaw(author, "", "quad.png", "image/png", testPNG(t, 400, 200)).obj()
	src := orig["source_url"].(string)
	path := fmt.Sprintf("/cms/v2/media/%d/edit", num(orig["id"]))
	pdf := e.uploadRaw(author, "", "doc.pdf", "application/pdf", []byte("%PDF-1.4\n%%EOF\n")).obj()
	bmp := e.uploadRaw(author, "", "pic.bmp", "image/bmp", bmpFile()).obj()
	errs := []struct {
		name, who, path string
		body            map[string]any
		status          int
		code, message   string
	}{
		{"nothing to do", author, path, map[string]any{"src": src}, 400, "rest_image_not_edited", "The image was not edited. Edit the image before applying the changes."},
		{"src of another file", author, path, map[string]any{"src": "http://localhost:8080/cms-content/uploads/2026/11/other.png", "rotation": 90}, 404, "rest_unknown_attachment", "Unable to get meta information for file."},
		{"not an image", author, fmt.Sprintf("/cms/v2/media/%d/edit", num(pdf["id"])), map[string]any{"src": pdf["source_url"], "rotation": 90}, 404, "rest_unknown_attachment", ""},
		{"type that cannot be edited", author, fmt.Sprintf("/cms/v2/media/%d/edit", num(bmp["id"])), map[string]any{"src": bmp["source_url"], "rotation": 90}, 400, "rest_cannot_edit_file_type", "This type of file cannot be edited."},
		{"src missing", author, path, map[string]any{"rotation": 90}, 400, "rest_missing_callback_param", ""},
		{"modifier without args", author, path, map[string]any{"src": src, "modifiers": []any{map[string]any{"type": "rotate"}}}, 400, "rest_invalid_param", ""},
		{"unknown modifier", author, path, map[string]any{"src": src, "modifiers": []any{map[string]any{"type": "blur", "args": map[string]any{}}}}, 400, "rest_invalid_param", ""},
		{"empty modifiers", author, path, map[string]any{"src": src, "modifiers": []any{}}, 400, "rest_invalid_param", ""},
		{"rotation out of range", author, path, map[string]any{"src": src, "rotation": 360}, 400, "rest_invalid_param", ""},
		{"crop over 100%", author, path, map[string]any{"src": src, "x": 0, "y": 0, "width": 101, "height": 5}, 400, "rest_invalid_param", ""},
		{"no upload_files", contributor, path, map[string]any{"src": src, "rotation": 90}, 403, "rest_cannot_edit_image", "Sorry, you are not allowed to upload media on this site."},
		{"anonymous", anon, path, map[string]any{"src": src, "rotation": 90}, 401, "rest_cannot_edit_image", ""},
		{"another author's image", author2, path, map[string]any{"src": src, "rotation": 90}, 403, "rest_cannot_edit", ""},
		{"unknown id", author, "/cms/v2/media/999999/edit", map[string]any{"src": src, "rotation": 90}, 404, "rest_post_invalid_id", ""},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, e.json(tt.who, "POST", tt.path, tt.body), tt.status, tt.code, tt.message)
		})
	}
}

// WebP edits are stored as JPEG (no WebP encoder).
func TestEditWebP(t *testing.T) {
	e := newEnv(t)
	r := e.uploadRaw(author, "", "pic.webp", "image/webp", mustRead(t, "testdata/quad-400x320.webp"))
	w := r.obj()
	r = e.json(author, "POST", fmt.Sprintf("/cms/v2/media/%d/edit", num(w["id"])), map[string]any{"src": w["source_url"], "rotation": 90})
	wantStatus(t, r, http.StatusCreated)
	if r.obj()["mime_type"] != "image/jpeg" || !strings.HasSuffix(r.obj()["source_url"].(string), "/pic-edited.jpg") {
		t.Errorf("edited WebP: %v %v", r.obj()["mime_type"], r.obj()["source_url"])
	}
}
