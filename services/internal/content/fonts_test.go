package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// The font library's routes answer as WordPress 6.9 does: collections
// empty (no font collection is registered), families and faces installed,
// read and deleted with the font controllers' arguments, validation,
// errors and pagination.

// woff2Font is enough of a woff2 file for its signature.
var woff2Font = append([]byte("wOF2\x00\x01\x00\x00"), bytes.Repeat([]byte{7}, 64)...)

// ttfFont is a TrueType signature.
var ttfFont = append([]byte{0, 1, 0, 0, 0, 0x0c}, bytes.Repeat([]byte{1}, 64)...)

type fontUpload struct {
	key, name string
	data      []byte
}

// doMultipart sends a multipart form (fields and files) as who.
func (e *testEnv) doMultipart(who, path string, fields map[string]string, files ...fontUpload) *resp {
	e.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	for _, f := range files {
		w, err := mw.CreateFormFile(f.key, f.name)
		if err != nil {
			e.t.Fatal(err)
		}
		_, _ = w.Write(f.data)
	}
	_ = mw.Close()
	req := httptest.NewRequest("POST", path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if id := callers[who]; id.LoggedIn() {
		req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey(testKey), contract.ServiceContent, id, time.Now().Add(time.Minute)))
	}
	rec := httptest.NewRecorder()
	e.handler.ServeHTTP(rec, req)
	r := &resp{Status: rec.Code, Header: rec.Header(), Raw: rec.Body.Bytes()}
	if err := json.Unmarshal(r.Raw, &r.Body); err != nil {
		e.t.Fatalf("POST %s: body is not JSON: %s", path, r.Raw)
	}
	return r
}

func fontFamilyForm(settings string) string {
	return "font_family_settings=" + url.QueryEscape(settings)
}

// TestFontRouteArgs: every endpoint declares WordPress 6.9's arguments
// (OPTIONS and the index), which the differential suite compares.
func TestFontRouteArgs(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		path string
		want []string // "METHODS arg", sorted
	}{
		{"/cms/v2/font-collections", []string{"GET context", "GET page", "GET per_page"}},
		{"/cms/v2/font-collections/google-fonts", []string{"GET context"}},
		{"/cms/v2/font-families", []string{"GET context", "GET exclude", "GET include", "GET offset", "GET order", "GET orderby", "GET page",
			"GET per_page", "GET search_semantics", "GET slug", "POST font_family_settings", "POST theme_json_version"}},
		{"/cms/v2/font-families/7", []string{"DELETE force", "DELETE id", "GET context", "GET id", "POST,PUT,PATCH font_family_settings",
			"POST,PUT,PATCH id", "POST,PUT,PATCH theme_json_version"}},
		{"/cms/v2/font-families/7/font-faces", []string{"GET context", "GET exclude", "GET font_family_id", "GET include", "GET offset", "GET order",
			"GET orderby", "GET page", "GET per_page", "GET search_semantics", "POST font_face_settings", "POST font_family_id", "POST theme_json_version"}},
		{"/cms/v2/font-families/7/font-faces/8", []string{"DELETE font_family_id", "DELETE force", "DELETE id", "GET context", "GET font_family_id", "GET id"}},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			r := e.do(admin, "OPTIONS", c.path, nil)
			var got []string
			for _, ep := range r.obj()["endpoints"].([]any) {
				m := ep.(map[string]any)
				var methods []string
				for _, x := range m["methods"].([]any) {
					methods = append(methods, x.(string))
				}
				args, _ := m["args"].(map[string]any)
				for name := range args {
					got = append(got, strings.Join(methods, ",")+" "+name)
				}
			}
			sort.Strings(got)
			if !slices.Equal(got, c.want) {
				t.Fatalf("args:\n got %v\nwant %v", got, c.want)
			}
		})
	}
}

