package stack

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"siteplane.dev/services/pkg/contract"
)

// The screenshot at the top of docs/admin.md's site editor section: the
// site editor on the home template of the demo site, the data `make run`
// writes (`content seed-demo`), not the test stack's. It runs only when
// SITEPLANE_SITE_EDITOR_DEMO_SCREENSHOT names the file, and it seeds the
// demo site into the stack, so it is run alone:
//
//	SITEPLANE_SITE_EDITOR_DEMO_SCREENSHOT=$PWD/docs/admin-site-editor.png \
//	  go test -run TestSiteEditorDemoScreenshot ./test/stack/
func TestSiteEditorDemoScreenshot(t *testing.T) {
	out := os.Getenv("SITEPLANE_SITE_EDITOR_DEMO_SCREENSHOT")
	if out == "" {
		t.Skip("SITEPLANE_SITE_EDITOR_DEMO_SCREENSHOT is not set")
	}
	adminBuilt(t)
	seed := exec.Command(st.bins[contract.ServiceContent], "seed-demo")
	seed.Env = st.env(contract.ServiceContent)
	if report, err := seed.CombinedOutput(); err != nil {
		t.Fatalf("content seed-demo: %v\n%s", err, report)
	}
	// make run's site: the default title and tagline (the stack's are its own).
	demo := contract.DefaultSite(st.SiteURL)
	if r := call(t, "POST", "/cms-json/cms/v2/settings", map[string]any{"title": demo.Title, "description": demo.Description}, admin()...); r.Status != 200 {
		t.Fatalf("the demo site's title: %d %s", r.Status, r.Raw)
	}
	t.Cleanup(func() {
		call(t, "POST", "/cms-json/cms/v2/settings", map[string]any{"title": "Stack Test", "description": "Siteplane under test"}, admin()...)
	})
	rec, ctx := siteEditorAdmin(t, "site-demo")
	signInToSiteEditor(t, ctx, "site-demo")
	openSiteEditor(t, ctx, "/wp_template/"+themeSlug()+"//home", true)
	// The query loop's other posts are previews the editor renders after
	// the first: three shown.
	waitJS(t, ctx, "the demo posts in the canvas", `[...`+canvasJS+`.querySelectorAll('.wp-block-post-title')].filter(e => e.getClientRects().length > 0).length >= 3`)
	waitJS(t, ctx, "the menu's links in the canvas", canvasJS+`.querySelector('.wp-block-navigation')?.textContent.includes('Demo page 1')`)
	// The navigation and the query loop load their data; the fonts settle.
	time.Sleep(3 * time.Second)
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.WriteFile(out, png, 0o644)
	}
	if err != nil {
		t.Fatalf("the screenshot %s: %v", out, err)
	}
	rec.check(t, "open the demo site's home template")
}
