package blocks

import (
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
)

// The navigation's overlay menu (overlayMenu "mobile", the default, or
// "always"): WordPress renders the links inside a responsive container with
// an open and a close button, and its Interactivity-API view script opens
// it as a modal dialog. Siteplane renders the same markup (the data-wp-*
// attributes included, so the page's markup is WordPress's) and, instead
// of WordPress's script modules, one small script of its own, inline once
// per page and allowed by its hash in the page's Content-Security-Policy
// (NavScriptHash): it needs no runtime, no request, and nothing else may
// run on the page.

// navOverlay wraps the navigation's list in WordPress's responsive
// container. overlay is "mobile" or "always"; cls are the navigation's
// classes and items its list's rendered items.
func navOverlay(b *Block, env *Env, overlay, cls, items string) string {
	id := env.nextModal()
	openCls, boxCls := "wp-block-navigation__responsive-container-open", "wp-block-navigation__responsive-container"
	if overlay == "always" {
		openCls += " always-shown"
		boxCls += " hidden-by-default"
	}
	if l := obj(b.Attrs, "layout"); l != nil {
		if j, _ := l["justifyContent"].(string); sanitizeClass(j) != "" {
			cls = "items-justified-" + sanitizeClass(j) + " " + cls
		}
	}
	var sb strings.Builder
	sb.Grow(len(items) + 2048)
	sb.WriteString(`<nav class="is-responsive ` + cls + `" aria-label="` + esc(str(b, "ariaLabel", "Navigation")) + `"` +
		` data-wp-interactive="core/navigation" data-wp-context='{"overlayOpenedBy":{"click":false,"hover":false,"focus":false},"type":"overlay","roleAttribute":"","ariaLabel":"Menu"}'>`)
	sb.WriteString(`<button aria-haspopup="dialog" aria-label="Open menu" class="` + openCls + `" data-wp-on--click="actions.openMenuOnClick" data-wp-on--keydown="actions.handleMenuKeydown">` +
		`<svg width="24" height="24" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 7.5h16v1.5H4z"></path><path d="M4 15h16v1.5H4z"></path></svg></button>`)
	sb.WriteString(`<div class="` + boxCls + `" id="` + id + `" data-wp-class--has-modal-open="state.isMenuOpen" data-wp-class--is-menu-open="state.isMenuOpen"` +
		` data-wp-watch="callbacks.initMenu" data-wp-on--keydown="actions.handleMenuKeydown" data-wp-on--focusout="actions.handleMenuFocusout" tabindex="-1">`)
	sb.WriteString(`<div class="wp-block-navigation__responsive-close" tabindex="-1">` +
		`<div class="wp-block-navigation__responsive-dialog" data-wp-bind--aria-modal="state.ariaModal" data-wp-bind--aria-label="state.ariaLabel" data-wp-bind--role="state.roleAttribute">`)
	sb.WriteString(`<button aria-label="Close menu" class="wp-block-navigation__responsive-container-close" data-wp-on--click="actions.closeMenuOnClick">` +
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false"><path d="m13.06 12 6.47-6.47-1.06-1.06L12 10.94 5.53 4.47 4.47 5.53 10.94 12l-6.47 6.47 1.06 1.06L12 13.06l6.47 6.47 1.06-1.06L13.06 12Z"></path></svg></button>`)
	sb.WriteString(`<div class="wp-block-navigation__responsive-container-content" data-wp-watch="callbacks.focusFirstElement" id="` + id + `-content">` +
		`<ul class="wp-block-navigation__container">` + items + `</ul></div></div></div></div></nav>`)
	if id == "modal-1" { // the page's first overlay menu brings the script
		sb.WriteString("<script>" + navScript + "</script>")
	}
	return sb.String()
}

// nextModal numbers the overlay menus of a page as WordPress's
// wp_unique_id("modal-") does.
func (e *Env) nextModal() string {
	if e.modals == nil {
		e.modals = new(int)
	}
	*e.modals++
	return "modal-" + strconv.Itoa(*e.modals)
}

// navScript opens and closes every overlay menu of the page, by event
// delegation (no element is looked up before it is used), as WordPress's
// navigation view script does: the open button opens the container as a
// modal dialog (role, aria-modal, aria-label "Menu") and focuses its first
// link, Tab and Shift+Tab stay inside it, the close button and Escape close
// it and give the focus back to the open button, and focus leaving it
// (a click elsewhere) closes it. A submenu's toggle opens and closes its
// submenu (aria-expanded, which navSubmenuCSS follows); a click elsewhere or
// the focus leaving it closes it, Escape inside it closes it and focuses the
// toggle.
const navScript = `(() => {
const d = document, box = ".wp-block-navigation__responsive-container", openB = ".wp-block-navigation__responsive-container-open",
  closeB = ".wp-block-navigation__responsive-container-close", dlg = ".wp-block-navigation__responsive-dialog",
  focusable = "a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex='-1'])";
const toggle = (nav, on, back) => {
  const c = nav.querySelector(box), g = nav.querySelector(dlg);
  if (!c || !g) return;
  c.classList.toggle("is-menu-open", on); c.classList.toggle("has-modal-open", on);
  d.documentElement.classList.toggle("has-modal-open", on);
  for (const [k, v] of [["role", "dialog"], ["aria-modal", "true"], ["aria-label", "Menu"]]) on ? g.setAttribute(k, v) : g.removeAttribute(k);
  if (on) { const f = c.querySelector(".wp-block-navigation-item > :first-child") || c.querySelector(focusable); if (f) f.focus(); }
  else if (back) { const o = nav.querySelector(openB); if (o) o.focus(); }
};
const subB = ".wp-block-navigation-submenu__toggle", expanded = subB + "[aria-expanded=true]";
const closeSubs = (keep) => { for (const t of d.querySelectorAll(expanded)) if (!t.parentElement.contains(keep)) t.setAttribute("aria-expanded", "false"); };
d.addEventListener("click", (e) => {
  const b = e.target.closest && e.target.closest(openB + ", " + closeB), nav = b && b.closest("nav.wp-block-navigation");
  if (nav) toggle(nav, b.matches(openB), true);
  const s = e.target.closest && e.target.closest(subB);
  closeSubs(s || e.target);
  if (s) s.setAttribute("aria-expanded", s.getAttribute("aria-expanded") === "true" ? "false" : "true");
});
d.addEventListener("keydown", (e) => {
  const o = e.key === "Escape" && e.target.closest && e.target.closest(".has-child");
  const t = o && o.querySelector(expanded);
  if (t) { t.setAttribute("aria-expanded", "false"); t.focus(); return; }
  const c = e.target.closest && e.target.closest(box + ".is-menu-open");
  if (!c) return;
  if (e.key === "Escape") { toggle(c.closest("nav.wp-block-navigation"), false, true); return; }
  if (e.key !== "Tab") return;
  const all = [...c.querySelectorAll(focusable)].filter((x) => x.getClientRects().length > 0);
  if (!all.length) return;
  const first = all[0], last = all[all.length - 1];
  if (e.shiftKey && (d.activeElement === first || !c.contains(d.activeElement) || d.activeElement === c)) { last.focus(); e.preventDefault(); }
  else if (!e.shiftKey && d.activeElement === last) { first.focus(); e.preventDefault(); }
});
d.addEventListener("focusout", (e) => {
  const o = e.target.closest && e.target.closest(".has-child"), t = o && o.querySelector(expanded);
  if (t && e.relatedTarget && !o.contains(e.relatedTarget)) t.setAttribute("aria-expanded", "false");
  const c = e.target.closest && e.target.closest(box + ".is-menu-open");
  if (c && e.relatedTarget && !c.contains(e.relatedTarget)) toggle(c.closest("nav.wp-block-navigation"), false, false);
});
})();`

// NavScriptHash is the Content-Security-Policy source that allows
// navScript, and nothing else, to run: 'sha256-…' of its text.
func NavScriptHash() string {
	sum := sha256.Sum256([]byte(navScript))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// navOverlayCSS lays the overlay menu out: below 600px (or always, for
// "always") only the open button shows; open, the container covers the
// window as WordPress's does (white, the links in a column under the close
// button); from 600px a "mobile" menu shows its links in place, its
// wrappers taking no box of their own.
const navOverlayCSS = `.wp-block-navigation__responsive-container-open,.wp-block-navigation__responsive-container-close{align-items:center;background:transparent;border:none;color:currentColor;cursor:pointer;display:flex;margin:0;padding:0;text-transform:inherit}` +
	`.wp-block-navigation__responsive-container-open svg,.wp-block-navigation__responsive-container-close svg{fill:currentColor;display:block}` +
	`.wp-block-navigation__responsive-container:not(.is-menu-open) .wp-block-navigation__responsive-container-close{display:none}` +
	`.wp-block-navigation__responsive-container:not(.is-menu-open),.wp-block-navigation__responsive-container:not(.is-menu-open) :is(.wp-block-navigation__responsive-close,.wp-block-navigation__responsive-dialog,.wp-block-navigation__responsive-container-content){display:contents}` +
	`.wp-block-navigation__responsive-container.hidden-by-default:not(.is-menu-open){display:none}` +
	`@media (max-width:599px){.wp-block-navigation__responsive-container:not(.is-menu-open){display:none}}` +
	`@media (min-width:600px){.wp-block-navigation__responsive-container-open:not(.always-shown){display:none}}` +
	`.wp-block-navigation__responsive-container.is-menu-open{display:flex;flex-direction:column;position:fixed;inset:0;z-index:100000;overflow:auto;` +
	`padding:clamp(1rem,var(--wp--style--root--padding-top,1rem),20rem) clamp(1rem,var(--wp--style--root--padding-right,1rem),20rem) clamp(1rem,var(--wp--style--root--padding-bottom,1rem),20rem) clamp(1rem,var(--wp--style--root--padding-left,1rem),20rem);background-color:#fff;color:#000}` +
	`.is-menu-open .wp-block-navigation__responsive-close,.is-menu-open .wp-block-navigation__responsive-dialog{position:relative;width:100%}` +
	`.is-menu-open .wp-block-navigation__responsive-container-close{position:absolute;top:0;right:0;z-index:2}` +
	`.is-menu-open .wp-block-navigation__responsive-container-content{display:flex;flex-direction:column;align-items:flex-start;padding-top:calc(2rem + 24px)}` +
	`.items-justified-right .is-menu-open .wp-block-navigation__responsive-container-content{align-items:flex-end}` +
	`.items-justified-center .is-menu-open .wp-block-navigation__responsive-container-content{align-items:center}` +
	`.is-menu-open .wp-block-navigation__container{flex-direction:column;align-items:inherit;gap:var(--wp--style--block-gap,2em)}` +
	`html.has-modal-open{overflow:hidden}`
