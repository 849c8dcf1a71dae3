package stack

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"siteplane.dev/services/pkg/contract"
)

// tt3MaxDifference is the share of differing pixels each page may have
// against WordPress's rendering of it: what was measured when the limits
// were last set plus 2 points. Five runs of the same code on this machine
// varied by at most 0.2 points (the run's ids and dates are the same text
// on both sides), and the kind of regression this comparison has caught
// moves far more: the listing 16 px lower on phones (a figure's margin)
// was 17 points of the front page, the search results without the pages
// WordPress lists 22 points, a block of the wrong height shifts every
// pixel below it. What is left is listed in docs/website.md ("Beside
// WordPress").
var tt3MaxDifference = map[string]float64{
	"front-desktop": 0.02, "single-desktop": 0.02, "page-desktop": 0.02, "category-desktop": 0.02,
	"search-desktop": 0.02, "404-desktop": 0.02,
	"front-mobile": 0.03, "single-mobile": 0.03, "page-mobile": 0.02, "category-mobile": 0.03,
	"search-mobile": 0.03, "404-mobile": 0.02,
}

// tt3Elements are the main elements whose computed styles are reported
// side by side: the first element each selector finds.
var tt3Elements = []struct{ name, css string }{
	{"body", "body"},
	{"header", "header"},
	{"site title", ".wp-block-site-title"},
	{"navigation", ".wp-block-navigation"},
	{"main", "main"},
	{"first heading", "main h1, main h2"},
	{"post title", "main .wp-block-post-title"},
	{"post date", "main .wp-block-post-date"},
	{"paragraph", "main p"},
	{"image", "main figure img"},
	{"pagination", ".wp-block-query-pagination"},
	{"search field", "main .wp-block-search__input"},
	{"footer", "footer"},
}

// tt3StylesJS reads, for each element, the properties compared.
const tt3StylesJS = `((els) => { const out = {};
for (const [name, css] of els) { const e = document.querySelector(css); if (!e) { out[name] = null; continue; }
  const s = getComputedStyle(e), r = e.getBoundingClientRect(), n = (v) => String(Math.round(v));
  out[name] = {"font-family": s.fontFamily.split(",")[0].replace(/"/g, ""), "font-size": s.fontSize, "font-weight": s.fontWeight,
    "line-height": s.lineHeight, "color": s.color, "background": s.backgroundColor,
    "box": n(r.left) + "," + n(r.top + scrollY) + " " + n(r.width) + "×" + n(r.height)}; }
return out; })`

// tt3Ready makes lazy images load and waits for them and the fonts, so
// both sites are photographed complete.
const tt3Ready = `(async () => { for (const i of document.images) i.loading = "eager";
await Promise.all([...document.images].map((i) => i.complete ? null : new Promise((ok) => { i.onload = i.onerror = ok; })));
await document.fonts.ready; return true; })()`

