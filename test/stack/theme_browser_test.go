package stack

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"siteplane.dev/services/pkg/contract"
)

// tt3Dir is Twenty Twenty-Three's directory (hack/tt3.sh); the test skips
// without one, and fails under CI=true.
func tt3Dir(t *testing.T) string {
	t.Helper()
	d := os.Getenv("SITEPLANE_TT3_DIR")
	if d == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("SITEPLANE_TT3_DIR is not set (hack/tt3.sh)")
		}
		t.Skip("SITEPLANE_TT3_DIR is not set (hack/tt3.sh)")
	}
	return d
}

// useTT3 starts a second content service whose site file chooses Twenty
// Twenty-Three from its themes directory, and routes the gateway to it for
// the rest of the test (the shared stack keeps the built-in theme).
func useTT3(t *testing.T) {
	t.Helper()
	dir := tt3Dir(t)
	site := contract.DefaultSite(st.SiteURL)
	site.Title, site.Description, site.WPAlias = "Stack Test", "Siteplane under test", true
	site.Theme = filepath.Base(dir)
	siteFile := filepath.Join(t.TempDir(), "site.json")
	if err := writeJSON(siteFile, site); err != nil {
		t.Fatal(err)
	}
	_, url := startExtra(t, contract.ServiceContent, contract.EnvSiteFile+"="+siteFile,
		contract.EnvThemesDir+"="+filepath.Dir(dir), contract.EnvMetricsAddr+"=off")
	routeContentTo(t, url, func() bool {
		r := call(t, "GET", "/cms-json/cms/v2/themes?status=active&_fields=stylesheet", nil, admin()...)
		return strings.Contains(string(r.Raw), `"stylesheet":"`+site.Theme+`"`)
	})
}

// tt3Widths are the windows the pages are rendered in: desktop and phone.
var tt3Widths = []struct {
	name string
	w, h int64
}{{"desktop", 1280, 900}, {"mobile", 390, 844}}

// tt3Page is one page kind the comparison covers.
type tt3Page struct {
	name, path string
	status     int
	template   string
}

// tt3Checks compare a computed style of the page with the value the theme
// asks for (its theme.json, 1.6), computed by the browser from the theme's
// own presets on a probe element, so that fluid sizes (clamp() of the
// viewport) are compared at the width they are rendered at. Each check
// returns [got, want].
var tt3Checks = []struct{ name, js string }{
	{"body color", `[cs(document.body).color, probe("color", "var(--wp--preset--color--contrast)")]`},
	{"body background", `[cs(document.body).backgroundColor, probe("background-color", "var(--wp--preset--color--base)")]`},
	{"body font family", `[cs(document.body).fontFamily, probe("font-family", "var(--wp--preset--font-family--system-font)")]`},
	{"body font size", `[cs(document.body).fontSize, probe("font-size", "var(--wp--preset--font-size--medium)")]`},
	{"body line height", `[cs(document.body).lineHeight, String(parseFloat(cs(document.body).fontSize) * 1.6) + "px"]`},
	{"headings weight", `[cs(document.querySelector("h1, h2")).fontWeight, "400"]`},
	{"site title size", `[cs(q("header .wp-block-site-title")).fontSize, probe("font-size", "var(--wp--preset--font-size--medium)")]`},
	{"site title link", `[cs(q("header .wp-block-site-title a")).textDecorationLine, "none"]`},
	{"header top (root padding)", `[px(q("header").getBoundingClientRect().top + scrollY), probe("padding-top", "var(--wp--preset--spacing--40)")]`},
	// the header's row is alignwide: 1200px (layout.wideSize) centred
	// within the root padding, or the padding when the window is narrower
	{"header left (root padding, wide size)", `[px(q("header .wp-block-site-title").getBoundingClientRect().left),
		px(parseFloat(probe("padding-left", "var(--wp--preset--spacing--30)")) +
			Math.max(0, (document.documentElement.clientWidth - 2 * parseFloat(probe("padding-left", "var(--wp--preset--spacing--30)")) - 1200) / 2))]`},
	// listings are the theme's grid of three (query displayLayout): the
	// first two posts side by side from 600px, one under the other below
	{"post grid", `[(() => { const li = document.querySelectorAll(".wp-block-post-template > li");
		if (li.length < 2) return "no grid"; const a = li[0].getBoundingClientRect(), b = li[1].getBoundingClientRect();
		return a.top === b.top ? "side by side" : "stacked"; })(),
		document.querySelectorAll(".wp-block-post-template > li").length < 2 ? "no grid" : innerWidth >= 600 ? "side by side" : "stacked"]`},
	{"footer", `[q("footer") ? q("footer").textContent.replace(/\s+/g, " ").includes("Proudly powered by WordPress") : false, true]`},
}

// tt3Helpers are the functions the checks use.
const tt3Helpers = `const cs = (e) => getComputedStyle(e);
const q = (s) => document.querySelector(s);
const px = (n) => String(Math.round(n * 100) / 100) + "px";
const probe = (prop, value) => { const d = document.createElement("div"); d.style.setProperty(prop, value);
  document.body.appendChild(d); const v = getComputedStyle(d).getPropertyValue(prop); d.remove();
  return prop.startsWith("padding") ? px(parseFloat(v)) : v; };`

