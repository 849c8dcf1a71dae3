package stack

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The website renders what the site editor previews: for the built-in
// theme's home and single templates, under each of its style variations,
// the editor canvas (the iframe) and the public page (an anonymous
// visitor's window of the canvas's width, so fluid font sizes agree) have
// the same blocks in the same order and the same computed colours, fonts
// and font sizes on the main elements. docs/admin.md reports the figures
// (go test -v logs them).

// compareCase is one comparison: the site editor's route (its canvas),
// the public page, the blocks whose order is compared and the main
// elements (a name and its selector; the first visible match counts).
type compareCase struct {
	name, route, path, ready string
	blocks                   []string
	elements                 [][2]string
}

// templateBlocks are the blocks of the theme's templates whose order is
// compared. Left out: blocks the editor shows as placeholders where the
// website prints nothing, as WordPress does (an empty post-terms, the
// pagination of a single page of posts, the post content in a template).
// The navigation block is compared too: its items (navItems) and the
// computed style of its first link.
var templateBlocks = []string{"template-part", "site-title", "site-tagline", "navigation", "query", "post-template",
	"post-title", "post-date", "post-excerpt", "post-content"}

// contentBlocks are the blocks of the test's page: the page view shows the
// page's content without its template.
var contentBlocks = []string{"post-title", "heading", "buttons", "button"}

// knownDifferences are the differences the comparison logs without
// failing, each with its reason (docs/admin.md reports them). None now:
// the buttons, which took the link colour on the website (its link rule
// was `a`), are coloured as in the canvas since the website's link rule is
// WordPress's a:where(:not(.wp-element-button)).
var knownDifferences = map[string]string{}

// pageFigures reads a document's visible blocks in order and the computed
// styles of the main elements; doc is the document's expression.
func pageFigures(doc string, c compareCase) string {
	blocks, _ := json.Marshal(c.blocks)
	elements, _ := json.Marshal(c.elements)
	return `(() => { const d = ` + doc + `; const names = ` + string(blocks) + `;
		const visible = e => e.getClientRects().length > 0;
		const sel = names.map(n => '.wp-block-' + n).join(',');
		const order = [...d.querySelectorAll(sel)].filter(visible).map(e => names.find(n => e.classList.contains('wp-block-' + n)));
		const styles = {};
		for (const [name, sels] of ` + string(elements) + `) {
			const e = [...d.querySelectorAll(sels)].find(visible);
			if (!e) { styles[name] = 'absent'; continue; }
			const c = d.defaultView.getComputedStyle(e);
			styles[name] = [c.color, c.backgroundColor, c.fontSize, c.fontFamily.split(',')[0]].join(' | ');
		}
		const titles = [...d.querySelectorAll('.wp-block-post-title')].filter(visible).map(e => e.textContent.trim());
		const nav = [...d.querySelectorAll('.wp-block-navigation')].filter(visible).map(n =>
			[...n.querySelectorAll('.wp-block-navigation-item__content')].filter(visible).map(e => e.textContent.trim()).join(' · '));
		return JSON.stringify({order, styles, titles, nav}) })()`
}

// styleVariation is one of the theme's style variations as REST gives it.
type styleVariation struct {
	Title    string         `json:"title"`
	Settings map[string]any `json:"settings"`
	Styles   map[string]any `json:"styles"`
}

// figures are what pageFigures reads.
type figures struct {
	Order  []string          `json:"order"`
	Styles map[string]string `json:"styles"`
	Titles []string          `json:"titles"`
	// Nav are the visible links of each navigation block, in order.
	Nav []string `json:"nav"`
}

