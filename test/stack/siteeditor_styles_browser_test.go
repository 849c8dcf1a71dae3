package stack

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The site editor's Styles in headless Chromium (docs/admin.md, "The site
// editor"): an administrator switches the theme's style variation, changes
// the background colour and the site's font size, saves, and the website
// shows it at once (REST and an anonymous visitor's computed styles); then
// restores an earlier styles revision from the revisions panel. Every
// request is recorded as in siteeditor_browser_test.go.

// The Midnight variation's colours (the built-in theme's
// styles/midnight.json) as the browser computes them.
const (
	midnightBase   = "rgb(20, 22, 27)"    // #14161b
	midnightText   = "rgb(233, 231, 225)" // #e9e7e1
	midnightSubtle = "rgb(35, 38, 45)"    // #23262d
)

func TestSiteEditorStyles(t *testing.T) {
	adminBuilt(t)
	rec := newEditorRecorder()
	ctx := editorBrowser(t, rec)
	acceptDialogs(t, ctx)
	password := newEditorUser(t, "site-styles", "administrator")
	gs := userGlobalStyles(t)
	// The other tests of the stack see the theme's styles again.
	t.Cleanup(func() {
		call(t, "POST", gs, map[string]any{"settings": map[string]any{}, "styles": map[string]any{}}, admin()...)
	})
	// Prime the website's caches with the page as it is.
	website(t, "/")
	browserSignIn(t, ctx, "site-styles", password, "/cms-admin/site-editor.php?p=%2Fstyles")
	waitJS(t, ctx, "the site editor", `document.querySelector('.edit-site-layout')`)
	closeWelcomeGuides(t, ctx)
	width := previewWidth(t, ctx)
	visitor := visitorBrowser(t, width)

	// A style variation: Browse styles, Midnight, save.
	clickButton(t, ctx, ".components-navigator-screen", "Browse styles")
	waitJS(t, ctx, "the style variations", `document.querySelector('.edit-site-global-styles-variations_item[aria-label="Midnight"]')`)
	js(t, ctx, "choose Midnight", `document.querySelector('.edit-site-global-styles-variations_item[aria-label="Midnight"]').click()`)
	saveStyles(t, ctx, gs, func(o map[string]any) bool { return paletteBase(o) == "#14161b" })
	rec.check(t, "switch the style variation")
	visitorSees(t, visitor, "the variation", map[string]string{"body.backgroundColor": midnightBase, "body.color": midnightText})

	// The background colour (the palette's Subtle) and the site's font
	// size (Typography → Text → Large).
	stylesScreen(t, ctx, "Back", "Colors")
	stylesScreen(t, ctx, "Colors", "Edit palette")
	clickButton(t, ctx, ".components-navigator-screen", "Background")
	clickButton(t, ctx, ".components-popover", "Subtle")
	stylesScreen(t, ctx, "Back", "Typography")
	stylesScreen(t, ctx, "Typography", "AaText")
	stylesScreen(t, ctx, "AaText", "Large")
	clickButton(t, ctx, ".components-navigator-screen", "Large")
	canvasSize := evalString(t, ctx, `getComputedStyle(`+stylesPreviewJS+`.body).fontSize`)
	saveStyles(t, ctx, gs, func(o map[string]any) bool {
		return jsonAt(o, "styles", "color", "background") == "var:preset|color|subtle" &&
			jsonAt(o, "styles", "typography", "fontSize") == "var:preset|font-size|large" && paletteBase(o) == "#14161b"
	})
	rec.check(t, "change the background colour and the font size")
	visitorSees(t, visitor, "the colour and font size", map[string]string{"body.backgroundColor": midnightSubtle, "body.fontSize": canvasSize})

	// The revisions panel: the earlier revision (the variation alone),
	// Apply, save.
	js(t, ctx, "open the revisions", `[...document.querySelectorAll('button')].find(b => /^\d+ Revisions?$/.test(b.textContent.trim())).click()`)
	// The Styles welcome guide opens over the editor here; Escape does
	// not reach it (the focus stays in the editor): its Close button.
	time.Sleep(time.Second)
	js(t, ctx, "close the Styles guide", `document.querySelector('.components-guide button[aria-label="Close"]')?.click()`)
	closeWelcomeGuides(t, ctx)
	// The list renders again as the revisions load: click the second saved
	// revision until it stays selected.
	waitJS(t, ctx, "the earlier revision selected", `(() => {
		const e = [...document.querySelectorAll('.edit-site-global-styles-screen-revisions__revision-item')]
			.filter(i => /^Changes saved/.test(i.getAttribute('aria-label')))[1];
		if (e && e.getAttribute('aria-selected') !== 'true') e.click();
		return e && e.getAttribute('aria-selected') === 'true' })()`)
	clickButton(t, ctx, "body", "Apply")
	saveStyles(t, ctx, gs, func(o map[string]any) bool {
		return jsonAt(o, "styles", "color", "background") == nil && jsonAt(o, "styles", "typography", "fontSize") == nil && paletteBase(o) == "#14161b"
	})
	rec.check(t, "restore the earlier revision")
	visitorSees(t, visitor, "the restored revision", map[string]string{"body.backgroundColor": midnightBase, "body.color": midnightText})
}

