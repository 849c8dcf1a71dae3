package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// The WordPress side of the Twenty Twenty-Three comparison: a copy of the
// WordPress peer with Twenty Twenty-Three active (hack/wp-theme-copy.sh),
// reached at SITEPLANE_TT3_WP (http://HOST:8081, HOST resolved to the
// loopback by the test itself) with the peer's application password in
// SITEPLANE_TT3_WP_AUTH (user:password).

// wpSite is the WordPress copy.
type wpSite struct {
	base, user, pass string
	host             string // host:port the base names, dialled on 127.0.0.1
	client           *http.Client
}

// wordPressTT3 returns the copy, or skips when none is configured (`make
// test` runs without the peer); a configured copy that does not answer
// skips too, but fails under CI=true, where hack/differential.sh made it.
func wordPressTT3(t *testing.T) *wpSite {
	t.Helper()
	base, auth := os.Getenv("SITEPLANE_TT3_WP"), os.Getenv("SITEPLANE_TT3_WP_AUTH")
	if base == "" {
		t.Skip("SITEPLANE_TT3_WP is not set: the WordPress comparison runs in make test-differential")
	}
	u, err := url.Parse(base)
	user, pass, ok := strings.Cut(auth, ":")
	if err != nil || u.Port() == "" || !ok {
		t.Fatalf("SITEPLANE_TT3_WP=%q must be http://HOST:PORT and SITEPLANE_TT3_WP_AUTH user:password", base)
	}
	port := u.Port()
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	wp := &wpSite{base: strings.TrimSuffix(base, "/"), user: user, pass: pass, host: u.Host,
		client: &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{
			// only the loopback: HOST is a name the copy's nginx serves
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return dialer.DialContext(ctx, network, "127.0.0.1:"+port)
			}}}}
	r, err := wp.do("GET", "/wp-json/", nil, nil)
	if err != nil || r.Status != 200 || r.Obj()["home"] != wp.base {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the WordPress copy at %s does not answer: %v %v", base, err, r)
		}
		t.Skipf("the WordPress copy at %s does not answer (hack/wp-theme-copy.sh): %v", base, err)
	}
	return wp
}

