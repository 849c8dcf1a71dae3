package stack

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The site editor's Navigation and Pages screens in headless Chromium, as
// an administrator: the site's menu gets a page link and two of its items
// swap places; a page is edited in the page view. Each save is checked
// through REST and on the website at once (its edge cache and snapshot
// were primed before). The recorder of the editor tests fails on any
// unexpected 4xx/5xx or console error (editorExpected says which are
// expected, and why).

// An administrator adds a page link to the site's navigation menu in the
// editor canvas (the Navigation block's "Add block" in its Menu panel,
// searching pages), then moves the first item down from the Navigation
// screen's list; the header on the website follows each save.
func TestSiteEditorNavigation(t *testing.T) {
	rec, ctx := siteEditorAdmin(t, "site-navigation")
	pages := map[string]int64{}
	for _, title := range []string{"Menu first page", "Menu second page", "Menu added page"} {
		p := call(t, "POST", "/cms-json/cms/v2/pages", map[string]any{"title": title, "status": "publish"}, admin()...)
		id, _ := p.Obj()["id"].(float64)
		if p.Status != 201 || id == 0 {
			t.Fatalf("create %s: %d %s", title, p.Status, p.Raw)
		}
		pages[title] = int64(id)
	}
	// The header's Navigation block has no menu of its own: it shows the
	// newest menu (WordPress's fallback), this one.
	menu := call(t, "POST", "/cms-json/cms/v2/navigation", map[string]any{"title": "Site menu", "status": "publish",
		"content": menuLink("Menu first page", pages["Menu first page"]) + menuLink("Menu second page", pages["Menu second page"])}, admin()...)
	menuID, _ := menu.Obj()["id"].(float64)
	if menu.Status != 201 {
		t.Fatalf("create the menu: %d %s", menu.Status, menu.Raw)
	}
	t.Cleanup(func() {
		call(t, "DELETE", fmt.Sprintf("/cms-json/cms/v2/navigation/%d?force=true", int64(menuID)), nil, admin()...)
		for _, id := range pages {
			call(t, "DELETE", fmt.Sprintf("/cms-json/cms/v2/pages/%d?force=true", id), nil, admin()...)
		}
	})
	headerOrder(t, "Menu first page", "Menu second page")

	signInToSiteEditor(t, ctx, "site-navigation")
	// The menu in the canvas: select the Navigation block (a mouse click,
	// as the block editor selects on mousedown), "Add block" in its Menu
	// panel, search for the page and pick it.
	openSiteEditor(t, ctx, fmt.Sprintf("/wp_navigation/%d", int64(menuID)), true)
	waitJS(t, ctx, "the menu's links in the canvas", canvasJS+`.querySelector('.wp-block-navigation').textContent.includes('Menu second page')`)
	mouseClick(t, ctx, "the Navigation block", canvasJS+`.querySelector('.wp-block-navigation')`)
	appender := `document.querySelector('.editor-sidebar .block-editor-inserter__toggle')`
	waitJS(t, ctx, "the Menu panel's Add block", appender)
	search := `document.querySelector('.block-editor-link-control input')`
	// The panel slides in as the block is selected: a click during the
	// slide may land beside the button, so it is clicked until the search
	// opens.
	for i := 0; ; i++ {
		js(t, ctx, "click Add block", appender+`.click()`)
		if ok, _ := chromedp.Run(ctx, chromedp.Poll[bool](`!!`+search, chromedp.WithPollingTimeout(3*time.Second))); ok || i == 3 {
			break
		}
	}
	waitJS(t, ctx, "the link search", search)
	mouseClick(t, ctx, "the link search", search)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("Menu added")); err != nil {
		t.Fatal(err)
	}
	result := `[...document.querySelectorAll('.block-editor-link-control__search-item')].find(b => b.textContent.includes('Menu added page'))`
	waitJS(t, ctx, "the page among the search results", result)
	mouseClick(t, ctx, "the search result", result)
	waitJS(t, ctx, "the new link in the canvas", canvasJS+`.querySelector('.wp-block-navigation').textContent.includes('Menu added page')`)
	saveSite(t, ctx)
	rec.check(t, "add a page link")
	menuOrder(t, int64(menuID), pages["Menu first page"], pages["Menu second page"], pages["Menu added page"])
	headerOrder(t, "Menu first page", "Menu second page", "Menu added page")

	// Reorder from the Navigation screen's list: the first item's
	// Options, "Move down"; saved from the save hub.
	openSiteEditor(t, ctx, fmt.Sprintf("/wp_navigation/%d", int64(menuID)), false)
	item := `document.querySelector('.edit-site-layout__sidebar .block-editor-list-view-block__menu')`
	waitJS(t, ctx, "the menu's items", item)
	mouseClick(t, ctx, "the first item's options", item)
	moveDown := `[...document.querySelectorAll('[role="menuitem"]')].find(e => e.textContent.trim() === 'Move down')`
	waitJS(t, ctx, "Move down", moveDown)
	js(t, ctx, "choose Move down", moveDown+`.click()`)
	saveSite(t, ctx)
	rec.check(t, "reorder the menu")
	menuOrder(t, int64(menuID), pages["Menu second page"], pages["Menu first page"], pages["Menu added page"])
	headerOrder(t, "Menu second page", "Menu first page", "Menu added page")
}