func readFigures(t *testing.T, ctx context.Context, doc string, c compareCase) figures {
	t.Helper()
	var f figures
	if err := json.Unmarshal([]byte(evalString(t, ctx, pageFigures(doc, c))), &f); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestSiteEditorCanvasMatchesWebsite(t *testing.T) {
	adminBuilt(t)
	rec := newEditorRecorder()
	ctx := editorBrowser(t, rec)
	password := newEditorUser(t, "site-compare", "administrator")
	gs := userGlobalStyles(t)
	t.Cleanup(func() {
		call(t, "POST", gs, map[string]any{"settings": map[string]any{}, "styles": map[string]any{}}, admin()...)
	})
	// A page (the site editor's page view shows its content in the canvas)
	// with a heading, a link and a button; a post for the single template.
	content := `<!-- wp:heading {"level":3} --><h3 class="wp-block-heading">A heading</h3><!-- /wp:heading -->` +
		`<!-- wp:paragraph --><p>A paragraph with <a href="https://example.com/">a link</a>.</p><!-- /wp:paragraph -->` +
		`<!-- wp:buttons --><div class="wp-block-buttons"><!-- wp:button --><div class="wp-block-button"><a class="wp-block-button__link wp-element-button">A button</a></div><!-- /wp:button --></div><!-- /wp:buttons -->`
	post := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "Compared in the canvas", "status": "publish", "content": content}, admin()...)
	page := call(t, "POST", "/cms-json/cms/v2/pages", map[string]any{"title": "A page compared", "status": "publish", "content": content}, admin()...)
	pageID, _ := page.Obj()["id"].(float64)
	t.Cleanup(func() {
		call(t, "DELETE", fmt.Sprintf("/cms-json/cms/v2/pages/%d?force=true", int(pageID)), nil, admin()...)
	})
	link, _ := post.Obj()["link"].(string)
	single := strings.TrimPrefix(link, st.SiteURL)
	pageLink, _ := page.Obj()["link"].(string)
	var variations []styleVariation
	if err := json.Unmarshal(call(t, "GET", "/cms-json/cms/v2/global-styles/themes/"+themeSlug()+"/variations", nil, admin()...).Raw, &variations); err != nil || len(variations) == 0 {
		t.Fatalf("the theme's variations: %v", err)
	}
	// The theme's own styles first (no variation).
	variations = append([]styleVariation{{Title: "Default"}}, variations...)
	browserSignIn(t, ctx, "site-compare", password, "/cms-admin/site-editor.php")
	waitJS(t, ctx, "the site editor", `document.querySelector('.edit-site-layout')`)
	var visitor context.Context
	for _, v := range variations {
		settings, styles := v.Settings, v.Styles
		if settings == nil {
			settings = map[string]any{}
		}
		if styles == nil {
			styles = map[string]any{}
		}
		if r := call(t, "POST", gs, map[string]any{"settings": settings, "styles": styles}, admin()...); r.Status != 200 {
			t.Fatalf("apply %s: %d %s", v.Title, r.Status, r.Raw)
		}
		for _, tpl := range []compareCase{
			{name: "home template", route: "/wp_template/" + themeSlug() + "//home", path: "/", ready: `.wp-block-post-title a`,
				blocks: templateBlocks, elements: append(templateElements, [2]string{"link", ".wp-block-post-title a"})},
			{name: "single template", route: "/wp_template/" + themeSlug() + "//single", path: single, ready: `.wp-block-post-title`,
				blocks: templateBlocks, elements: templateElements},
			{name: "a page (page view)", route: fmt.Sprintf("/page/%d", int(pageID)), path: strings.TrimPrefix(pageLink, st.SiteURL),
				ready: `.wp-block-button__link`, blocks: contentBlocks, elements: [][2]string{{"body", "body"}, {"post title", ".wp-block-post-title"},
					{"heading", "h3"}, {"link", "p:not(.wp-block-site-title) a"}, {"button", ".wp-block-button__link"}}},
		} {
			openSiteEditor(t, ctx, tpl.route, true)
			waitJS(t, ctx, "the canvas's "+tpl.ready, canvasJS+`.querySelector('`+tpl.ready+`')`)
			if tpl.blocks[0] == "template-part" {
				// Both template parts (the header's and the footer's site
				// title) are in.
				waitJS(t, ctx, "the template parts", canvasJS+`.querySelectorAll('.wp-block-site-title').length >= 2`)
			}
			// The blocks that load their data (navigation, query) settle.
			time.Sleep(1500 * time.Millisecond)
			canvas := readFigures(t, ctx, canvasJS, tpl)
			if v.Title == "Default" && tpl.blocks[0] == "template-part" && tpl.path == "/" {
				canvasScreenshot(t, ctx)
			}
			if visitor == nil {
				visitor = visitorBrowser(t, frameWidth(t, ctx))
			}
			if _, err := chromedp.Run(visitor, chromedp.NavigateResponse(st.SiteURL+tpl.path)); err != nil {
				t.Fatal(err)
			}
			public := readFigures(t, visitor, "document", tpl)
			comparePages(t, v.Title+", "+tpl.name, tpl, canvas, public)
		}
	}
	rec.check(t, "open the templates under each variation")
}