// TestFontRoutes: reads, permissions and the errors WordPress gives for
// bad arguments and missing items.
func TestFontRoutes(t *testing.T) {
	e := newEnv(t)
	for _, path := range []string{"/cms/v2/font-collections", "/cms/v2/font-families"} {
		r := e.do(admin, "GET", path+"?context=edit&_embed=true", nil)
		if r.Status != 200 || string(r.Raw) != "[]" || r.Header.Get("X-WP-Total") != "0" || r.Header.Get("X-WP-TotalPages") != "0" {
			t.Fatalf("%s: %d %s %v", path, r.Status, r.Raw, r.Header)
		}
	}
	fam := e.do(admin, "POST", "/cms/v2/font-families", fontFamilyForm(`{"name":"Inter","slug":"inter","fontFamily":"Inter, sans-serif"}`))
	wantStatus(t, fam, 201)
	id := fmt.Sprint(fam.id())
	cases := []struct {
		who, method, path string
		status            int
		code, msg         string
	}{
		{anon, "GET", "/cms/v2/font-families", 401, "rest_cannot_read", "Sorry, you are not allowed to access font families."},
		{editor, "GET", "/cms/v2/font-collections", 403, "rest_cannot_read", "Sorry, you are not allowed to access font collections."},
		{admin, "GET", "/cms/v2/font-collections/google-fonts", 404, "rest_font_collection_not_found", "Font collection not found."},
		{admin, "GET", "/cms/v2/font-collections?page=notanint", 400, "rest_invalid_param", "Invalid parameter(s): page"},
		{admin, "GET", "/cms/v2/font-families?per_page=0", 400, "rest_invalid_param", "Invalid parameter(s): per_page"},
		{admin, "GET", "/cms/v2/font-families?orderby=zz-invalid", 400, "rest_invalid_param", "Invalid parameter(s): orderby"},
		{admin, "GET", "/cms/v2/font-families?offset=notanint", 400, "rest_invalid_param", "Invalid parameter(s): offset"},
		{admin, "GET", "/cms/v2/font-families?exclude=a", 400, "rest_invalid_param", "Invalid parameter(s): exclude"},
		{admin, "GET", "/cms/v2/font-families?search_semantics=zz-invalid", 400, "rest_invalid_param", "Invalid parameter(s): search_semantics"},
		{admin, "GET", "/cms/v2/font-families?orderby=include", 400, "rest_orderby_include_missing_include", "You need to define an include parameter to order by include."},
		{admin, "GET", "/cms/v2/font-families?page=2", 400, "rest_post_invalid_page_number", "The page number requested is larger than the number of pages available."},
		// page × per_page past int64 (the OFFSET saturates, never a 500)
		{admin, "GET", "/cms/v2/font-families?page=9223372036854775807", 400, "rest_post_invalid_page_number", "The page number requested is larger than the number of pages available."},
		{admin, "GET", "/cms/v2/font-families/999999", 404, "rest_post_invalid_id", "Invalid post ID."},
		{anon, "GET", "/cms/v2/font-families/" + id, 401, "rest_cannot_read", "Sorry, you are not allowed to access this font family."},
		{admin, "GET", "/cms/v2/font-families/999999/font-faces", 404, "rest_post_invalid_parent", "Invalid post parent ID."},
		{subscriber, "GET", "/cms/v2/font-families/" + id + "/font-faces", 403, "rest_cannot_read", "Sorry, you are not allowed to access font faces."},
		{admin, "GET", "/cms/v2/font-families/" + id + "/font-faces/999999", 404, "rest_post_invalid_id", "Invalid post ID."},
		{admin, "GET", "/cms/v2/font-families/" + id + "/font-faces?page=9999", 200, "", ""},
		{admin, "DELETE", "/cms/v2/font-families/" + id, 501, "rest_trash_not_supported", `Font faces do not support trashing. Set "force=true" to delete.`},
		{editor, "DELETE", "/cms/v2/font-families/" + id + "?force=true", 403, "rest_cannot_delete", "Sorry, you are not allowed to delete this post."},
		{editor, "POST", "/cms/v2/font-families", 403, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user."},
	}
	for _, c := range cases {
		t.Run(c.who+" "+c.method+" "+c.path, func(t *testing.T) {
			var body any
			if c.method == "POST" {
				body = fontFamilyForm(`{"name":"X","slug":"x","fontFamily":"X"}`)
			}
			r := e.do(c.who, c.method, c.path, body)
			if c.code == "" {
				wantStatus(t, r, c.status)
				return
			}
			wantError(t, r, c.status, c.code, c.msg)
		})
	}
	r := e.do(admin, "GET", "/cms/v2/font-families?context=edit", nil)
	if r.Status != 200 || len(r.list()) != 1 || r.Header.Get("X-WP-Total") != "1" || r.Header.Get("Allow") != "GET, POST" {
		t.Fatalf("list: %d %s %v", r.Status, r.Raw, r.Header)
	}
}

// TestFontFamilyWrites: font_family_settings validated, sanitised and
// stored as WordPress does, one family per slug.
func TestFontFamilyWrites(t *testing.T) {
	e := newEnv(t)
	created := e.do(admin, "POST", "/cms/v2/font-families", fontFamilyForm(`{"name":"Open <b>Sans</b>","slug":"Open Sans","fontFamily":"Open Sans, sans-serif","preview":"https://example.com/p.png"}`))
	wantStatus(t, created, 201)
	want := `{"name":"Open Sans","slug":"open-sans","fontFamily":"\"Open Sans\", sans-serif","preview":"https://example.com/p.png"}`
	if got, _ := json.Marshal(created.obj()["font_family_settings"]); !fontSameJSON(string(got), want) || created.obj()["theme_json_version"] != 3.0 {
		t.Fatalf("created: %s", created.Raw)
	}
	id := fmt.Sprint(created.id())
	bad := []struct{ name, body, msg string }{
		{"not JSON", `{"name":`, "font_family_settings parameter must be a valid JSON string."},
		{"missing", `{"name":"A","slug":"a"}`, "fontFamily is a required property of font_family_settings."},
		{"empty", `{"name":"","slug":"b","fontFamily":"B"}`, "font_family_settings[ name ] cannot be empty."},
		{"extra", `{"name":"C","slug":"c","fontFamily":"C","zz":1}`, "zz is not a valid property of Object."},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(admin, "POST", "/cms/v2/font-families", fontFamilyForm(c.body))
			wantError(t, r, 400, "rest_invalid_param", "Invalid parameter(s): font_family_settings")
			if got := field(r.obj(), "data", "params", "font_family_settings"); got != c.msg {
				t.Fatalf("message %v, want %q", got, c.msg)
			}
		})
	}
	wantError(t, e.do(admin, "POST", "/cms/v2/font-families", fontFamilyForm(`{"name":"Again","slug":"open-sans","fontFamily":"X"}`)),
		400, "rest_duplicate_font_family", `A font family with slug "open-sans" already exists.`)
	wantError(t, e.do(admin, "POST", "/cms/v2/font-families", "theme_json_version=9&"+fontFamilyForm(`{"name":"V","slug":"v","fontFamily":"V"}`)),
		400, "rest_invalid_param", "Invalid parameter(s): theme_json_version")
	r := e.do(admin, "POST", "/cms/v2/font-families/"+id, fontFamilyForm(`{"slug":"other"}`))
	if wantError(t, r, 400, "rest_invalid_param", ""); field(r.obj(), "data", "params", "font_family_settings") != "font_family_settings[slug] cannot be updated." {
		t.Fatalf("slug update: %s", r.Raw)
	}
	r = e.do(admin, "PUT", "/cms/v2/font-families/"+id, fontFamilyForm(`{"name":"Renamed"}`))
	want = `{"name":"Renamed","slug":"open-sans","fontFamily":"\"Open Sans\", sans-serif","preview":"https://example.com/p.png"}`
	if got, _ := json.Marshal(r.obj()["font_family_settings"]); r.Status != 200 || !fontSameJSON(string(got), want) {
		t.Fatalf("update: %d %s", r.Status, r.Raw)
	}
	r = e.do(admin, "DELETE", "/cms/v2/font-families/"+id+"?force=true", nil)
	if r.Status != 200 || r.obj()["deleted"] != true || field(r.obj(), "previous", "font_family_settings", "name") != "Renamed" {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	wantError(t, e.do(admin, "GET", "/cms/v2/font-families/"+id, nil), 404, "rest_post_invalid_id", "Invalid post ID.")
}