// Headless Chromium renders Twenty Twenty-Three on Siteplane: the front
// page, a single post with an image, a page, a category archive, search
// results and the 404, at desktop and mobile widths, with the theme's
// fonts loaded from /cms-content/themes/, nothing failing in the browser,
// and the computed styles of the main elements as the theme defines them.
// Screenshots and each page's computed styles are saved for review under
// .cache/test-output/tt3/.
func TestBrowserTwentyTwentyThree(t *testing.T) {
	needs(t, contract.ServiceContent, contract.ServiceMedia)
	dir := tt3Dir(t)
	run := randomHex(3)
	cat := create(t, "categories", map[string]any{"name": "TT3 Fixture " + run})
	catID := cat["id"]
	img := uploadJPEG(t, "tt3-"+run+".jpg", 1200, 800).Obj()
	imgURL, _ := img["source_url"].(string)
	post := create(t, "posts", map[string]any{"title": "TT3 with an image " + run, "status": "publish", "categories": []any{catID},
		"featured_media": img["id"], "excerpt": "A post with a featured image and an image block.",
		"content": fmt.Sprintf("<!-- wp:paragraph -->\n<p>Twenty Twenty-Three renders this post %s.</p>\n<!-- /wp:paragraph -->\n\n"+
			"<!-- wp:image {\"id\":%v,\"sizeSlug\":\"large\"} -->\n<figure class=\"wp-block-image size-large\"><img src=\"%s\" alt=\"A gradient\" class=\"wp-image-%v\"/></figure>\n<!-- /wp:image -->",
			run, img["id"], imgURL, img["id"])})
	create(t, "posts", map[string]any{"title": "TT3 second " + run, "status": "publish", "categories": []any{catID},
		"content": "<!-- wp:paragraph -->\n<p>Another post " + run + ".</p>\n<!-- /wp:paragraph -->"})
	page := create(t, "pages", map[string]any{"title": "TT3 page " + run, "status": "publish",
		"content": "<!-- wp:paragraph -->\n<p>A page in Twenty Twenty-Three.</p>\n<!-- /wp:paragraph -->"})
	useTT3(t)

	pages := []tt3Page{
		{"front", "/", 200, "home"},
		{"single", strings.TrimPrefix(post["link"].(string), st.SiteURL), 200, "single"},
		{"page", strings.TrimPrefix(page["link"].(string), st.SiteURL), 200, "page"},
		{"category", "/category/" + cat["slug"].(string) + "/", 200, "archive"},
		{"search", "/?s=" + run, 200, "search"},
		{"404", "/no-such-page-" + run + "/", 404, "404"},
	}
	out := testOutput(t, "tt3")
	ctx := newBrowserContextFor(t, 3*time.Minute)
	problems := &browserProblems{}
	if err := chromedp.Listen(ctx, problems.listen); err != nil {
		t.Fatal(err)
	}
	report := map[string]any{"theme": dir}
	for _, width := range tt3Widths {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width.w, width.h)); err != nil {
			t.Fatal(err)
		}
		for _, p := range pages {
			styles := renderTT3Page(t, ctx, p, width.name, out, problems)
			report[p.name+"-"+width.name] = styles
		}
	}
	b, _ := json.MarshalIndent(report, "", "  ")
	if err := os.WriteFile(filepath.Join(out, "computed-styles.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots and computed styles in %s", out)
}

// renderTT3Page loads one page at the current width, checks its status,
// template, fonts, styles and browser problems, saves its screenshot, and
// returns the computed styles it read.
func renderTT3Page(t *testing.T, ctx context.Context, p tt3Page, width, out string, problems *browserProblems) map[string]string {
	t.Helper()
	res, err := chromedp.Run(ctx, chromedp.NavigateResponse(st.SiteURL+p.path))
	if err != nil || res.Status != int64(p.status) {
		t.Fatalf("%s: %v %v", p.name, res, err)
	}
	got := res.Headers["X-Siteplane-Template"]
	if got == nil {
		got = res.Headers["x-siteplane-template"]
	}
	if got != p.template {
		t.Errorf("%s: template %v, want %s", p.name, got, p.template)
	}
	// the theme's font files come from its directory, through the gateway
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.fonts.load('18px "DM Sans"').then((f) => f.length > 0 && f[0].status === "loaded")`,
		chromedp.EvalAwaitPromise))
	if err != nil || !loaded {
		t.Errorf("%s %s: DM Sans did not load: %v", p.name, width, err)
	}
	styles := map[string]string{}
	for _, c := range tt3Checks {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]any]("(() => { "+tt3Helpers+" return "+c.js+"; })()"))
		if err != nil || len(v) != 2 {
			t.Fatalf("%s %s: %s: %v", p.name, width, c.name, err)
		}
		got, want := fmt.Sprint(v[0]), fmt.Sprint(v[1])
		styles[c.name] = got
		if !samePx(got, want) {
			t.Errorf("%s %s: %s is %q, want %q", p.name, width, c.name, got, want)
		}
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, p.name+"-"+width+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	problems.mu.Lock()
	defer problems.mu.Unlock()
	for _, pr := range problems.list {
		// the 404 page's own status is the one HTTP error expected
		if !(p.status == 404 && (strings.HasPrefix(pr, "HTTP 404: "+st.SiteURL+p.path) ||
			strings.Contains(pr, "Failed to load resource: the server responded with a status of 404"))) {
			t.Errorf("%s %s: browser problem: %s", p.name, width, pr)
		}
	}
	problems.list = nil
	return styles
}

// samePx compares two computed values; lengths in px within half a pixel
// (layout rounds to device pixels).
func samePx(a, b string) bool {
	if a == b {
		return true
	}
	x, errA := strconv.ParseFloat(strings.TrimSuffix(a, "px"), 64)
	y, errB := strconv.ParseFloat(strings.TrimSuffix(b, "px"), 64)
	return strings.HasSuffix(a, "px") && strings.HasSuffix(b, "px") && errA == nil && errB == nil && math.Abs(x-y) <= 0.5
}
