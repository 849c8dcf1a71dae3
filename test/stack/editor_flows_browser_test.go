package stack

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplane.dev/services/pkg/contract"
)

// The rest of the editor's flows (issue 27), as an author in headless
// Chromium, as an editor writing their own post: excerpt, slug, sticky, scheduling, the preview of unsaved
// changes in a new tab, the autosave notice, and the revision count. Each
// ends with an assertion through REST or the page.

// fillField focuses the input that expr finds, replaces its text with the
// keyboard and leaves it (the editor's fields save on blur).
func fillField(t *testing.T, ctx context.Context, what, expr, text string) {
	t.Helper()
	waitJS(t, ctx, what, expr)
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(() => { const e = `+expr+`; e.focus(); return e.value.length })()`))
	if err != nil {
		t.Fatalf("focus %s: %v", what, err)
	}
	// the caret to the end, then the old text erased as a person does
	// (select() does nothing in a number field)
	typeKeys(t, ctx, kb.End)
	for range n {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Backspace)); err != nil {
			t.Fatal(err)
		}
	}
	typeKeys(t, ctx, text)
	js(t, ctx, "leave "+what, `(`+expr+`).blur()`)
}

// clickText clicks the first element of selector whose text is text.
func clickText(t *testing.T, ctx context.Context, selector, text string) {
	t.Helper()
	find := `[...document.querySelectorAll('` + selector + `')].find(e => e.textContent.trim() === '` + text + `')`
	waitJS(t, ctx, text, find)
	js(t, ctx, "click "+text, find+`.click()`)
}

// waitREST polls the post until cond holds.
func waitREST(t *testing.T, id, what string, cond func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		p := restPost(t, id)
		if cond(p) {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: never stored; the post: %v", what, p)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

func raw(p map[string]any, field string) string {
	v, _ := p[field].(map[string]any)["raw"].(string)
	return v
}

func TestEditorAuthorFlows(t *testing.T) {
	needs(t, contract.ServiceContent, contract.ServiceMedia)
	adminBuilt(t)
	// an editor: sticky is offered only to who may edit others' posts
	// (wp:action-sticky), as in WordPress
	password := newEditorUser(t, "editor-flows", "editor")
	rec := newEditorRecorder()
	ctx := editorBrowser(t, rec)
	// Leaving a post with unsaved changes asks; the test answers "Leave".
	acceptDialogs(t, ctx)
	browserSignIn(t, ctx, "editor-flows", password, "/cms-admin/post-new.php")
	waitEditor(t, ctx)
	id := editorPostID(t, ctx)
	js(t, ctx, "focus the title", canvasJS+`.querySelector('.editor-post-title__input').focus()`)
	typeKeys(t, ctx, "Flows of the editor", kb.Enter, "Saved words.")

	// Excerpt, slug and sticky in the sidebar's summary.
	openPostSidebar(t, ctx)
	clickText(t, ctx, ".editor-post-excerpt__dropdown button", "Add an excerpt…")
	fillField(t, ctx, "the excerpt", `document.querySelector('.editor-post-excerpt__textarea textarea')`, "A hand-written excerpt.")
	typeKeys(t, ctx, kb.Escape)
	js(t, ctx, "the slug's panel", `document.querySelector('.editor-post-url__panel-toggle').click()`)
	fillField(t, ctx, "the slug", `document.querySelector('.editor-post-url__input input')`, "a-chosen-slug")
	typeKeys(t, ctx, kb.Escape)
	// sticky is in the status popover
	js(t, ctx, "the status", `document.querySelector('.editor-post-status__toggle').click()`)
	waitJS(t, ctx, "the sticky box", `document.querySelector('.editor-post-sticky__checkbox-control input')`)
	js(t, ctx, "sticky", `document.querySelector('.editor-post-sticky__checkbox-control input').click()`)
	waitJS(t, ctx, "sticky ticked", `document.querySelector('.editor-post-sticky__checkbox-control input').checked`)
	typeKeys(t, ctx, kb.Escape)

	// Scheduling: a day of next month turns Publish into Schedule.
	js(t, ctx, "the date", `document.querySelector('.editor-post-schedule__dialog-toggle').click()`)
	waitJS(t, ctx, "the calendar", `document.querySelector('.components-datetime__date button[aria-label="View next month"]')`)
	js(t, ctx, "next month", `document.querySelector('.components-datetime__date button[aria-label="View next month"]').click()`)
	clickText(t, ctx, ".components-datetime__date__day", "15")
	next := time.Now().AddDate(0, 1, 0)
	month := fmt.Sprintf("%d-%02d-15", next.Year(), next.Month())
	typeKeys(t, ctx, kb.Escape)
	waitJS(t, ctx, "the Schedule button", `document.querySelector('.editor-post-publish-panel__toggle, .editor-post-publish-button__button')?.textContent.trim().startsWith('Schedule')`)
	publish(t, ctx, id, "Schedule", "future")
	rec.check(t, "schedule")
	post := restPost(t, id)
	if raw(post, "excerpt") != "A hand-written excerpt." || post["slug"] != "a-chosen-slug" || post["sticky"] != true ||
		!strings.HasPrefix(fmt.Sprint(post["date"]), month) {
		t.Errorf("excerpt %q, slug %v, sticky %v, date %v", raw(post, "excerpt"), post["slug"], post["sticky"], post["date"])
	}

	// Two updates make two revisions; the editor shows their count.
	for _, words := range []string{" First update.", " Second update."} {
		js(t, ctx, "caret after the paragraph", `const d = `+canvasJS+`; const p = [...d.querySelectorAll('p')].find(e => e.textContent.startsWith('Saved words.'));
			p.focus(); const s = d.getSelection(); s.selectAllChildren(p); s.collapseToEnd()`)
		typeKeys(t, ctx, words)
		js(t, ctx, "update", `document.querySelector('.editor-post-publish-button').click()`)
		waitREST(t, id, words, func(p map[string]any) bool { return strings.Contains(raw(p, "content"), words) })
		waitJS(t, ctx, "the editor saved", `document.querySelector('.editor-post-publish-button')?.getAttribute('aria-disabled') === 'true'`)
	}
	revs := call(t, "GET", "/cms-json/cms/v2/posts/"+id+"/revisions", nil, admin()...)
	list, _ := revs.JSON.([]any)
	n := len(list)
	openPostSidebar(t, ctx)
	revisions := `[...document.querySelectorAll('.editor-private-post-last-revision__button, .editor-post-last-revision__title')]`
	waitJS(t, ctx, fmt.Sprintf("the revision count %d", n), revisions+`.some(e => e.textContent.includes('`+fmt.Sprint(n)+`'))`)
	if n < 3 {
		t.Errorf("%d revisions after scheduling and two updates", n)
	}

	// Preview: unsaved words, "Preview in new tab": the editor autosaves
	// and opens the autosave's preview_link, which shows them to the author.
	// Dates have whole seconds, and the autosave notice below needs the
	// autosave newer than the post by one (as WordPress compares them): an
	// autosave in the second of the last update would show none.
	for last := fmt.Sprint(restPost(t, id)["modified_gmt"]); time.Now().UTC().Format("2006-01-02T15:04:05") <= last; {
		time.Sleep(100 * time.Millisecond)
	}
	js(t, ctx, "caret after the paragraph", `const d = `+canvasJS+`; const p = [...d.querySelectorAll('p')].find(e => e.textContent.startsWith('Saved words.'));
		p.focus(); const s = d.getSelection(); s.selectAllChildren(p); s.collapseToEnd()`)
	typeKeys(t, ctx, " Unsaved words.")
	tabs := chromedp.WaitNewTarget(ctx, func(i *target.Info) bool { return strings.Contains(i.URL, "preview=true") })
	js(t, ctx, "the view menu", `document.querySelector('.editor-preview-dropdown__toggle').click()`)
	waitJS(t, ctx, "Preview in new tab", `document.querySelector('.editor-preview-dropdown__button-external')`)
	js(t, ctx, "Preview in new tab", `document.querySelector('.editor-preview-dropdown__button-external').click()`)
	var tab target.ID
	select {
	case tab = <-tabs:
	case <-time.After(30 * time.Second):
		t.Fatal("no preview tab")
	}
	tctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(tab))
	defer cancel()
	waitJS(t, tctx, "the unsaved words in the preview", `document.body.textContent.includes('Unsaved words.')`)
	if p := restPost(t, id); strings.Contains(raw(p, "content"), "Unsaved words.") {
		t.Errorf("the preview saved the post: %s", raw(p, "content"))
	}
	// Another visitor sees the post without them.
	link := post["link"].(string)
	if other := call(t, "GET", strings.TrimPrefix(link, st.SiteURL)+"?preview_id="+id+"&preview=true", nil, admin()...); strings.Contains(string(other.Raw), "Unsaved words.") {
		t.Errorf("another user's preview shows the author's autosave")
	}
	rec.check(t, "preview")

	// Reopened, the editor says the autosave is newer than the post (the
	// preview's autosave is, by the second, as WordPress compares them).
	autosaves := call(t, "GET", "/cms-json/cms/v2/posts/"+id+"/autosaves?context=edit", nil, admin()...)
	saved, _ := autosaves.JSON.([]any)
	modified := fmt.Sprint(restPost(t, id)["modified_gmt"])
	if len(saved) != 1 || !(fmt.Sprint(saved[0].(map[string]any)["modified_gmt"]) > modified) {
		t.Fatalf("no autosave newer than the post (%s): %.600s", modified, autosaves.Raw)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(st.SiteURL+"/cms-admin/post.php?post="+id+"&action=edit")); err != nil {
		t.Fatal(err)
	}
	waitEditor(t, ctx)
	notice := `[...document.querySelectorAll('.components-notice')].find(e => e.textContent.includes('There is an autosave of this post that is more recent than the version below.'))`
	waitJS(t, ctx, "the autosave notice", notice)
	waitJS(t, ctx, "its View the autosave link", notice+`.querySelector('a[href*="preview_id=`+id+`"]')?.textContent.trim() === 'View the autosave'`)
	rec.check(t, "reopen")

	// The preferences (the welcome guide closed) are kept on the server:
	// users/me's meta.persisted_preferences, and a second browser, with
	// its own empty storage, opens the editor without the guide.
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(fmt.Sprint(editorUserMeta(t, "editor-flows")), "welcomeGuide:false") {
		if time.Now().After(deadline) {
			t.Fatalf("the preferences never reached the server: %v", editorUserMeta(t, "editor-flows"))
		}
		time.Sleep(300 * time.Millisecond)
	}
	rec2 := newEditorRecorder()
	ctx2 := editorBrowser(t, rec2)
	browserSignIn(t, ctx2, "editor-flows", password, "/cms-admin/post.php?post="+id+"&action=edit")
	waitJS(t, ctx2, "an editable title", canvasJS+`.querySelector('.editor-post-title__input[contenteditable="true"]')`)
	time.Sleep(time.Second)
	if shown, err := chromedp.Run(ctx2, chromedp.Evaluate[bool](`!!document.querySelector('.edit-post-welcome-guide')`)); err != nil || shown {
		t.Errorf("a second browser shows the welcome guide again (%v)", err)
	}
	rec2.check(t, "a second browser")
}

// editorUserMeta is the person's meta.persisted_preferences, read by the
// administrator.
func editorUserMeta(t *testing.T, login string) any {
	t.Helper()
	r := call(t, "GET", "/cms-json/cms/v2/users?context=edit&search="+login, nil, admin()...)
	list, _ := r.JSON.([]any)
	if r.Status != 200 || len(list) != 1 {
		t.Fatalf("find %s: %d %.300s", login, r.Status, r.Raw)
	}
	id := fmt.Sprint(list[0].(map[string]any)["id"])
	u := call(t, "GET", "/cms-json/cms/v2/users/"+id+"?context=edit", nil, admin()...)
	meta, _ := u.Obj()["meta"].(map[string]any)
	return meta["persisted_preferences"]
}

// acceptDialogs answers every JavaScript dialog of the browser with OK (or
// "Leave"). Listen's function may not call the browser: a goroutine answers.
func acceptDialogs(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := chromedp.Listen(ctx, func(ev any) {
		if _, ok := ev.(*cdppage.EventJavascriptDialogOpening); ok {
			go func() {
				_, _ = chromedp.Call(ctx, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{Accept: true})
			}()
		}
	}); err != nil {
		t.Fatal(err)
	}
}
