package blocks

// Site blocks: what every page of a site shows the same (title, tagline,
// navigation, template parts) and the search form.

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

func siteTitle(b *Block, env *Env) string {
	tag := heading(num(b, "level", 1))
	inner := esc(env.SiteTitle)
	if !b.hasFalse("isLink") {
		inner = `<a href="` + escURL(env.HomeURL+"/") + `" rel="home">` + inner + `</a>`
	}
	return "<" + tag + ` class="` + classes(b, "wp-block-site-title") + `">` + inner + "</" + tag + ">"
}

func siteTagline(b *Block, env *Env) string {
	if env.Tagline == "" {
		return ""
	}
	return `<p class="` + classes(b, "wp-block-site-tagline") + `">` + esc(env.Tagline) + `</p>`
}

func navigation(b *Block, env *Env) string {
	var items []string
	opts := navOptionsOf(b)
	if inner := b.Inner(); len(inner) > 0 {
		for _, c := range inner {
			h := ""
			if c.Name == "core/navigation-link" || c.Name == "core/navigation-submenu" {
				if l, ok := blockLink(c); ok {
					h = navItem(l, opts)
				}
			} else {
				h = renderBlock(c, env)
			}
			if h != "" {
				items = append(items, h)
			}
		}
	} else if env.Navigation != nil {
		for _, l := range env.Navigation(int64(num(b, "ref", 0))) {
			items = append(items, navItem(l, opts))
		}
	}
	if len(items) == 0 {
		return ""
	}
	cls := classes(b, "wp-block-navigation")
	if l := layoutClass(b); l != "" {
		cls += " " + l
	}
	if overlay := str(b, "overlayMenu", "mobile"); overlay != "never" {
		return navOverlay(b, env, overlay, cls, strings.Join(items, ""))
	}
	return `<nav class="` + cls + `" aria-label="` + esc(str(b, "ariaLabel", "Navigation")) + `"><ul class="wp-block-navigation__container">` +
		strings.Join(items, "") + `</ul></nav>`
}

func navigationLink(b *Block, env *Env) string {
	l, ok := blockLink(b)
	if !ok {
		return ""
	}
	return navItem(l, navOptions{icon: true})
}

func homeLink(b *Block, env *Env) string {
	return `<li class="wp-block-navigation-item"><a class="wp-block-navigation-item__content" href="` + escURL(env.HomeURL+"/") + `">` +
		esc(str(b, "label", "Home")) + `</a></li>`
}

// templatePart renders a part inside its tagName wrapper; when the part's
// own markup already opens with that element the wrapper is a div, since
// a header inside a header (or a footer in a footer) is not valid HTML.
func templatePart(b *Block, env *Env) string {
	var sb strings.Builder
	writeTemplatePart(&sb, b, env)
	return sb.String()
}

// partSizes is the size of each part's last rendering and an eighth
// (slug → *atomic.Int64): the next one's buffer is made that large at
// once, rather than grown by doubling (a part is most of a page: header,
// comments, footer). The last size, not the largest: the comments part of
// a post with fifty comments would otherwise make every post's allocate
// for fifty. Only parts the site has (env.Part found them) are noted: a
// bounded set.
var partSizes sync.Map

// SizeHint is the size hint kept under key in m (a *atomic.Int64, made
// once: storing a new one per render would allocate what it saves).
func SizeHint(m *sync.Map, key string) *atomic.Int64 {
	if v, ok := m.Load(key); ok {
		return v.(*atomic.Int64)
	}
	v, _ := m.LoadOrStore(key, new(atomic.Int64))
	return v.(*atomic.Int64)
}

// writeTemplatePart is templatePart written into sb: the wrapper and the
// part's markup go in directly, not concatenated into a string first.
func writeTemplatePart(sb *strings.Builder, b *Block, env *Env) {
	if env.Part == nil || env.depth > 8 {
		return
	}
	slug := str(b, "slug", "")
	nodes, ok := env.Part(slug)
	if !ok {
		return
	}
	sub := *env
	sub.depth++
	size := SizeHint(&partSizes, slug)
	var inner strings.Builder
	inner.Grow(int(size.Load()))
	renderNodes(&inner, nodes, &sub)
	size.Store(int64(inner.Len() + inner.Len()/8))
	markup := strings.TrimSpace(inner.String())
	tag := str(b, "tagName", "div")
	if !validWrapper(tag) || strings.HasPrefix(markup, "<"+tag) {
		tag = "div"
	}
	sb.WriteString("<" + tag + ` class="` + classes(b, "wp-block-template-part") + `">`)
	sb.WriteString(markup)
	sb.WriteString("</" + tag + ">")
}

func validWrapper(tag string) bool {
	switch tag {
	case "div", "header", "footer", "main", "section", "article", "aside", "nav":
		return true
	}
	return false
}

// searchIcon is the search block's button icon (buttonUseIcon).
const searchIcon = `<svg class="search-icon" viewBox="0 0 24 24" width="24" height="24"><path d="M13 5c-3.3 0-6 2.7-6 6 0 1.4.5 2.7 1.3 3.7l-3.8 3.8 1.1 1.1 3.8-3.8c1 .8 2.3 1.3 3.7 1.3 3.3 0 6-2.7 6-6S16.3 5 13 5zm0 10.5c-2.5 0-4.5-2-4.5-4.5s2-4.5 4.5-4.5 4.5 2 4.5 4.5-2 4.5-4.5 4.5z"></path></svg>`

// search is render_block_core_search: the button's position (outside,
// inside, none) and icon, the placeholder, the field's width and the
// alignment, as Twenty Twenty-Three's 404 and no-results patterns set them.
func search(b *Block, env *Env) string {
	label := str(b, "label", "Search")
	id := env.nextID("wp-block-search__input")
	labelCls := "wp-block-search__label"
	if b.hasFalse("showLabel") {
		labelCls += " screen-reader-text"
	}
	position := str(b, "buttonPosition", "button-outside")
	switch position {
	case "button-outside", "button-inside", "no-button":
	default:
		position = "button-outside"
	}
	cls := classes(b, "wp-block-search", "wp-block-search__"+position)
	if boolean(b, "buttonUseIcon") {
		cls += " wp-block-search__icon-button"
	}
	wrapStyle := ""
	if w := num(b, "width", 0); w > 0 {
		unit := "px"
		if str(b, "widthUnit", "") == "%" {
			unit, w = "%", min(w, 100)
		}
		wrapStyle = ` style="width:` + strconv.Itoa(w) + unit + `"`
	}
	placeholder := ""
	if p := str(b, "placeholder", ""); p != "" {
		placeholder = ` placeholder="` + esc(p) + `"`
	}
	text := esc(str(b, "buttonText", "Search"))
	button := `<button type="submit" class="wp-block-search__button wp-element-button">` + text + `</button>`
	switch {
	case position == "no-button":
		button = ""
	case boolean(b, "buttonUseIcon"):
		button = `<button aria-label="` + text + `" class="wp-block-search__button has-icon wp-element-button" type="submit">` + searchIcon + `</button>`
	}
	return `<form role="search" method="get" action="` + escURL(env.HomeURL+"/") + `" class="` + cls + alignClass(b) + `">` +
		`<label class="` + labelCls + `" for="` + id + `">` + esc(label) + `</label>` +
		`<div class="wp-block-search__inside-wrapper"` + wrapStyle + `><input class="wp-block-search__input" id="` + id + `"` + placeholder + ` type="search" name="s" value="` +
		esc(env.SearchQuery) + `" required>` + button + `</div></form>`
}