// An administrator finds a page in the site editor's Pages screen, opens
// it in the page view, changes its content and saves; REST and the
// website's page show the change at once.
func TestSiteEditorPageView(t *testing.T) {
	rec, ctx := siteEditorAdmin(t, "site-pages")
	p := call(t, "POST", "/cms-json/cms/v2/pages", map[string]any{"title": "Edited in the page view", "status": "publish",
		"content": "<!-- wp:paragraph -->\n<p>Written before the site editor.</p>\n<!-- /wp:paragraph -->"}, admin()...)
	fid, _ := p.Obj()["id"].(float64)
	id := int64(fid)
	link, _ := p.Obj()["link"].(string)
	path := strings.TrimPrefix(link, st.SiteURL)
	t.Cleanup(func() { call(t, "DELETE", fmt.Sprintf("/cms-json/cms/v2/pages/%d?force=true", id), nil, admin()...) })
	if page := website(t, path); !strings.Contains(page, "Written before the site editor.") {
		t.Fatal("the page is not on the website")
	}

	signInToSiteEditor(t, ctx, "site-pages")
	openSiteEditor(t, ctx, "/page", false)
	// Search the list for the page (the stack has many), select it, Edit.
	search := `document.querySelector('.edit-site-page .dataviews-search input')`
	waitJS(t, ctx, "the Pages list's search", search)
	mouseClick(t, ctx, "the search field", search)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("Edited in the page view")); err != nil {
		t.Fatal(err)
	}
	row := fmt.Sprintf(`document.querySelector('[id$="-%d-item-wrapper"]')`, id)
	waitJS(t, ctx, "the page in the list", row)
	mouseClick(t, ctx, "the page in the list", row)
	// The list renders again as the page's preview loads: Edit is
	// clicked once it is there (and again if the render swallowed it).
	edit := fmt.Sprintf(`document.querySelector('[id$="-%d-primary-action-edit-post"]')`, id)
	for i := 0; ; i++ {
		waitJS(t, ctx, "the page's Edit", edit)
		js(t, ctx, "click Edit", edit+`?.click()`)
		if ok, _ := chromedp.Run(ctx, chromedp.Poll[bool](`location.search.includes('canvas=edit')`, chromedp.WithPollingTimeout(3*time.Second))); ok || i == 3 {
			break
		}
	}
	waitJS(t, ctx, "the page view's canvas", `location.search.includes('canvas=edit') && `+canvasJS+`.body.textContent.includes('Written before the site editor.')`)
	closeWelcomeGuides(t, ctx)
	codeEditor(t, ctx)
	editMarkup(t, ctx, "Written before the site editor.", "Rewritten in the page view of the site editor.")
	saveSite(t, ctx)
	rec.check(t, "edit a page in the page view")
	r := call(t, "GET", fmt.Sprintf("/cms-json/cms/v2/pages/%d?context=edit", id), nil, admin()...)
	if !strings.Contains(string(r.Raw), "Rewritten in the page view of the site editor.") {
		t.Fatalf("the page through REST:\n%.600s", r.Raw)
	}
	if page := website(t, path); !strings.Contains(page, "Rewritten in the page view of the site editor.") {
		t.Fatal("the website does not show the page's new content at once")
	}
}

