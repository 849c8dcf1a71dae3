package blocks

// Site blocks: what every page of a site shows the same (title, tagline,
// navigation, template parts) and the search form.

import "strings"

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
	if env.Part == nil || env.depth > 8 {
		return ""
	}
	nodes, ok := env.Part(str(b, "slug", ""))
	if !ok {
		return ""
	}
	sub := *env
	sub.depth++
	var sb strings.Builder
	renderNodes(&sb, nodes, &sub)
	inner := strings.TrimSpace(sb.String())
	tag := str(b, "tagName", "div")
	if !validWrapper(tag) || strings.HasPrefix(inner, "<"+tag) {
		tag = "div"
	}
	return "<" + tag + ` class="` + classes(b, "wp-block-template-part") + `">` + inner + "</" + tag + ">"
}

func validWrapper(tag string) bool {
	switch tag {
	case "div", "header", "footer", "main", "section", "article", "aside", "nav":
		return true
	}
	return false
}

func search(b *Block, env *Env) string {
	label := str(b, "label", "Search")
	id := env.nextID("wp-block-search__input")
	labelCls := "wp-block-search__label"
	if b.hasFalse("showLabel") {
		labelCls += " screen-reader-text"
	}
	return `<form role="search" method="get" action="` + escURL(env.HomeURL+"/") + `" class="` + classes(b, "wp-block-search") + `">` +
		`<label class="` + labelCls + `" for="` + id + `">` + esc(label) + `</label>` +
		`<div class="wp-block-search__inside-wrapper"><input class="wp-block-search__input" id="` + id + `" type="search" name="s" value="` +
		esc(env.SearchQuery) + `" required>` +
		`<button type="submit" class="wp-block-search__button">` + esc(str(b, "buttonText", "Search")) + `</button></div></form>`
}
