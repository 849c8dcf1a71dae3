package stack

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplane.dev/services/pkg/contract"
)

// The WordPress block editor at /cms-admin/, driven in headless Chromium as
// an author and as a contributor: every request it makes is recorded, and
// an unexpected 4xx/5xx, a failed request or a console error fails the
// test (editorExpected lists the few expected ones, each with its reason).

// newEditorUser creates a person with a login password.
func newEditorUser(t *testing.T, login, role string) string {
	t.Helper()
	password := "typed by " + login + " 9"
	r := call(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": login, "email": login + "@example.com",
		"password": password, "roles": []string{role}}, admin()...)
	if r.Status != 201 {
		t.Fatalf("create %s: %d %s", login, r.Status, r.Raw)
	}
	return password
}

func waitEditor(t *testing.T, ctx context.Context) {
	t.Helper()
	waitJS(t, ctx, "an editable title", canvasJS+`.querySelector('.editor-post-title__input[contenteditable="true"]')`)
	js(t, ctx, "close the welcome guide", `document.querySelector('.edit-post-welcome-guide button[aria-label="Close"]')?.click()`)
	waitJS(t, ctx, "the welcome guide closed", `!document.querySelector('.edit-post-welcome-guide')`)
}

// writeBlocks types the title and the blocks with the keyboard: markdown
// shortcuts make the heading and the list, as a person types them.
func writeBlocks(t *testing.T, ctx context.Context, title string) {
	t.Helper()
	js(t, ctx, "focus the title", canvasJS+`.querySelector('.editor-post-title__input').focus()`)
	typeKeys(t, ctx, title, kb.Enter, "## A heading typed", kb.Enter, "The first paragraph.", kb.Enter,
		"The second paragraph.", kb.Enter, "- One item", kb.Enter, "Another item", kb.Enter, kb.Enter)
	waitJS(t, ctx, "the list", canvasJS+`.querySelectorAll('ul.wp-block-list li').length === 2`)
}

// insertImage inserts an image block with the slash inserter and uploads
// a file through its upload button's file chooser.
func insertImage(t *testing.T, ctx context.Context, file string) {
	t.Helper()
	typeKeys(t, ctx, "/image")
	waitJS(t, ctx, "the inserter's suggestions", `[...document.querySelectorAll('.components-autocomplete__result')].some(e => e.textContent.trim() === 'Image')`)
	typeKeys(t, ctx, kb.Enter)
	waitJS(t, ctx, "the image placeholder", canvasJS+`.querySelector('.wp-block-image input[type="file"]')`)
	chooseFile(t, ctx, canvasJS+`.querySelector('.wp-block-image input[type="file"]')`, file)
	waitJS(t, ctx, "the uploaded image", canvasJS+`.querySelector('.wp-block-image img[src^="`+st.SiteURL+`/cms-content/uploads/"]')`)
}

// dropImage inserts another image block after the selected one and drops
// a file onto its placeholder.
func dropImage(t *testing.T, ctx context.Context, file string) {
	t.Helper()
	uploaded := canvasJS + `.querySelectorAll('.wp-block-image img[src^="` + st.SiteURL + `/cms-content/uploads/"]').length`
	js(t, ctx, "after the image", canvasJS+`.querySelector('.wp-block-image figcaption, .wp-block-image')?.focus()`)
	typeKeys(t, ctx, kb.Enter, "/image")
	waitJS(t, ctx, "the inserter's suggestions", `[...document.querySelectorAll('.components-autocomplete__result')].some(e => e.textContent.trim() === 'Image')`)
	typeKeys(t, ctx, kb.Enter)
	placeholder := canvasJS + `.querySelector('.wp-block-image.is-selected .components-placeholder, .wp-block-image .components-placeholder')`
	waitJS(t, ctx, "a second image placeholder", placeholder)
	dropFile(t, ctx, placeholder, file)
	waitJS(t, ctx, "the dropped image uploaded", uploaded+` === 2`)
}

