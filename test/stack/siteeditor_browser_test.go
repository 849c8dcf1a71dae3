package stack

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The WordPress site editor at /cms-admin/site-editor.php in headless
// Chromium: an administrator's flows checked through REST and on the
// website, an editor's refusal. Every request is recorded: an unexpected
// 4xx/5xx, a failed request or a console error fails the test
// (editorExpected lists the expected ones).

// An administrator edits the home template and the header template part
// in the site editor, saves, and the website shows both at once (its edge
// cache and snapshot were primed before); then the template is reverted to
// the theme's file.
func TestSiteEditorTemplates(t *testing.T) {
	adminBuilt(t)
	rec := newEditorRecorder()
	ctx := editorBrowser(t, rec)
	// Leaving the editor while an entity it saved is still marked dirty
	// (a slow save's last request) asks; without an answer the next
	// navigation hangs. The assertions through REST and the website below
	// catch an edit that was not saved.
	acceptDialogs(t, ctx)
	password := newEditorUser(t, "site-templates", "administrator")
	// Prime the website's caches with the page as it is.
	if home := website(t, "/"); strings.Contains(home, "Fresh from the site editor") {
		t.Fatal("the home page already has the edit")
	}
	// The other tests of the stack see the theme's templates again.
	t.Cleanup(func() {
		for _, id := range []string{"templates/" + themeSlug() + "//home", "templates/" + themeSlug() + "//single", "template-parts/" + themeSlug() + "//header"} {
			call(t, "DELETE", "/cms-json/cms/v2/"+id, nil, admin()...)
		}
	})
	browserSignIn(t, ctx, "site-templates", password, "/cms-admin/site-editor.php")
	waitJS(t, ctx, "the site editor", `document.querySelector('.edit-site-layout')`)
	openSiteEditor(t, ctx, "/wp_template/"+themeSlug()+"//home", true)
	// docs/admin-site-editor.png is this view:
	// SITEPLANE_SITE_EDITOR_SCREENSHOT=docs/admin-site-editor.png.
	if out := os.Getenv("SITEPLANE_SITE_EDITOR_SCREENSHOT"); out != "" {
		time.Sleep(2 * time.Second)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err == nil {
			err = os.WriteFile(out, png, 0o644)
		}
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
	}
	codeEditor(t, ctx)
	editMarkup(t, ctx, "Latest posts</h1>", "Fresh from the site editor</h1>")
	saveSite(t, ctx)
	rec.check(t, "edit the home template")
	tpl := call(t, "GET", "/cms-json/cms/v2/templates/"+themeSlug()+"//home?context=edit", nil, admin()...)
	if src, _ := tpl.Obj()["source"].(string); src != "custom" || !strings.Contains(string(tpl.Raw), "Fresh from the site editor") {
		t.Fatalf("the template through REST: source %q\n%.600s", src, tpl.Raw)
	}
	if home := website(t, "/"); !strings.Contains(home, "Fresh from the site editor") {
		t.Fatal("the website does not show the edited template at once")
	}

	// The single template and the header template part.
	post := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "Seen through the single template", "status": "publish",
		"content": "<!-- wp:paragraph --><p>Body.</p><!-- /wp:paragraph -->"}, admin()...)
	link, _ := post.Obj()["link"].(string)
	single := strings.TrimPrefix(link, st.SiteURL)
	website(t, single)
	openSiteEditor(t, ctx, "/wp_template/"+themeSlug()+"//single", true)
	codeEditor(t, ctx)
	editMarkup(t, ctx, `"prefix":"Tags: "`, `"prefix":"Filed under: "`)
	saveSite(t, ctx)
	openSiteEditor(t, ctx, "/wp_template_part/"+themeSlug()+"//header", true)
	codeEditor(t, ctx)
	editMarkup(t, ctx, `<!-- wp:site-tagline {"textColor":"muted","fontSize":"small"} /-->`,
		`<!-- wp:site-tagline {"textColor":"muted","fontSize":"small"} /--><!-- wp:paragraph --><p>A header note from the site editor</p><!-- /wp:paragraph -->`)
	saveSite(t, ctx)
	rec.check(t, "edit the single template and the header")
	if page := website(t, single); !strings.Contains(page, "A header note from the site editor") {
		t.Fatal("the single post's page does not show the edited header at once")
	}
	part := call(t, "GET", "/cms-json/cms/v2/template-parts/"+themeSlug()+"//header?context=edit", nil, admin()...)
	if src, _ := part.Obj()["source"].(string); src != "custom" {
		t.Fatalf("the header through REST: source %q", src)
	}

	// Revert the header to the theme's file: the template part's actions
	// in the editor's sidebar, "Reset", confirmed. (The pinned
	// @wordpress/fields offers Reset for template parts; a template is
	// reverted by the REST client below, as WordPress's own tests do.)
	openSiteEditor(t, ctx, "/wp_template_part/"+themeSlug()+"//header", true)
	time.Sleep(time.Second)
	js(t, ctx, "open the settings sidebar", `document.querySelector('.editor-sidebar') || document.querySelector('.editor-header button[aria-label="Settings"]').click()`)
	clickButton(t, ctx, ".editor-sidebar", "Actions")
	waitJS(t, ctx, "the template part's actions", `[...document.querySelectorAll('[role="menuitem"]')].some(e => e.textContent.trim() === 'Reset')`)
	js(t, ctx, "choose Reset", `[...document.querySelectorAll('[role="menuitem"]')].find(e => e.textContent.trim() === 'Reset').click()`)
	clickButton(t, ctx, ".components-modal__frame", "Reset")
	waitJS(t, ctx, "the reset notice", `[...document.querySelectorAll('.components-snackbar')].some(s => /reset/i.test(s.textContent))`)
	rec.check(t, "revert the header")
	part = call(t, "GET", "/cms-json/cms/v2/template-parts/"+themeSlug()+"//header?context=edit", nil, admin()...)
	if src, _ := part.Obj()["source"].(string); src != "theme" || strings.Contains(string(part.Raw), "A header note") {
		t.Fatalf("the reverted header through REST: source %q", src)
	}
	if page := website(t, single); strings.Contains(page, "A header note from the site editor") {
		t.Fatal("the website still shows the reverted header")
	}
	if r := call(t, "DELETE", "/cms-json/cms/v2/templates/"+themeSlug()+"//home", nil, admin()...); r.Status != 200 {
		t.Fatalf("revert the home template: %d %s", r.Status, r.Raw)
	}
	if home := website(t, "/"); strings.Contains(home, "Fresh from the site editor") {
		t.Fatal("the website still shows the reverted home template")
	}
}

// An editor (edit_posts, not edit_theme_options) gets WordPress's refusal.
func TestSiteEditorRefusesAnEditor(t *testing.T) {
	adminBuilt(t)
	rec := newEditorRecorder()
	ctx := editorBrowser(t, rec)
	password := newEditorUser(t, "site-editor-editor", "editor")
	browserSignIn(t, ctx, "site-editor-editor", password, "/cms-admin/site-editor.php")
	waitJS(t, ctx, "the refusal", `document.body.innerText.includes('Sorry, you are not allowed to edit theme options on this site.')`)
	status, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`performance.getEntriesByType('navigation')[0].responseStatus`))
	if err != nil || status != 403 {
		t.Fatalf("the refusal's status: %v %v", status, err)
	}
}

func themeSlug() string { return "siteplane" }