// stylesScreen moves to another screen of the Styles panel (the button
// open) and waits until it shows (the button until) and its slide has
// ended, so the next click cannot land on the screen it left.
func stylesScreen(t *testing.T, ctx context.Context, open, until string) {
	t.Helper()
	clickButton(t, ctx, ".components-navigator-screen", open)
	waitJS(t, ctx, "the button "+until, `[...document.querySelectorAll('.components-navigator-screen button')].some(b => (b.textContent.trim() === `+jsString(until)+
		` || b.getAttribute('aria-label') === `+jsString(until)+`) && b.offsetParent) && document.querySelectorAll('.components-navigator-screen').length === 1`)
	time.Sleep(300 * time.Millisecond)
}

// stylesPreviewJS is the document of the site editor's preview beside the
// Styles panel (the editor canvas once a revision is open).
const stylesPreviewJS = `[...document.querySelectorAll('iframe')].pop().contentDocument`

// userGlobalStyles is the REST path of the person's global styles post
// (the active theme's wp:user-global-styles link).
func userGlobalStyles(t *testing.T) string {
	t.Helper()
	r := call(t, "GET", "/cms-json/cms/v2/themes?status=active", nil, admin()...)
	var themes []struct {
		Links map[string][]struct {
			Href string `json:"href"`
		} `json:"_links"`
	}
	if err := json.Unmarshal(r.Raw, &themes); err != nil || len(themes) != 1 || len(themes[0].Links["wp:user-global-styles"]) != 1 {
		t.Fatalf("the active theme: %v %.300s", err, r.Raw)
	}
	return strings.TrimPrefix(themes[0].Links["wp:user-global-styles"][0].Href, st.SiteURL)
}

// paletteBase is the colour of the Base slug of the user's theme palette
// (a style variation's), "" without one.
func paletteBase(o map[string]any) string {
	list, _ := jsonAt(o, "settings", "color", "palette", "theme").([]any)
	for _, c := range list {
		if m, _ := c.(map[string]any); m["slug"] == "base" {
			s, _ := m["color"].(string)
			return s
		}
	}
	return ""
}

// saveStyles saves the editor's changes (saveSite, after dismissing the
// notices of an earlier save) and waits until the global styles post reads
// as want says through REST.
func saveStyles(t *testing.T, ctx context.Context, gs string, want func(map[string]any) bool) {
	t.Helper()
	js(t, ctx, "dismiss the notices", `document.querySelectorAll('.components-snackbar').forEach(s => s.click())`)
	waitJS(t, ctx, "no notices", `!document.querySelector('.components-snackbar')`)
	saveSite(t, ctx)
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := call(t, "GET", gs+"?context=edit", nil, admin()...)
		if r.Status == 200 && want(r.Obj()) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the global styles through REST: %d %.800s", r.Status, r.Raw)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// previewWidth is the width of the site editor's preview frame: the
// anonymous visitor's window has the same, so fluid font sizes (vw) come
// out the same.
func previewWidth(t *testing.T, ctx context.Context) int64 {
	t.Helper()
	waitJS(t, ctx, "the preview", stylesPreviewJS+`.body.clientWidth > 0`)
	w, err := chromedp.Run(ctx, chromedp.Evaluate[int64](`[...document.querySelectorAll('iframe')].pop().clientWidth`))
	if err != nil || w < 320 {
		t.Fatalf("the preview's width: %d %v", w, err)
	}
	return w
}

// visitorBrowser is a second Chromium, signed in as no one, whose window
// is width pixels wide.
func visitorBrowser(t *testing.T, width int64) context.Context {
	t.Helper()
	ctx := newBrowserContextFor(t, 4*time.Minute)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 1000)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// visitorSees loads the home page as the anonymous visitor, once (no
// retry: the save must be on the website at once, past its edge cache and
// snapshot), and checks computed styles ("selector.property" → value).
func visitorSees(t *testing.T, ctx context.Context, what string, want map[string]string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.NavigateResponse(st.SiteURL+"/")); err != nil {
		t.Fatalf("%s: the home page: %v", what, err)
	}
	for key, value := range want {
		sel, prop, _ := strings.Cut(key, ".")
		got := evalString(t, ctx, `getComputedStyle(document.querySelector(`+jsString(sel)+`))[`+jsString(prop)+`]`)
		if got != value {
			t.Errorf("%s: the website's %s is %q, want %q", what, key, got, value)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

// evalString evaluates a JavaScript expression whose value is a string.
func evalString(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return s
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// jsonAt reads a nested member of decoded JSON (nil when absent).
func jsonAt(v any, path ...string) any {
	if len(path) == 0 || v == nil {
		return v
	}
	m, _ := v.(map[string]any)
	return jsonAt(m[path[0]], path[1:]...)
}