// openPostSidebar opens the settings sidebar on its Post tab and expands
// the named panels.
func openPostSidebar(t *testing.T, ctx context.Context, panels ...string) {
	t.Helper()
	js(t, ctx, "open the sidebar", `if (!document.querySelector('.editor-sidebar')) document.querySelector('button[aria-label="Settings"]').click()`)
	waitJS(t, ctx, "the sidebar", `document.querySelector('.editor-sidebar')`)
	js(t, ctx, "the Post tab", `[...document.querySelectorAll('.editor-sidebar [role="tab"]')].find(e => e.textContent.trim() === 'Post')?.click()`)
	for _, p := range panels {
		js(t, ctx, "open "+p, `const b = [...document.querySelectorAll('.components-panel__body-toggle')].find(e => e.textContent.trim() === '`+p+`');
			if (b && b.getAttribute('aria-expanded') !== 'true') b.click()`)
		waitJS(t, ctx, p+" open", `[...document.querySelectorAll('.components-panel__body-toggle')].find(e => e.textContent.trim() === '`+p+`')?.getAttribute('aria-expanded') === 'true'`)
	}
}

// publish clicks the header's publish toggle and the panel's button
// (labelled label), then waits for the post to have status.
func publish(t *testing.T, ctx context.Context, id, label, status string) {
	t.Helper()
	js(t, ctx, "the publish toggle", `document.querySelector('.editor-post-publish-panel__toggle, .editor-post-publish-button__button').click()`)
	waitJS(t, ctx, "the publish panel's "+label, `[...document.querySelectorAll('.editor-post-publish-panel .editor-post-publish-button')].find(e => e.textContent.trim() === '`+label+`')`)
	js(t, ctx, label, `document.querySelector('.editor-post-publish-panel .editor-post-publish-button').click()`)
	deadline := time.Now().Add(30 * time.Second)
	for restPost(t, id)["status"] != status {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the post never became %s", label, status)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// restPost reads a post with its raw fields.
func restPost(t *testing.T, id string) map[string]any {
	t.Helper()
	r := call(t, "GET", "/cms-json/cms/v2/posts/"+id+"?context=edit", nil, admin()...)
	if r.Status != 200 {
		t.Fatalf("read post %s: %d %s", id, r.Status, r.Raw)
	}
	return r.Obj()
}

func TestEditorAuthorWritesAndUpdatesAPost(t *testing.T) {
	needs(t, contract.ServiceContent, contract.ServiceMedia)
	adminBuilt(t)
	password := newEditorUser(t, "editor-author", "author")
	category := create(t, "categories", map[string]any{"name": "Written in the editor"})
	catID := fmt.Sprint(category["id"])
	rec := newEditorRecorder()
	ctx := editorBrowser(t, rec)

	// Anonymous: the admin sends the browser to the sign-in page and back.
	browserSignIn(t, ctx, "editor-author", password, "/cms-admin/post-new.php")
	waitEditor(t, ctx)
	rec.check(t, "open the editor")
	// The canvas has the theme's global styles (its theme.json presets).
	waitJS(t, ctx, "the theme's styles in the canvas", canvasJS+`.defaultView.getComputedStyle(`+canvasJS+`.body).getPropertyValue('--wp--style--global--content-size').trim() !== ''`)
	id := editorPostID(t, ctx)

	writeBlocks(t, ctx, "Typed in the block editor")
	insertImage(t, ctx, testImage(t, "editor-upload.png"))
	dropImage(t, ctx, testImage(t, "editor-dropped.png"))
	openPostSidebar(t, ctx, "Categories", "Tags")
	categoryLabel := `[...document.querySelectorAll('.editor-post-taxonomies__hierarchical-terms-choice label')].find(e => e.textContent.trim() === 'Written in the editor')`
	waitJS(t, ctx, "the category's checkbox", categoryLabel)
	js(t, ctx, "tick the category", categoryLabel+`.click()`)
	js(t, ctx, "focus the tag field", `document.querySelector('.editor-post-taxonomies__flat-term-selector input, .components-form-token-field__input').focus()`)
	typeKeys(t, ctx, "fresh-editor-tag", kb.Enter)
	waitJS(t, ctx, "the new tag", `[...document.querySelectorAll('.components-form-token-field__token-text')].some(e => e.textContent.includes('fresh-editor-tag'))`)
	// The featured image, picked in the admin's media dialog.
	js(t, ctx, "set featured image", `document.querySelector('.editor-post-featured-image__toggle').click()`)
	waitJS(t, ctx, "the media dialog", `document.querySelector('.siteplane-media__item')`)
	js(t, ctx, "pick the image", `document.querySelector('.siteplane-media__item').click()`)
	js(t, ctx, "select", `[...document.querySelectorAll('.siteplane-media__bar button')].find(e => e.textContent.trim() === 'Select').click()`)
	waitJS(t, ctx, "the featured image", `document.querySelector('.editor-post-featured-image__preview img, .editor-post-featured-image__container img')`)
	publish(t, ctx, id, "Publish", "publish")
	rec.check(t, "publish")

	// What the editor stored, through REST.
	post := restPost(t, id)
	raw := post["content"].(map[string]any)["raw"].(string)
	for _, want := range []string{
		"<!-- wp:heading -->\n<h2 class=\"wp-block-heading\">A heading typed</h2>\n<!-- /wp:heading -->",
		"<!-- wp:paragraph -->\n<p>The first paragraph.</p>\n<!-- /wp:paragraph -->",
		"<!-- wp:paragraph -->\n<p>The second paragraph.</p>\n<!-- /wp:paragraph -->",
		"<!-- wp:list -->\n<ul class=\"wp-block-list\"><!-- wp:list-item -->\n<li>One item</li>\n<!-- /wp:list-item -->\n\n<!-- wp:list-item -->\n<li>Another item</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list -->",
		"<!-- wp:image {\"id\":",
	} {
		if !strings.Contains(raw, want) {
			t.Errorf("stored content lacks %q:\n%s", want, raw)
		}
	}
	if n := strings.Count(raw, "<!-- wp:image "); n != 2 {
		t.Errorf("%d image blocks stored, want the uploaded and the dropped one:\n%s", n, raw)
	}
	if post["status"] != "publish" || post["title"].(map[string]any)["raw"] != "Typed in the block editor" {
		t.Errorf("status %v, title %v", post["status"], post["title"])
	}
	if cats := fmt.Sprint(post["categories"]); !strings.Contains(cats, catID) {
		t.Errorf("categories %s, want %s", cats, catID)
	}
	tags := call(t, "GET", "/cms-json/cms/v2/tags?slug=fresh-editor-tag", nil)
	if list, _ := tags.JSON.([]any); len(list) != 1 || !strings.Contains(fmt.Sprint(post["tags"]), fmt.Sprint(list[0].(map[string]any)["id"])) {
		t.Errorf("the new tag: %s; post tags %v", tags.Raw, post["tags"])
	}
	if fmt.Sprint(post["featured_media"]) == "0" {
		t.Errorf("no featured image")
	}
	// The website renders it.
	page := call(t, "GET", strings.TrimPrefix(post["link"].(string), st.SiteURL), nil)
	for _, want := range []string{"A heading typed", "The first paragraph.", "Another item", "wp-image-"} {
		if page.Status != 200 || !strings.Contains(string(page.Raw), want) {
			t.Errorf("the website's page (%d) lacks %q", page.Status, want)
		}
	}

	// Reopen, edit a paragraph, update: a revision records it.
	mark := rec.mark()
	if err := chromedp.Do(ctx, chromedp.Navigate(st.SiteURL+"/cms-admin/post.php?post="+id+"&action=edit")); err != nil {
		t.Fatal(err)
	}
	waitEditor(t, ctx)
	// For the record (docs/admin.md compares it with WordPress): the REST
	// requests the browser made to open an existing post.
	opened := rec.restRequests(mark)
	t.Logf("opening an existing post: %d REST requests from the browser:\n%s", len(opened), strings.Join(opened, "\n"))
	js(t, ctx, "caret after the first paragraph", `const d = `+canvasJS+`; const p = [...d.querySelectorAll('p.wp-block-paragraph, p[data-type="core/paragraph"], p')].find(e => e.textContent === 'The first paragraph.');
		p.focus(); const s = d.getSelection(); s.selectAllChildren(p); s.collapseToEnd()`)
	typeKeys(t, ctx, " Edited later.")
	js(t, ctx, "update", `document.querySelector('.editor-post-publish-button').click()`)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(restPost(t, id)["content"].(map[string]any)["raw"].(string), "The first paragraph. Edited later.") {
		if time.Now().After(deadline) {
			t.Fatalf("the update never reached the post")
		}
		time.Sleep(300 * time.Millisecond)
	}
	// Saved as far as the editor knows: nothing left to save, so leaving
	// asks nothing.
	waitJS(t, ctx, "the editor saved", `document.querySelector('.editor-post-publish-button')?.getAttribute('aria-disabled') === 'true'`)
	revs := call(t, "GET", "/cms-json/cms/v2/posts/"+id+"/revisions?context=edit", nil, admin()...)
	if list, _ := revs.JSON.([]any); revs.Status != 200 || len(list) == 0 ||
		!strings.Contains(fmt.Sprint(list[0].(map[string]any)["content"]), "Edited later.") {
		t.Errorf("revisions: %d %.400s", revs.Status, revs.Raw)
	}
	rec.check(t, "update")

	// The post list: the search finds the post; bulk "Move to trash"
	// trashes it.
	if err := chromedp.Do(ctx, chromedp.Navigate(st.SiteURL+"/cms-admin/edit.php")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the post list", `document.querySelector('.dataviews-search input') && document.querySelector('.dataviews-view-table tbody tr')`)
	js(t, ctx, "focus the search", `document.querySelector('.dataviews-search input').focus()`)
	typeKeys(t, ctx, "Typed in the block editor")
	rows := `[...document.querySelectorAll('.dataviews-view-table tbody tr')]`
	waitJS(t, ctx, "the search result", rows+`.length === 1 && `+rows+`[0].textContent.includes('Typed in the block editor')`)
	js(t, ctx, "select the row", `document.querySelector('.dataviews-view-table tbody tr input[type="checkbox"]').click()`)
	trash := `[...document.querySelectorAll('.dataviews-bulk-actions-footer__action-buttons button')].find(b => b.textContent.trim() === 'Move to trash')`
	waitJS(t, ctx, "the bulk action", trash)
	js(t, ctx, "move to trash", trash+`.click()`)
	deadline = time.Now().Add(20 * time.Second)
	for restPost(t, id)["status"] != "trash" {
		if time.Now().After(deadline) {
			t.Fatal("the bulk action did not trash the post")
		}
		time.Sleep(300 * time.Millisecond)
	}
	waitJS(t, ctx, "the emptied list", rows+`.length === 0`)
	rec.check(t, "the post list")
}

func TestEditorContributorSubmitsForReview(t *testing.T) {
	needs(t, contract.ServiceContent)
	adminBuilt(t)
	password := newEditorUser(t, "editor-contributor", "contributor")
	rec := newEditorRecorder()
	ctx := editorBrowser(t, rec)
	browserSignIn(t, ctx, "editor-contributor", password, "/cms-admin/post-new.php?post_type=post")
	waitEditor(t, ctx)
	id := editorPostID(t, ctx)
	js(t, ctx, "focus the title", canvasJS+`.querySelector('.editor-post-title__input').focus()`)
	typeKeys(t, ctx, "A contributor's draft", kb.Enter, "Waiting for an editor.", kb.Enter, "/html")
	// A script in a Custom HTML block: a contributor may not post one
	// (no unfiltered_html); the REST API filters it as for any client.
	waitJS(t, ctx, "the inserter's suggestions", `[...document.querySelectorAll('.components-autocomplete__result')].some(e => e.textContent.trim() === 'Custom HTML')`)
	typeKeys(t, ctx, kb.Enter)
	waitJS(t, ctx, "the HTML block", canvasJS+`.querySelector('.wp-block-html textarea')`)
	js(t, ctx, "focus the HTML", canvasJS+`.querySelector('.wp-block-html textarea').focus()`)
	typeKeys(t, ctx, `<script>alert("pasted")</script><em>kept</em>`)
	// The header offers review, never publishing.
	label, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('.editor-post-publish-panel__toggle, .editor-post-publish-button__button').textContent.trim()`))
	if err != nil || label != "Submit for Review" {
		t.Fatalf("the header's button reads %q (%v), want Submit for Review", label, err)
	}
	publish(t, ctx, id, "Submit for Review", "pending")
	if raw := restPost(t, id)["content"].(map[string]any)["raw"].(string); strings.Contains(raw, "<script") || !strings.Contains(raw, "<em>kept</em>") {
		t.Errorf("the contributor's HTML was not filtered as kses does:\n%s", raw)
	}
	// The pending post's editor still offers no publishing.
	if err := chromedp.Do(ctx, chromedp.Navigate(st.SiteURL+"/cms-admin/post.php?post="+id+"&action=edit")); err != nil {
		t.Fatal(err)
	}
	waitEditor(t, ctx)
	buttons, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.editor-header button')].map(b => b.textContent.trim())`))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range buttons {
		if b == "Publish" || b == "Schedule" {
			t.Errorf("a contributor's editor offers %q: %v", b, buttons)
		}
	}
	rec.check(t, "submit for review")
}