// templateElements are the main elements of the templates.
var templateElements = [][2]string{{"body", "body"}, {"site title", ".wp-block-site-title"}, {"post title", ".wp-block-post-title"},
	{"heading", "h1"}, {"post date", ".wp-block-post-date"}, {"nav link", ".wp-block-navigation .wp-block-navigation-item__content"}}

// canvasScreenshot writes docs/admin-site-editor.png (the home template
// with a post and a page in place, the theme's own styles) when
// SITEPLANE_SITE_EDITOR_CANVAS_SCREENSHOT names the file.
func canvasScreenshot(t *testing.T, ctx context.Context) {
	t.Helper()
	out := os.Getenv("SITEPLANE_SITE_EDITOR_CANVAS_SCREENSHOT")
	if out == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.WriteFile(out, png, 0o644)
	}
	if err != nil {
		t.Fatalf("the screenshot %s: %v", out, err)
	}
}

// frameWidth is the width of the editor canvas's frame.
func frameWidth(t *testing.T, ctx context.Context) int64 {
	t.Helper()
	w, err := chromedp.Run(ctx, chromedp.Evaluate[int64](`document.querySelector('iframe[name="editor-canvas"]').clientWidth`))
	if err != nil || w < 320 {
		t.Fatalf("the canvas's width: %d %v", w, err)
	}
	return w
}

// comparePages logs the figures and fails on a difference.
func comparePages(t *testing.T, what string, c compareCase, canvas, page figures) {
	t.Helper()
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s:\n  blocks, canvas:  %s\n  blocks, website: %s\n  titles: %q / %q\n  navigation: %q / %q\n", what,
		strings.Join(canvas.Order, " "), strings.Join(page.Order, " "), canvas.Titles, page.Titles, canvas.Nav, page.Nav)
	for _, e := range c.elements {
		cs, ps := canvas.Styles[e[0]], page.Styles[e[0]]
		mark := "same"
		switch {
		case cs != ps && knownDifferences[e[0]] != "":
			mark = "known difference, " + knownDifferences[e[0]] + ": canvas " + cs
		case cs != ps:
			mark = "DIFFERENT: canvas " + cs
			t.Errorf("%s: %s: canvas %q, website %q", what, e[0], cs, ps)
		}
		fmt.Fprintf(&sb, "  %-10s %s (%s)\n", e[0], ps, mark)
	}
	if strings.Join(canvas.Order, " ") != strings.Join(page.Order, " ") {
		t.Errorf("%s: the blocks differ", what)
	}
	// The page view shows the page's content alone: its navigation is the
	// template's, not compared there.
	if slices.Contains(c.blocks, "navigation") && strings.Join(canvas.Nav, " | ") != strings.Join(page.Nav, " | ") {
		t.Errorf("%s: the navigation's items differ: canvas %q, website %q", what, canvas.Nav, page.Nav)
	}
	t.Log(sb.String())
}