// siteEditorAdmin starts the browser for an administrator's flows (a new
// administrator, login), recording its traffic.
func siteEditorAdmin(t *testing.T, login string) (*editorRecorder, context.Context) {
	t.Helper()
	adminBuilt(t)
	rec := newEditorRecorder()
	ctx := editorBrowser(t, rec)
	// Leaving the editor while a saved entity is still marked dirty asks;
	// unanswered, the next navigation hangs (as in the templates' test).
	acceptDialogs(t, ctx)
	return rec, ctx
}

// signInToSiteEditor makes the administrator login and signs in through
// the site editor's redirect to the sign-in page.
func signInToSiteEditor(t *testing.T, ctx context.Context, login string) {
	t.Helper()
	password := newEditorUser(t, login, "administrator")
	browserSignIn(t, ctx, login, password, "/cms-admin/site-editor.php")
	waitJS(t, ctx, "the site editor", `document.querySelector('.edit-site-layout')`)
}

// menuLink is a navigation-link block to a page, as the editor writes it.
func menuLink(label string, id int64) string {
	return fmt.Sprintf(`<!-- wp:navigation-link {"label":%s,"type":"page","id":%d,"url":%s,"kind":"post-type"} /-->`,
		strconv.Quote(label), id, strconv.Quote(fmt.Sprintf("%s/?page_id=%d", st.SiteURL, id)))
}

// menuOrder checks the menu's links through REST: these pages, in order.
func menuOrder(t *testing.T, menu int64, pages ...int64) {
	t.Helper()
	r := call(t, "GET", fmt.Sprintf("/cms-json/cms/v2/navigation/%d?context=edit", menu), nil, admin()...)
	raw, _ := r.Obj()["content"].(map[string]any)["raw"].(string)
	at := -1
	for _, id := range pages {
		i := strings.Index(raw, fmt.Sprintf(`"id":%d,`, id))
		if i <= at {
			t.Fatalf("the menu through REST lacks page %d after the ones before (want %v):\n%s", id, pages, raw)
		}
		at = i
	}
}

// navigationHTML is the first Navigation block of a page of the website.
var navigationHTML = regexp.MustCompile(`(?s)<nav\b[^>]*\bwp-block-navigation\b.*?</nav>`)

// headerOrder checks the website's header navigation, as an anonymous
// visitor sees it now: these labels, in order.
func headerOrder(t *testing.T, labels ...string) {
	t.Helper()
	home := website(t, "/")
	nav := navigationHTML.FindString(home)
	if nav == "" {
		t.Fatalf("the website's front page has no navigation:\n%s", home[max(0, strings.Index(home, "<body")):])
	}
	at := -1
	for _, l := range labels {
		i := strings.Index(nav, ">"+l+"<")
		if i <= at {
			t.Fatalf("the website's header lacks %q after the ones before (want %v):\n%s", l, labels, nav)
		}
		at = i
	}
}

// mouseClick clicks the middle of the element that expr finds (in the page
// or the canvas iframe) with the mouse: the block editor selects blocks and
// list items on mousedown, which an element's click() does not send.
func mouseClick(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	at, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const e = `+expr+`; e.scrollIntoView({block: 'center'});
		const r = e.getBoundingClientRect(), f = e.ownerDocument.defaultView.frameElement?.getBoundingClientRect() || {left: 0, top: 0};
		return [f.left + r.left + r.width / 2, f.top + r.top + r.height / 2] })()`))
	if err == nil {
		err = chromedp.Do(ctx, chromedp.MouseClickXY(at[0], at[1]))
	}
	if err != nil {
		t.Fatalf("click %s: %v", what, err)
	}
}
