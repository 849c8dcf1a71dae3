package stack

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplane.dev/services/pkg/contract"
)

// menuStateJS reads the header's overlay menu as a visitor meets it: is
// the open button shown, is the first link shown, is the container open,
// its dialog's role and aria-modal, which element has the focus (open,
// close, link, inside: elsewhere in the open menu, outside), and whether
// the page scrolls under it.
const menuStateJS = `(() => { const nav = document.querySelector("header nav.wp-block-navigation.is-responsive");
  if (!nav) return ["no overlay menu"];
  const open = nav.querySelector(".wp-block-navigation__responsive-container-open"), box = nav.querySelector(".wp-block-navigation__responsive-container"),
    dlg = nav.querySelector(".wp-block-navigation__responsive-dialog"), link = nav.querySelector(".wp-block-navigation-item__content"),
    shown = (e) => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden", a = document.activeElement;
  const focus = a === open ? "open" : a && a.matches(".wp-block-navigation__responsive-container-close") ? "close" :
    a === link ? "link" : box.contains(a) ? "inside" : "outside";
  return ["button " + shown(open), "link " + shown(link), "open " + box.classList.contains("is-menu-open"),
    "role " + dlg.getAttribute("role"), "modal " + dlg.getAttribute("aria-modal"), "focus " + focus,
    "locked " + document.documentElement.classList.contains("has-modal-open")]; })()`

// The header's navigation collapses behind a button on phones, as
// WordPress's overlay menu (overlayMenu "mobile") does, and Siteplane's own
// script (the one the page's Content-Security-Policy allows) opens and
// closes it: by click and by keyboard (Enter on the button opens it and
// focuses the first link, Tab stays inside the dialog, Escape closes it and
// gives the focus back), with no browser error and no axe violation open or
// closed. At desktop width the links show in place and the button does not.
func TestBrowserNavigationOverlayMenu(t *testing.T) {
	needs(t, contract.ServiceContent)
	tools := validatorTools(t)
	run := randomHex(3)
	for i := range 2 {
		create(t, "pages", map[string]any{"title": "Menu page " + run + string(rune('A'+i)), "status": "publish", "menu_order": -200,
			"content": "<!-- wp:paragraph -->\n<p>In the menu.</p>\n<!-- /wp:paragraph -->"})
	}
	ctx := newBrowserContextFor(t, 3*time.Minute)
	problems := &browserProblems{}
	if err := chromedp.Listen(ctx, problems.listen); err != nil {
		t.Fatal(err)
	}
	state := func(step string, want ...string) {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](menuStateJS))
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("%s: %v, want %v", step, got, want)
		}
	}
	key := func(k string, mods ...chromedp.Modifier) {
		t.Helper()
		var opts []chromedp.KeyOption
		if len(mods) > 0 {
			opts = append(opts, chromedp.KeyModifiers(mods...))
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(k, opts...)); err != nil {
			t.Fatalf("key %q: %v", k, err)
		}
	}
	closed := []string{"button true", "link false", "open false", "role null", "modal null"}
	opened := []string{"button true", "link true", "open true", "role dialog", "modal true"}
	with := func(base []string, focus string, locked bool) []string {
		return append(append([]string{}, base...), "focus "+focus, "locked "+map[bool]string{true: "true", false: "false"}[locked])
	}

	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(st.SiteURL+"/")); err != nil {
		t.Fatal(err)
	}
	state("a phone's first view", with(closed, "outside", false)...)
	click(t, ctx, "header .wp-block-navigation__responsive-container-open")
	state("opened by a click", with(opened, "link", true)...)
	click(t, ctx, "header .wp-block-navigation__responsive-container-close")
	state("closed by a click", with(closed, "open", false)...)

	// the keyboard: the button has the focus (as after closing); Enter opens
	key(kb.Enter)
	state("opened with Enter", with(opened, "link", true)...)
	for range 6 { // more Tabs than the menu has stops: the focus cycles inside
		key(kb.Tab)
	}
	state("after Tab, Tab, …", append(opened[:len(opened):len(opened)], focusInside(t, ctx), "locked true")...)
	key(kb.Tab, chromedp.ModifierShift)
	state("after Shift+Tab", append(opened[:len(opened):len(opened)], focusInside(t, ctx), "locked true")...)
	key(kb.Escape)
	state("closed with Escape", with(closed, "open", false)...)

	// axe, closed and open
	for _, tamper := range []string{"", `document.querySelector("header .wp-block-navigation__responsive-container-open").click()`} {
		for _, v := range tools.axeCheck(t, ctx, st.SiteURL+"/", tamper) {
			t.Errorf("axe on a phone (opened: %v): %s", tamper != "", v)
		}
	}

	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(st.SiteURL+"/")); err != nil {
		t.Fatal(err)
	}
	state("desktop", "button false", "link true", "open false", "role null", "modal null", "focus outside", "locked false")

	problems.mu.Lock()
	defer problems.mu.Unlock()
	for _, p := range problems.list {
		t.Errorf("browser problem: %s", p)
	}
}

// focusInside says where the focus is when it must be somewhere in the
// open menu: the close button, the first link, or another of its links.
func focusInside(t *testing.T, ctx context.Context) string {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const a = document.activeElement, box = a && a.closest(".wp-block-navigation__responsive-container.is-menu-open");
  if (!box) return "focus outside";
  return "focus " + (a.matches(".wp-block-navigation__responsive-container-close") ? "close" : a === box.querySelector(".wp-block-navigation-item__content") ? "link" : "inside"); })()`))
	if err != nil {
		t.Fatal(err)
	}
	if got == "focus outside" {
		t.Errorf("the focus left the open menu")
	}
	return got
}

// click clicks the element sel finds, as a pointer does.
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}