func fontSameJSON(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && fmt.Sprint(x) == fmt.Sprint(y)
}

// TestFontFaces: faces installed with an uploaded file (typed by its
// signature, not its name) or a URL, listed in their family, served at
// the fonts URL, and deleted with their files.
func TestFontFaces(t *testing.T) {
	e := newEnv(t)
	fam := e.do(admin, "POST", "/cms/v2/font-families", fontFamilyForm(`{"name":"Inter","slug":"inter","fontFamily":"Inter"}`))
	wantStatus(t, fam, 201)
	faces := "/cms/v2/font-families/" + fmt.Sprint(fam.id()) + "/font-faces"
	settings := func(s string) map[string]string { return map[string]string{"font_face_settings": s} }
	bad := []struct {
		name     string
		settings string
		files    []fontUpload
		status   int
		code     string
		msg      string // data.params.font_face_settings for rest_invalid_param, else the message
	}{
		{"text named woff2", `{"fontFamily":"Inter","src":"file-0"}`, []fontUpload{{"file-0", "x.woff2", []byte("hello")}}, 400,
			"rest_font_upload_invalid_file_type", "Sorry, you are not allowed to upload this file type."},
		{"no such file", `{"fontFamily":"Inter","src":"file-0"}`, []fontUpload{{"file-1", "x.woff2", woff2Font}}, 400,
			"rest_invalid_param", `font_face_settings[src] value "file-0" must be a valid URL or file reference.`},
		{"unused file", `{"fontFamily":"Inter","src":"file-0"}`, []fontUpload{{"file-0", "a.woff2", woff2Font}, {"file-1", "b.woff2", woff2Font}}, 400,
			"rest_invalid_param", "File file-1 must be used in font_face_settings[src]."},
		{"bad enum", `{"fontFamily":"Inter","fontDisplay":"zz","src":"https://fonts.example/i.woff2"}`, nil, 400,
			"rest_invalid_param", "font_face_settings[fontDisplay] is not one of auto, block, fallback, swap, and optional."},
		{"empty family", `{"fontFamily":"","src":"https://fonts.example/i.woff2"}`, nil, 400,
			"rest_invalid_param", "font_face_setting[ fontFamily ] cannot be empty."},
		{"not JSON", `notjson`, nil, 400, "rest_invalid_param", "font_face_settings parameter must be a valid JSON string."},
		{"no src", `{"fontFamily":"Inter"}`, nil, 400, "rest_invalid_param", "src is a required property of font_face_settings."},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			r := e.doMultipart(admin, faces, settings(c.settings), c.files...)
			if c.code != "rest_invalid_param" {
				wantError(t, r, c.status, c.code, c.msg)
				return
			}
			wantError(t, r, c.status, c.code, "Invalid parameter(s): font_face_settings")
			if got := field(r.obj(), "data", "params", "font_face_settings"); got != c.msg {
				t.Fatalf("message %v, want %q", got, c.msg)
			}
		})
	}
	// a TrueType file named .png is a TrueType file
	up := e.doMultipart(admin, faces, settings(`{"fontFamily":"Inter","fontWeight":"100 900","src":"file-0"}`), fontUpload{"file-0", "Inter Var.png", ttfFont})
	wantStatus(t, up, 201)
	src := str(field(up.obj(), "font_face_settings", "src"))
	if src != "http://example.test"+fontFilesPath+"Inter-Var.ttf" || field(up.obj(), "font_face_settings", "fontFamily") != "Inter" {
		t.Fatalf("uploaded: %s", up.Raw)
	}
	wantError(t, e.doMultipart(admin, faces, settings(`{"fontFamily":"Inter","fontWeight":"100 900","src":"https://fonts.example/i.woff2"}`)),
		400, "rest_duplicate_font_face", "A font face matching those settings already exists.")
	byURL := e.doMultipart(admin, faces, settings(`{"fontFamily":"Inter","fontStyle":"italic","src":["https://fonts.example/i.woff2"]}`))
	wantStatus(t, byURL, 201)
	file := httptest.NewRecorder()
	e.svc.FontFiles().ServeHTTP(file, httptest.NewRequest("GET", fontFilesPath+"Inter-Var.ttf", nil))
	if file.Code != 200 || !bytes.Equal(file.Body.Bytes(), ttfFont) || file.Header().Get("Content-Type") != "font/sfnt" {
		t.Fatalf("font file: %d %v", file.Code, file.Header())
	}
	file = httptest.NewRecorder()
	e.svc.FontFiles().ServeHTTP(file, httptest.NewRequest("POST", fontFilesPath+"Inter-Var.ttf", nil))
	wantStatus(t, &resp{Status: file.Code}, 405)
	family := e.do(admin, "GET", "/cms/v2/font-families/"+fmt.Sprint(fam.id()), nil)
	if ids, _ := family.obj()["font_faces"].([]any); len(ids) != 2 || ids[0] != float64(up.id()) {
		t.Fatalf("family: %s", family.Raw)
	}
	item := faces + "/" + fmt.Sprint(up.id())
	wantError(t, e.do(admin, "DELETE", item, nil), 501, "rest_trash_not_supported", `Font faces do not support trashing. Set "force=true" to delete.`)
	wantError(t, e.do(admin, "GET", "/cms/v2/font-families/999999/font-faces/"+fmt.Sprint(up.id()), nil), 404, "rest_post_invalid_parent", "Invalid post parent ID.")
	r := e.do(admin, "DELETE", item+"?force=true", nil)
	if r.Status != 200 || r.obj()["deleted"] != true || field(r.obj(), "previous", "parent") != float64(fam.id()) {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	file = httptest.NewRecorder()
	e.svc.FontFiles().ServeHTTP(file, httptest.NewRequest("GET", fontFilesPath+"Inter-Var.ttf", nil))
	wantStatus(t, &resp{Status: file.Code}, 404)
	wantStatus(t, e.do(admin, "DELETE", "/cms/v2/font-families/"+fmt.Sprint(fam.id())+"?force=true", nil), 200)
	wantError(t, e.do(admin, "GET", faces+"/"+fmt.Sprint(byURL.id()), nil), 404, "rest_post_invalid_id", "Invalid post ID.")
}

