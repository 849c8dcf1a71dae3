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

// clickButton clicks the first visible button whose text or label is name.
func clickButton(t *testing.T, ctx context.Context, scope, name string) {
	t.Helper()
	q := strconv.Quote(name)
	waitJS(t, ctx, "the button "+name, `[...document.querySelectorAll(`+strconv.Quote(scope+" button")+`)].find(b => (b.textContent.trim() === `+q+` || b.getAttribute('aria-label') === `+q+`) && b.offsetParent && !b.disabled && b.getAttribute('aria-disabled') !== 'true')`)
	js(t, ctx, "click "+name, `[...document.querySelectorAll(`+strconv.Quote(scope+" button")+`)].find(b => (b.textContent.trim() === `+q+` || b.getAttribute('aria-label') === `+q+`) && b.offsetParent && !b.disabled && b.getAttribute('aria-disabled') !== 'true').click()`)
}

// saveSite saves the edits: the header's Save, then the save panel's
// Save when the editor asks which changes to save; waits for nothing left
// to save.
func saveSite(t *testing.T, ctx context.Context) {
	t.Helper()
	clickButton(t, ctx, ".editor-header", "Save")
	time.Sleep(400 * time.Millisecond)
	js(t, ctx, "confirm in the save panel", `document.querySelector('.editor-entities-saved-states__save-button')?.click()`)
	waitJS(t, ctx, "the saved edits", `[...document.querySelectorAll('.components-snackbar')].some(s => /updated|saved/i.test(s.textContent))`)
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
