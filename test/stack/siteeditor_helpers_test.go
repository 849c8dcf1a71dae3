package stack

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Helpers of the site editor's browser tests (siteeditor_browser_test.go).

// siteEditorURL is the site editor on one of its routes (?p=…).
func siteEditorURL(p string, canvas bool) string {
	u := st.SiteURL + "/cms-admin/site-editor.php?p=" + strings.ReplaceAll(strings.ReplaceAll(p, "/", "%2F"), " ", "%20")
	if canvas {
		u += "&canvas=edit"
	}
	return u
}

// openSiteEditor navigates to a route of the site editor and waits for
// its frame (and, with canvas, for the editor canvas's blocks).
func openSiteEditor(t *testing.T, ctx context.Context, p string, canvas bool) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.NavigateResponse(siteEditorURL(p, canvas))); err != nil {
		t.Fatalf("open %s: %v", p, err)
	}
	waitJS(t, ctx, "the site editor", `document.querySelector('.edit-site-layout')`)
	closeWelcomeGuides(t, ctx)
	if canvas {
		waitJS(t, ctx, "the canvas's blocks", canvasJS+`.querySelector('.is-root-container .wp-block')`)
	}
}

// closeWelcomeGuides closes the site editor's welcome guides (the editor,
// the styles, the template's), which open on a person's first visit.
func closeWelcomeGuides(t *testing.T, ctx context.Context) {
	t.Helper()
	for range 20 {
		time.Sleep(300 * time.Millisecond)
		open, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('.components-guide')`))
		if err != nil {
			t.Fatal(err)
		}
		if !open {
			return
		}
		// Escape closes a guide, as a person does.
		_ = chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape))
	}
	t.Fatal("a welcome guide stays open")
}

// codeEditor switches the editor to its code editor (Ctrl+Shift+Alt+M, as
// a person does) and waits for the markup's textarea.
func codeEditor(t *testing.T, ctx context.Context) {
	t.Helper()
	js(t, ctx, "focus the canvas", canvasJS+`.querySelector('.is-root-container').focus()`)
	mods := chromedp.KeyModifiers(chromedp.ModifierCtrl, chromedp.ModifierShift, chromedp.ModifierAlt)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("m", mods)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the code editor", `document.querySelector('textarea.editor-post-text-editor')`)
}

// editMarkup replaces old with new in the code editor's markup, as typing
// does (the textarea's input event), and leaves the code editor.
func editMarkup(t *testing.T, ctx context.Context, old, repl string) {
	t.Helper()
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const ta = document.querySelector('textarea.editor-post-text-editor');
		if (!ta.value.includes(`+strconv.Quote(old)+`)) return false;
		const set = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
		ta.focus(); set.call(ta, ta.value.replace(`+strconv.Quote(old)+`, `+strconv.Quote(repl)+`));
		ta.dispatchEvent(new Event('input', {bubbles: true})); ta.blur(); return true })()`))
	if err != nil || !ok {
		t.Fatalf("the code editor's markup lacks %q (%v)", old, err)
	}
	js(t, ctx, "exit the code editor", `[...document.querySelectorAll('button')].find(b => b.textContent.trim() === 'Exit code editor').click()`)
	waitJS(t, ctx, "the visual editor", canvasJS+`.querySelector('.is-root-container .wp-block')`)
}

// clickButton clicks the first visible, enabled button whose text or
// label is name, inside any of the comma-separated scopes.
func clickButton(t *testing.T, ctx context.Context, scope, name string) {
	t.Helper()
	parts := strings.Split(scope, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p) + " button"
	}
	find := `[...document.querySelectorAll(` + strconv.Quote(strings.Join(parts, ", ")) + `)].find(b => (b.textContent.trim() === ` + strconv.Quote(name) +
		` || b.getAttribute('aria-label') === ` + strconv.Quote(name) + `) && b.offsetParent && !b.disabled && b.getAttribute('aria-disabled') !== 'true')`
	waitJS(t, ctx, "the button "+name, find)
	js(t, ctx, "click "+name, find+`.click()`)
}

// saveSite saves the edits: the editor header's Save (or, beside the
// canvas, the save hub's "Review N changes…"), then the save panel's
// Save when the editor asks which changes to save; waits for the notice.
func saveSite(t *testing.T, ctx context.Context) {
	t.Helper()
	find := `[...document.querySelectorAll('.editor-header button, .edit-site-save-hub button')].find(b => /^(Save|Review \d+ changes?…)$/.test(b.textContent.trim()) && b.offsetParent && !b.disabled && b.getAttribute('aria-disabled') !== 'true')`
	waitJS(t, ctx, "a Save button", find)
	js(t, ctx, "click Save", find+`.click()`)
	saved := `[...document.querySelectorAll('.components-snackbar')].some(s => /updated|saved/i.test(s.textContent))`
	confirm := `document.querySelector('.editor-entities-saved-states__save-button:not([aria-disabled="true"])')`
	waitJS(t, ctx, "the save panel or the saved edits", saved+` || `+confirm)
	js(t, ctx, "confirm in the save panel", confirm+`?.click()`)
	waitJS(t, ctx, "the saved edits", saved)
}

// website reads a page of the website as an anonymous visitor.
func website(t *testing.T, path string) string {
	t.Helper()
	r := call(t, "GET", path, nil)
	if r.Status != 200 {
		t.Fatalf("GET %s: %d", path, r.Status)
	}
	return string(r.Raw)
}