// Twenty Twenty-Three on Siteplane beside WordPress 6.9 rendering it (a
// copy of the peer, hack/wp-theme-copy.sh; run by make test-differential):
// the same ten posts (one with an image), page and category are created on
// both through REST, and the six page kinds are loaded on both in headless
// Chromium at desktop and mobile widths. Per page it reports the share of
// differing pixels and the main elements' computed styles side by side
// (.cache/test-output/tt3-wordpress/: both screenshots, report.md), and
// fails when a page differs more than tt3MaxDifference allows. It wants
// the stack to itself (as make test-differential runs it): pages other
// tests create would join the header's page list on Siteplane only.
func TestBrowserTwentyTwentyThreeBesideWordPress(t *testing.T) {
	needs(t, contract.ServiceContent, contract.ServiceMedia)
	tt3Dir(t)
	wp := wordPressTT3(t)
	// the same title and tagline as Siteplane's site file (useTT3)
	wp.call(t, "POST", "settings", map[string]any{"title": "Stack Test", "description": "Siteplane under test", "posts_per_page": 10}, 200)
	wp.deletePages(t)
	run := randomHex(3)
	jpeg := sampleJPEG(t, 1200, 800)
	base := time.Now().UTC().Add(-20 * time.Second).Truncate(time.Second)
	sides := []tt3Side{siteplaneSide(t), wordpressSide(t, wp)}
	fixtures := []tt3Fixture{makeTT3Fixture(t, sides[0], run, jpeg, base), makeTT3Fixture(t, sides[1], run, jpeg, base)}
	useTT3(t)

	out := testOutput(t, "tt3-wordpress")
	wpHost, _ := url.Parse(wp.base)
	ctx := newBrowserContextFor(t, 4*time.Minute, chromedp.Flag("host-resolver-rules", "MAP "+wpHost.Hostname()+" 127.0.0.1"))
	var report strings.Builder
	report.WriteString("# Twenty Twenty-Three: Siteplane beside WordPress\n")
	var failed []string
	for _, width := range tt3Widths {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width.w, width.h)); err != nil {
			t.Fatal(err)
		}
		for _, kind := range []string{"front", "single", "page", "category", "search", "404"} {
			name := kind + "-" + width.name
			var shots [2][]byte
			var styles [2]map[string]any
			for i, s := range sides {
				shots[i], styles[i] = renderForComparison(t, ctx, s.base+tt3Path(kind, s.base, fixtures[i], run), name)
				if err := os.WriteFile(filepath.Join(out, name+"-"+s.name+".png"), shots[i], 0o644); err != nil {
					t.Fatal(err)
				}
			}
			diff, err := pixelDifference(shots[0], shots[1])
			if err != nil {
				t.Fatal(err)
			}
			n := writeStylesTable(&report, name, diff, styles)
			t.Logf("%-16s %5.1f%% of pixels differ, %d computed values differ", name, 100*diff, n)
			if limit := tt3MaxDifference[name]; diff > limit {
				failed = append(failed, fmt.Sprintf("%s: %.1f%% (at most %.1f%%)", name, 100*diff, 100*limit))
			}
		}
	}
	if err := os.WriteFile(filepath.Join(out, "report.md"), []byte(report.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots and report.md in %s", out)
	if len(failed) > 0 {
		t.Errorf("pages differing from WordPress's more than before: %s", strings.Join(failed, ", "))
	}
}

// tt3Path is the path of a page kind on one side.
func tt3Path(kind, base string, f tt3Fixture, run string) string {
	switch kind {
	case "single":
		return strings.TrimPrefix(f.post, base)
	case "page":
		return strings.TrimPrefix(f.page, base)
	case "category":
		return "/category/" + f.category + "/"
	case "search":
		return "/?s=" + run
	case "404":
		return "/no-such-page-" + run + "/"
	}
	return "/"
}

// renderForComparison loads a page, waits for its images and fonts, and
// returns its full screenshot and the computed styles of tt3Elements.
func renderForComparison(t *testing.T, ctx context.Context, u, name string) ([]byte, map[string]any) {
	t.Helper()
	res, err := chromedp.Run(ctx, chromedp.NavigateResponse(u))
	want := int64(200)
	if strings.HasPrefix(name, "404") {
		want = 404
	}
	if err != nil || res.Status != want {
		t.Fatalf("%s: %s: %v %v", name, u, res, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](tt3Ready, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("%s: %s: %v", name, u, err)
	}
	var els [][2]string
	for _, e := range tt3Elements {
		els = append(els, [2]string{e.name, e.css})
	}
	arg, _ := json.Marshal(els)
	styles, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](tt3StylesJS+"("+string(arg)+")"))
	if err != nil {
		t.Fatalf("%s: styles: %v", name, err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	return png, styles
}

// writeStylesTable adds a page's figures and its elements' computed styles
// (Siteplane | WordPress, differences marked) to the report, and returns
// how many values differ.
func writeStylesTable(w *strings.Builder, name string, diff float64, styles [2]map[string]any) int {
	fmt.Fprintf(w, "\n## %s: %.1f%% of pixels differ\n\n| element | property | Siteplane | WordPress |\n|---|---|---|---|\n", name, 100*diff)
	differ := 0
	for _, e := range tt3Elements {
		a, _ := styles[0][e.name].(map[string]any)
		b, _ := styles[1][e.name].(map[string]any)
		if a == nil || b == nil {
			if a != nil || b != nil {
				differ++
				fmt.Fprintf(w, "| %s | (present) | **%v** | **%v** |\n", e.name, a != nil, b != nil)
			}
			continue
		}
		props := make([]string, 0, len(a))
		for p := range a {
			props = append(props, p)
		}
		sort.Strings(props)
		for _, p := range props {
			x, y := fmt.Sprint(a[p]), fmt.Sprint(b[p])
			if x != y {
				differ++
				x, y = "**"+x+"**", "**"+y+"**"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s |\n", e.name, p, x, y)
		}
	}
	return differ
}