func (wp *wpSite) do(method, path string, body []byte, header http.Header) (*Response, error) {
	req, err := http.NewRequest(method, wp.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.SetBasicAuth(wp.user, wp.pass)
	res, err := wp.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := &Response{Status: res.StatusCode, Header: res.Header, Raw: raw}
	_ = json.Unmarshal(raw, &out.JSON)
	return out, nil
}

// call sends JSON to the copy's REST API and wants want.
func (wp *wpSite) call(t *testing.T, method, path string, body any, want int) map[string]any {
	t.Helper()
	b, _ := json.Marshal(body)
	r, err := wp.do(method, "/wp-json/wp/v2/"+path, b, http.Header{"Content-Type": {"application/json"}})
	if err != nil || r.Status != want {
		t.Fatalf("WordPress %s %s: %v %v %.300s", method, path, err, statusOf(r), rawOf(r))
	}
	return r.Obj()
}

func statusOf(r *Response) int {
	if r == nil {
		return 0
	}
	return r.Status
}

func rawOf(r *Response) []byte {
	if r == nil {
		return nil
	}
	return r.Raw
}

// deletePages removes the copy's pages (the peer's twenty), so that the
// header's navigation (a page list when the theme has no menu) lists the
// same pages as Siteplane's: the comparison's own.
func (wp *wpSite) deletePages(t *testing.T) {
	t.Helper()
	r, err := wp.do("GET", "/wp-json/wp/v2/pages?per_page=100&status=publish,draft,private&_fields=id", nil, nil)
	list, _ := r.JSON.([]any)
	if err != nil || r.Status != 200 {
		t.Fatalf("WordPress pages: %v %d", err, statusOf(r))
	}
	for _, it := range list {
		wp.call(t, "DELETE", fmt.Sprintf("pages/%v?force=true", it.(map[string]any)["id"]), nil, 200)
	}
}

// tt3Side is one site of the comparison: how it creates content, and the
// URL its pages are read from.
type tt3Side struct {
	name, base string
	create     func(route string, body map[string]any) map[string]any
	upload     func(name string, jpeg []byte) map[string]any
}

func siteplaneSide(t *testing.T) tt3Side {
	return tt3Side{name: "siteplane", base: st.SiteURL,
		create: func(route string, body map[string]any) map[string]any { return create(t, route, body) },
		upload: func(name string, jpeg []byte) map[string]any {
			r := send(t, "POST", "/cms-json/cms/v2/media", jpeg, http.Header{"Content-Type": {"image/jpeg"},
				"Content-Disposition": {`attachment; filename="` + name + `"`}}, admin()...)
			if r.Status != 201 {
				t.Fatalf("upload: %d %.300s", r.Status, r.Raw)
			}
			return r.Obj()
		}}
}

func wordpressSide(t *testing.T, wp *wpSite) tt3Side {
	return tt3Side{name: "wordpress", base: wp.base,
		create: func(route string, body map[string]any) map[string]any { return wp.call(t, "POST", route, body, 201) },
		upload: func(name string, jpeg []byte) map[string]any {
			r, err := wp.do("POST", "/wp-json/wp/v2/media", jpeg, http.Header{"Content-Type": {"image/jpeg"},
				"Content-Disposition": {`attachment; filename="` + name + `"`}})
			if err != nil || r.Status != 201 {
				t.Fatalf("WordPress upload: %v %d %.300s", err, statusOf(r), rawOf(r))
			}
			return r.Obj()
		}}
}

// tt3Fixture is what one side holds for the comparison: the same eleven
// posts (dated alike, the newest of the site, so the front page lists
// ten of them and both sites have a next page), one with a featured image
// and an image block, a page and a category holding the eleven.
type tt3Fixture struct{ post, page, category string }

func makeTT3Fixture(t *testing.T, s tt3Side, run string, jpeg []byte, base time.Time) tt3Fixture {
	t.Helper()
	cat := s.create("categories", map[string]any{"name": "TT3 Compare " + run})
	img := s.upload("tt3cmp-"+run+".jpg", jpeg)
	src, _ := img["source_url"].(string)
	var first map[string]any
	for i := 9; i >= -1; i-- {
		body := map[string]any{"status": "publish", "categories": []any{cat["id"]},
			"date_gmt": base.Add(time.Duration(i) * time.Second).Format("2006-01-02T15:04:05"),
			"title":    fmt.Sprintf("Compared post %d %s", i+1, run), "excerpt": "The same post on both sites.",
			"content": fmt.Sprintf("<!-- wp:paragraph -->\n<p>Post %d of the comparison %s, rendered by Twenty Twenty-Three.</p>\n<!-- /wp:paragraph -->", i+1, run)}
		if i == 9 {
			body["featured_media"] = img["id"]
			body["content"] = body["content"].(string) + fmt.Sprintf("\n\n<!-- wp:image {\"id\":%v,\"sizeSlug\":\"large\"} -->\n"+
				"<figure class=\"wp-block-image size-large\"><img src=\"%s\" alt=\"A gradient\" class=\"wp-image-%v\"/></figure>\n<!-- /wp:image -->",
				img["id"], src, img["id"])
			first = s.create("posts", body)
			continue
		}
		s.create("posts", body)
	}
	page := s.create("pages", map[string]any{"title": "Compared page " + run, "status": "publish",
		"content": "<!-- wp:paragraph -->\n<p>A page in Twenty Twenty-Three.</p>\n<!-- /wp:paragraph -->"})
	return tt3Fixture{post: first["link"].(string), page: page["link"].(string), category: cat["slug"].(string)}
}

// tt3PixelTolerance is the largest difference of a colour channel (0–255)
// still counted as the same pixel: anti-aliasing of the same glyph or edge
// at a sub-pixel offset, and JPEG decoding, stay under it; a different
// colour, text or box does not.
const tt3PixelTolerance = 48

// pixelDifference is the share of pixels of the larger of two screenshots
// that differ: compared where both have the pixel, and counted as
// different where only the taller or wider one has it (a page of another
// height differs by that much).
func pixelDifference(a, b []byte) (float64, error) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return 0, fmt.Errorf("decode: %w", err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, fmt.Errorf("decode: %w", err)
	}
	ra, rb := ia.Bounds(), ib.Bounds()
	w, h := max(ra.Dx(), rb.Dx()), max(ra.Dy(), rb.Dy())
	common := image.Rect(0, 0, min(ra.Dx(), rb.Dx()), min(ra.Dy(), rb.Dy()))
	differ := w*h - common.Dx()*common.Dy()
	for y := 0; y < common.Dy(); y++ {
		for x := 0; x < common.Dx(); x++ {
			if !samePixel(ia.At(ra.Min.X+x, ra.Min.Y+y).RGBA())(ib.At(rb.Min.X+x, rb.Min.Y+y).RGBA()) {
				differ++
			}
		}
	}
	return float64(differ) / float64(w*h), nil
}

// samePixel compares two colours (16-bit channels) within the tolerance.
func samePixel(r1, g1, b1, _ uint32) func(r2, g2, b2, _ uint32) bool {
	return func(r2, g2, b2, _ uint32) bool {
		d := func(x, y uint32) uint32 {
			if x > y {
				return (x - y) >> 8
			}
			return (y - x) >> 8
		}
		return d(r1, r2) <= tt3PixelTolerance && d(g1, g2) <= tt3PixelTolerance && d(b1, b2) <= tt3PixelTolerance
	}
}
