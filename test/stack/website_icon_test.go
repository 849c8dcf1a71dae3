package stack

import (
	"strings"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

// The site icon through the gateway: an image set as site_icon over the
// settings route is linked from every page's head as WordPress's
// wp_site_icon() links it (32 and 192 pixel icons, the Apple touch icon, the
// Windows tile), each URL served; unset, the page keeps its empty icon.
func TestWebsiteSiteIcon(t *testing.T) {
	needs(t, contract.ServiceContent, contract.ServiceMedia)
	img := uploadJPEG(t, "icon.jpg", 512, 512).Obj()
	sizes := img["media_details"].(map[string]any)["sizes"].(map[string]any)
	thumb := sizes["thumbnail"].(map[string]any)["source_url"].(string)
	medium := sizes["medium"].(map[string]any)["source_url"].(string)
	setIcon := func(id any) {
		t.Helper()
		if r := call(t, "POST", "/cms-json/cms/v2/settings", map[string]any{"site_icon": id}, admin()...); r.Status != 200 {
			t.Fatalf("set site_icon: %d %s", r.Status, r.Raw)
		}
	}
	setIcon(img["id"])
	t.Cleanup(func() { setIcon(0) })

	want := []string{
		`<link rel="icon" href="` + thumb + `" sizes="32x32">`,
		`<link rel="icon" href="` + medium + `" sizes="192x192">`,
		`<link rel="apple-touch-icon" href="` + medium + `">`,
		`<meta name="msapplication-TileImage" content="` + medium + `">`,
	}
	for _, path := range []string{"/", "/no-such-page/"} {
		r := page(t, "GET", path)
		for _, w := range want {
			if !strings.Contains(string(r.Raw), w) {
				t.Errorf("%s lacks %s", path, w)
			}
		}
		if strings.Contains(string(r.Raw), `href="data:,"`) {
			t.Errorf("%s still has the empty icon", path)
		}
	}
	for _, u := range []string{thumb, medium} {
		if r := page(t, "GET", uploadPath(t, u)); r.Status != 200 {
			t.Errorf("icon file %s: %d", u, r.Status)
		}
	}

	setIcon(0)
	if r := page(t, "GET", "/"); !strings.Contains(string(r.Raw), `<link rel="icon" href="data:,">`) || strings.Contains(string(r.Raw), "apple-touch-icon") {
		t.Errorf("without an icon: %.600s", r.Raw)
	}
}