// TestFontHostileInput: settings of the wrong shape are 400s in
// WordPress's envelope, never a server error.
func TestFontHostileInput(t *testing.T) {
	e := newEnv(t)
	fam := e.do(admin, "POST", "/cms/v2/font-families", fontFamilyForm(`{"name":"Inter","slug":"inter","fontFamily":"Inter"}`))
	wantStatus(t, fam, 201)
	faces := "/cms/v2/font-families/" + fmt.Sprint(fam.id()) + "/font-faces"
	cases := []struct {
		path string
		body any
	}{
		{"/cms/v2/font-families", map[string]any{"font_family_settings": map[string]any{"name": "x"}}},
		{"/cms/v2/font-families", map[string]any{"font_family_settings": 5}},
		{"/cms/v2/font-families", map[string]any{"font_family_settings": "[]"}},
		{"/cms/v2/font-families", map[string]any{"font_family_settings": `{"name":["x"],"slug":"s","fontFamily":"f"}`}},
		{"/cms/v2/font-families", map[string]any{}},
		{"/cms/v2/font-families/" + fmt.Sprint(fam.id()), map[string]any{"font_family_settings": `{"name":""}`}},
		{faces, map[string]any{"font_face_settings": `{"fontFamily":"A","src":[1,2]}`}},
		{faces, map[string]any{"font_face_settings": `{"fontFamily":"A","src":[]}`}},
		{faces, map[string]any{"font_face_settings": `{"fontFamily":"A","src":"   "}`}},
		{faces, map[string]any{"font_face_settings": `{"fontFamily":"A","src":"ftp://x/y.woff2"}`}},
		{faces, map[string]any{"font_face_settings": `{"fontFamily":"A","src":"http://127.0.0.1/y.woff2"}`}},
		{faces, map[string]any{"font_face_settings": `{"fontFamily":"A","src":"http://fonts.example:22/y.woff2"}`}},
		{faces, map[string]any{"font_face_settings": `{"fontFamily":"A","src":"https://x/y.woff2","fontWeight":true}`}},
		{faces, map[string]any{"font_face_settings": []any{"x"}}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.body), func(t *testing.T) {
			r := e.do(admin, "POST", c.path, c.body)
			if r.Status != 400 || r.obj()["code"] == nil {
				t.Fatalf("want a 400 error, got %d %s", r.Status, r.Raw)
			}
		})
	}
}
