package blocks

// Post blocks: the current post (a single template, or each post of a
// query loop) as the post-* blocks show it.

import (
	"strconv"
	"strings"
)

func postTitle(b *Block, env *Env) string {
	p := env.Post
	if p == nil {
		return ""
	}
	tag := heading(num(b, "level", 2))
	inner := esc(p.Title)
	if boolean(b, "isLink") {
		inner = `<a href="` + escURL(p.URL) + `">` + inner + `</a>`
	}
	return "<" + tag + ` class="` + classes(b, "wp-block-post-title") + alignClass(b) + `">` + inner + "</" + tag + ">"
}

func postDate(b *Block, env *Env) string {
	p := env.Post
	if p == nil || p.DateISO == "" {
		return ""
	}
	// the link inside the time element, as WordPress 6.9 writes it
	d := esc(p.DateText)
	if boolean(b, "isLink") {
		d = `<a href="` + escURL(p.URL) + `">` + d + `</a>`
	}
	return `<div class="` + classes(b, "wp-block-post-date") + `"><time datetime="` + esc(p.DateISO) + `">` + d + `</time></div>`
}

// postAuthor is render_block_core_post_author and _author_name: the name,
// linked to the author's archive only with isLink (Twenty Twenty-Three's
// "by admin" is not a link).
func postAuthor(b *Block, env *Env) string {
	p := env.Post
	if p == nil || p.Author.Label == "" {
		return ""
	}
	author := b.Name == "core/post-author"
	name := esc(p.Author.Label)
	if boolean(b, "isLink") && p.Author.URL != "" {
		cls := ` class="wp-block-post-author-name__link"`
		if author {
			cls = ""
		}
		name = `<a href="` + escURL(p.Author.URL) + `" target="` + esc(str(b, "linkTarget", "_self")) + `"` + cls + `>` + name + `</a>`
	}
	if author {
		return `<div class="` + classes(b, "wp-block-post-author") + `"><div class="wp-block-post-author__content"><p class="wp-block-post-author__name">` +
			name + `</p></div></div>`
	}
	return `<div class="` + classes(b, "wp-block-post-author-name") + `">` + name + `</div>`
}

func postExcerpt(b *Block, env *Env) string {
	p := env.Post
	if p == nil {
		return ""
	}
	out := `<div class="` + classes(b, "wp-block-post-excerpt") + `"><p class="wp-block-post-excerpt__excerpt">` + esc(p.Excerpt) + `</p>`
	if more := str(b, "moreText", ""); more != "" {
		out += `<p class="wp-block-post-excerpt__more-text"><a class="wp-block-post-excerpt__more-link" href="` + escURL(p.URL) + `">` +
			esc(more) + `<span class="screen-reader-text">: ` + esc(p.Title) + `</span></a></p>`
	}
	return out + `</div>`
}

func postContent(b *Block, env *Env) string {
	p := env.Post
	if p == nil {
		return ""
	}
	cls := classes(b, "entry-content", "wp-block-post-content")
	if l := layoutClass(b); l != "" {
		cls += " " + l
	}
	return `<div class="` + cls + `">` + p.ContentHTML + `</div>`
}

// postFeaturedImage is render_block_core_post_featured_image: the block's
// width and height on the figure, the height and object-fit (scale) on the
// image and its link, the alignment class, the spacing style, and the
// overlay span of dimRatio / overlayColor (Twenty Twenty-Three's single
// post darkens its wide image by half).
func postFeaturedImage(b *Block, env *Env) string {
	p := env.Post
	if p == nil || p.Image == nil {
		return ""
	}
	height, width := safeCSS(str(b, "height", "")), safeCSS(str(b, "width", ""))
	imgStyle := "object-fit:" + sanitizeClass(str(b, "scale", "cover"))
	if height != "" {
		imgStyle = "height:" + height + ";" + imgStyle
	}
	img := `<img src="` + escURL(p.Image.URL) + `" alt="` + esc(p.Image.Alt) + `" style="` + esc(imgStyle) + `" loading="lazy">`
	if boolean(b, "isLink") {
		linkStyle := ""
		if height != "" {
			linkStyle = ` style="height:` + esc(height) + `"`
		}
		img = `<a href="` + escURL(p.URL) + `" aria-label="` + esc(p.Title) + `"` + linkStyle + `>` + img + `</a>`
	}
	var figStyle []string
	if width != "" {
		figStyle = append(figStyle, "width:"+width)
	}
	if height != "" {
		figStyle = append(figStyle, "height:"+height)
	}
	if st := spacingStyle(b); st != "" {
		figStyle = append(figStyle, st)
	}
	style := ""
	if len(figStyle) > 0 {
		style = ` style="` + esc(strings.Join(figStyle, ";")) + `"`
	}
	return `<figure` + style + ` class="` + classes(b, "wp-block-post-featured-image") + alignClass(b) + `">` + img + featuredOverlay(b) + `</figure>`
}

// featuredOverlay is the featured image's overlay: dimRatio (rounded to
// tens, as the has-background-dim-N classes go) over the overlay colour.
func featuredOverlay(b *Block) string {
	dim := num(b, "dimRatio", 0)
	colour := sanitizeClass(str(b, "overlayColor", ""))
	if dim <= 0 && colour == "" {
		return ""
	}
	cls := "wp-block-post-featured-image__overlay"
	if dim > 0 {
		cls += " has-background-dim has-background-dim-" + strconv.Itoa((min(dim, 100)+5)/10*10)
	}
	if colour != "" {
		cls += " has-" + colour + "-background-color"
	}
	return `<span class="` + cls + `" aria-hidden="true"></span>`
}

func postTerms(b *Block, env *Env) string {
	p := env.Post
	tax := str(b, "term", "")
	if p == nil || len(p.Terms[tax]) == 0 {
		return ""
	}
	sep := str(b, "separator", ", ")
	var links []string
	for _, t := range p.Terms[tax] {
		links = append(links, `<a href="`+escURL(t.URL)+`" rel="tag">`+esc(t.Label)+`</a>`)
	}
	out := `<div class="` + classes(b, "taxonomy-"+sanitizeClass(tax), "wp-block-post-terms") + `">`
	if pre := str(b, "prefix", ""); pre != "" {
		out += `<span class="wp-block-post-terms__prefix">` + esc(pre) + `</span>`
	}
	return out + strings.Join(links, `<span class="wp-block-post-terms__separator">`+esc(sep)+`</span>`) + `</div>`
}

func postNavigationLink(b *Block, env *Env) string {
	p := env.Post
	if p == nil {
		return ""
	}
	kind, l, rel := "next", p.Next, "next"
	if str(b, "type", "next") == "previous" {
		kind, l, rel = "previous", p.Prev, "prev"
	}
	if l == nil {
		return ""
	}
	label := str(b, "label", "")
	if label == "" || boolean(b, "showTitle") {
		label = l.Label
	}
	return `<div class="` + classes(b, "post-navigation-link-"+kind, "wp-block-post-navigation-link") + `"><a href="` +
		escURL(l.URL) + `" rel="` + rel + `">` + esc(label) + `</a></div>`
}
