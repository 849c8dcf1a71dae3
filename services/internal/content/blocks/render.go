package blocks

import (
	"html"
	"strconv"
	"strings"
)

// Render renders parsed nodes to HTML with env.
func Render(nodes []Node, env *Env) string {
	if env == nil {
		env = &Env{}
	}
	if env.ids == nil {
		env.ids = new(int)
	}
	var sb strings.Builder
	sb.Grow(env.SizeHint)
	renderNodes(&sb, nodes, env)
	return sb.String()
}

// RenderMarkup parses and renders block markup.
func RenderMarkup(src string, env *Env) string { return Render(Parse(src), env) }

func renderNodes(sb *strings.Builder, nodes []Node, env *Env) {
	for _, n := range nodes {
		if n.Block == nil {
			sb.WriteString(n.HTML)
			continue
		}
		writeBlock(sb, n.Block, env)
	}
}

// writeBlock is renderBlock into sb: a static block that adds no class or
// style to its HTML is written in place, without a string of its own.
func writeBlock(sb *strings.Builder, b *Block, env *Env) {
	switch b.Name {
	case "core/query":
		writeQuery(sb, b, env)
		return
	case "core/post-template":
		writePostTemplate(sb, b, env)
		return
	}
	if _, ok := dynamic[b.Name]; !ok && len(b.Attrs) == 0 {
		renderNodes(sb, b.Parts, env)
		return
	}
	sb.WriteString(renderBlock(b, env))
}

// renderFunc renders a dynamic block.
type renderFunc func(b *Block, env *Env) string

var dynamic map[string]renderFunc

func init() {
	dynamic = map[string]renderFunc{
		"core/site-title":                siteTitle,
		"core/site-tagline":              siteTagline,
		"core/navigation":                navigation,
		"core/template-part":             templatePart,
		"core/post-title":                postTitle,
		"core/post-date":                 postDate,
		"core/post-author":               postAuthor,
		"core/post-author-name":          postAuthor,
		"core/post-excerpt":              postExcerpt,
		"core/post-content":              postContent,
		"core/post-featured-image":       postFeaturedImage,
		"core/post-terms":                postTerms,
		"core/post-navigation-link":      postNavigationLink,
		"core/query":                     query,
		"core/post-template":             postTemplate,
		"core/query-no-results":          queryNoResults,
		"core/query-pagination":          queryPagination,
		"core/query-pagination-previous": paginationPrevious,
		"core/query-pagination-next":     paginationNext,
		"core/query-pagination-numbers":  paginationNumbers,
		"core/query-title":               queryTitle,
		"core/term-description":          termDescription,
		"core/search":                    search,
		"core/comments":                  nothing, // Siteplane has no comments
		"core/post-comments-form":        nothing,
		"core/navigation-link":           navigationLink,
		"core/home-link":                 homeLink,
	}
}

// renderBlock renders one block: a dynamic block by its function, any
// other (static and unknown blocks) as its saved HTML with its inner blocks
// rendered in place, plus the layout class of blocks that have one.
func renderBlock(b *Block, env *Env) string {
	if f, ok := dynamic[b.Name]; ok {
		return f(b, env)
	}
	out := renderInner(b, env)
	if cls := layoutClass(b); cls != "" {
		out = addClass(out, cls)
	}
	if st := spacingStyle(b); st != "" {
		out = addStyle(out, st)
	}
	return out
}

func renderInner(b *Block, env *Env) string {
	var sb strings.Builder
	renderNodes(&sb, b.Parts, env)
	return sb.String()
}

func nothing(*Block, *Env) string { return "" }

// attribute helpers

func str(b *Block, k, def string) string {
	if v, ok := b.Attrs[k].(string); ok {
		return v
	}
	return def
}

func num(b *Block, k string, def int) int {
	if v, ok := b.Attrs[k].(float64); ok {
		return int(v)
	}
	return def
}

func boolean(b *Block, k string) bool {
	v, _ := b.Attrs[k].(bool)
	return v
}

func obj(m map[string]any, k string) map[string]any {
	v, _ := m[k].(map[string]any)
	return v
}

var esc = html.EscapeString

// classes builds the class attribute of a dynamic block's wrapper: its
// base classes, the preset colour and font-size classes and className.
func classes(b *Block, base ...string) string {
	c := append([]string(nil), base...)
	if v := str(b, "textColor", ""); v != "" {
		c = append(c, "has-"+v+"-color", "has-text-color")
	}
	if v := str(b, "backgroundColor", ""); v != "" {
		c = append(c, "has-"+v+"-background-color", "has-background")
	}
	if v := str(b, "fontSize", ""); v != "" {
		c = append(c, "has-"+v+"-font-size")
	}
	if v := str(b, "textAlign", ""); v != "" {
		c = append(c, "has-text-align-"+v)
	}
	if v := str(b, "className", ""); v != "" {
		c = append(c, v)
	}
	return esc(strings.Join(c, " "))
}

func layoutClass(b *Block) string {
	l := obj(b.Attrs, "layout")
	if l == nil {
		return ""
	}
	t, _ := l["type"].(string)
	switch t {
	case "constrained", "flex", "grid":
	default:
		t = "flow"
	}
	cls := "is-layout-" + t
	if t == "flex" {
		if o, _ := l["orientation"].(string); o == "vertical" {
			cls += " is-vertical"
		}
		if j, _ := l["justifyContent"].(string); j != "" {
			cls += " is-content-justification-" + j
		}
		if w, _ := l["flexWrap"].(string); w == "nowrap" {
			cls += " is-nowrap"
		}
	}
	return cls
}

// presetValue turns "var:preset|spacing|60" into the CSS custom property.
func presetValue(v string) string {
	if rest, ok := strings.CutPrefix(v, "var:"); ok {
		return "var(--wp--" + strings.ReplaceAll(rest, "|", "--") + ")"
	}
	return v
}

// spacingStyle renders style.spacing.padding/margin as inline CSS.
func spacingStyle(b *Block) string {
	sp := obj(obj(b.Attrs, "style"), "spacing")
	if sp == nil {
		return ""
	}
	var out []string
	if g, ok := sp["blockGap"].(string); ok && g != "" {
		out = append(out, "gap:"+presetValue(g))
	}
	for _, prop := range []string{"padding", "margin"} {
		sides := obj(sp, prop)
		for _, side := range []string{"top", "right", "bottom", "left"} {
			if v, ok := sides[side].(string); ok && v != "" {
				out = append(out, prop+"-"+side+":"+presetValue(v))
			}
		}
	}
	return strings.Join(out, ";")
}

// addClass adds cls to the class attribute of the first tag of s (or
// gives that tag one).
func addClass(s, cls string) string {
	open := strings.IndexByte(s, '<')
	if open < 0 {
		return s
	}
	end := strings.IndexByte(s[open:], '>')
	if end < 0 {
		return s
	}
	tag := s[open : open+end]
	if i := strings.Index(tag, `class="`); i >= 0 {
		at := open + i + len(`class="`)
		return s[:at] + cls + " " + s[at:]
	}
	at := open + 1
	for at < len(s) && s[at] != ' ' && s[at] != '>' && s[at] != '/' {
		at++
	}
	return s[:at] + ` class="` + cls + `"` + s[at:]
}

// addStyle adds inline CSS to the first tag of s.
func addStyle(s, css string) string {
	open := strings.IndexByte(s, '<')
	if open < 0 {
		return s
	}
	end := strings.IndexByte(s[open:], '>')
	if end < 0 || strings.Contains(s[open:open+end], "style=") {
		return s
	}
	at := open + 1
	for at < len(s) && s[at] != ' ' && s[at] != '>' && s[at] != '/' {
		at++
	}
	return s[:at] + ` style="` + esc(css) + `"` + s[at:]
}

func heading(level int) string {
	if level <= 0 || level > 6 {
		return "p"
	}
	return "h" + strconv.Itoa(level)
}

// site blocks

func siteTitle(b *Block, env *Env) string {
	tag := heading(num(b, "level", 1))
	inner := esc(env.SiteTitle)
	if !b.hasFalse("isLink") {
		inner = `<a href="` + esc(env.HomeURL+"/") + `" rel="home">` + inner + `</a>`
	}
	return "<" + tag + ` class="` + classes(b, "wp-block-site-title") + `">` + inner + "</" + tag + ">"
}

func (b *Block) hasFalse(k string) bool {
	v, ok := b.Attrs[k].(bool)
	return ok && !v
}

func siteTagline(b *Block, env *Env) string {
	if env.Tagline == "" {
		return ""
	}
	return `<p class="` + classes(b, "wp-block-site-tagline") + `">` + esc(env.Tagline) + `</p>`
}

func navigation(b *Block, env *Env) string {
	var items []string
	if inner := b.Inner(); len(inner) > 0 {
		for _, c := range inner {
			if h := renderBlock(c, env); h != "" {
				items = append(items, h)
			}
		}
	} else if env.Navigation != nil {
		for _, l := range env.Navigation(int64(num(b, "ref", 0))) {
			items = append(items, navItem(l))
		}
	}
	if len(items) == 0 {
		return ""
	}
	cls := classes(b, "wp-block-navigation")
	if l := layoutClass(b); l != "" {
		cls += " " + l
	}
	return `<nav class="` + cls + `" aria-label="` + esc(str(b, "ariaLabel", "Navigation")) + `"><ul class="wp-block-navigation__container">` +
		strings.Join(items, "") + `</ul></nav>`
}

func navItem(l Link) string {
	return `<li class="wp-block-navigation-item"><a class="wp-block-navigation-item__content" href="` + esc(l.URL) + `">` +
		esc(l.Label) + `</a></li>`
}

func navigationLink(b *Block, env *Env) string {
	u := str(b, "url", "")
	if u == "" {
		return ""
	}
	return navItem(Link{Label: str(b, "label", u), URL: u})
}

func homeLink(b *Block, env *Env) string {
	return navItem(Link{Label: str(b, "label", "Home"), URL: env.HomeURL + "/"})
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

// post blocks

func postTitle(b *Block, env *Env) string {
	p := env.Post
	if p == nil {
		return ""
	}
	tag := heading(num(b, "level", 2))
	inner := esc(p.Title)
	if boolean(b, "isLink") {
		inner = `<a href="` + esc(p.URL) + `">` + inner + `</a>`
	}
	return "<" + tag + ` class="` + classes(b, "wp-block-post-title") + `">` + inner + "</" + tag + ">"
}

func postDate(b *Block, env *Env) string {
	p := env.Post
	if p == nil || p.DateISO == "" {
		return ""
	}
	t := `<time datetime="` + esc(p.DateISO) + `">` + esc(p.DateText) + `</time>`
	if boolean(b, "isLink") {
		t = `<a href="` + esc(p.URL) + `">` + t + `</a>`
	}
	return `<div class="` + classes(b, "wp-block-post-date") + `">` + t + `</div>`
}

func postAuthor(b *Block, env *Env) string {
	p := env.Post
	if p == nil || p.Author.Label == "" {
		return ""
	}
	name := esc(p.Author.Label)
	if p.Author.URL != "" {
		name = `<a href="` + esc(p.Author.URL) + `" rel="author">` + name + `</a>`
	}
	if b.Name == "core/post-author" {
		return `<div class="` + classes(b, "wp-block-post-author") + `"><p class="wp-block-post-author__name">` + name + `</p></div>`
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
		out += `<p class="wp-block-post-excerpt__more-text"><a class="wp-block-post-excerpt__more-link" href="` + esc(p.URL) + `">` +
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

func postFeaturedImage(b *Block, env *Env) string {
	p := env.Post
	if p == nil || p.Image == nil {
		return ""
	}
	img := `<img src="` + esc(p.Image.URL) + `" alt="` + esc(p.Image.Alt) + `" loading="lazy">`
	if boolean(b, "isLink") {
		img = `<a href="` + esc(p.URL) + `" aria-label="` + esc(p.Title) + `">` + img + `</a>`
	}
	return `<figure class="` + classes(b, "wp-block-post-featured-image") + `">` + img + `</figure>`
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
		links = append(links, `<a href="`+esc(t.URL)+`" rel="tag">`+esc(t.Label)+`</a>`)
	}
	out := `<div class="` + classes(b, "taxonomy-"+tax, "wp-block-post-terms") + `">`
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
		esc(l.URL) + `" rel="` + rel + `">` + esc(label) + `</a></div>`
}

// query blocks

func query(b *Block, env *Env) string {
	var sb strings.Builder
	writeQuery(&sb, b, env)
	return sb.String()
}

// writeQuery and writePostTemplate write the query loop straight into the
// page (writers): it is most of a listing's HTML.
func writeQuery(sb *strings.Builder, b *Block, env *Env) {
	cls := classes(b, "wp-block-query")
	if l := layoutClass(b); l != "" {
		cls += " " + l
	}
	sb.WriteString(`<div class="`)
	sb.WriteString(cls)
	sb.WriteString(`">`)
	writeChildren(sb, b, env)
	sb.WriteString(`</div>`)
}

// renderChildren renders only the inner blocks (a dynamic block's saved
// wrapper HTML is replaced by the block's own).
func renderChildren(b *Block, env *Env) string {
	var sb strings.Builder
	writeChildren(&sb, b, env)
	return sb.String()
}

func writeChildren(sb *strings.Builder, b *Block, env *Env) {
	for _, n := range b.Parts {
		if n.Block != nil {
			writeBlock(sb, n.Block, env)
		}
	}
}

func postTemplate(b *Block, env *Env) string {
	var sb strings.Builder
	writePostTemplate(&sb, b, env)
	return sb.String()
}

func writePostTemplate(sb *strings.Builder, b *Block, env *Env) {
	q := env.Query
	if q == nil || len(q.Posts) == 0 {
		return
	}
	sb.WriteString(`<ul class="`)
	sb.WriteString(classes(b, "wp-block-post-template"))
	sb.WriteString(`">`)
	sub := *env
	for _, p := range q.Posts {
		sub.Post = p
		sb.WriteString(`<li class="wp-block-post post-`)
		sb.WriteString(strconv.FormatInt(p.ID, 10))
		sb.WriteString(` type-`)
		sb.WriteString(esc(p.Type))
		sb.WriteString(`">`)
		writeChildren(sb, b, &sub)
		sb.WriteString(`</li>`)
	}
	sb.WriteString(`</ul>`)
}

func queryNoResults(b *Block, env *Env) string {
	if env.Query != nil && len(env.Query.Posts) > 0 {
		return ""
	}
	return renderChildren(b, env)
}

func queryPagination(b *Block, env *Env) string {
	q := env.Query
	if q == nil || q.Pages < 2 {
		return ""
	}
	cls := classes(b, "wp-block-query-pagination")
	if l := layoutClass(b); l != "" {
		cls += " " + l
	}
	return `<nav class="` + cls + `" aria-label="Pagination">` + renderChildren(b, env) + `</nav>`
}

func paginationPrevious(b *Block, env *Env) string {
	q := env.Query
	if q == nil || q.Page <= 1 {
		return ""
	}
	return `<a class="wp-block-query-pagination-previous" href="` + esc(q.PageURL(q.Page-1)) + `">` + esc(str(b, "label", "Previous Page")) + `</a>`
}

func paginationNext(b *Block, env *Env) string {
	q := env.Query
	if q == nil || q.Page >= q.Pages {
		return ""
	}
	return `<a class="wp-block-query-pagination-next" href="` + esc(q.PageURL(q.Page+1)) + `">` + esc(str(b, "label", "Next Page")) + `</a>`
}

// paginationNumbers is paginate_links as the block calls it (prev_next
// off, end_size 1, mid_size 2): the first and last page, two either side of
// the current one and "…" for each gap, so the markup stays the same size
// at any number of pages (a link per page made the front page 750 KB at
// 100,000 posts).
func paginationNumbers(b *Block, env *Env) string {
	q := env.Query
	if q == nil || q.Pages < 2 {
		return ""
	}
	const endSize, midSize = 1, 2
	var sb strings.Builder
	sb.WriteString(`<div class="wp-block-query-pagination-numbers">`)
	dots, first := false, true
	sep := func() {
		if !first {
			sb.WriteByte('\n') // paginate_links joins its links with newlines
		}
		first = false
	}
	for n := 1; n <= q.Pages; n++ {
		switch {
		case n == q.Page:
			sep()
			sb.WriteString(`<span aria-current="page" class="page-numbers current">` + groupThousands(n) + `</span>`)
			dots = true
		case n <= endSize || (n >= q.Page-midSize && n <= q.Page+midSize) || n > q.Pages-endSize:
			sep()
			sb.WriteString(`<a class="page-numbers" href="` + esc(q.PageURL(n)) + `">` + groupThousands(n) + `</a>`)
			dots = true
		case dots:
			sep()
			sb.WriteString(`<span class="page-numbers dots">&hellip;</span>`)
			dots = false
		default:
			// inside a gap already marked: skip to its last page
			if n < q.Page-midSize {
				n = q.Page - midSize - 1
			} else {
				n = q.Pages - endSize
			}
		}
	}
	sb.WriteString(`</div>`)
	return sb.String()
}

// groupThousands is number_format_i18n for the site's locale (en_US):
// 10000 → "10,000".
func groupThousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 || len(s) <= 3 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func queryTitle(b *Block, env *Env) string {
	if env.ArchiveTitle == "" {
		return ""
	}
	tag := heading(num(b, "level", 1))
	return "<" + tag + ` class="` + classes(b, "wp-block-query-title") + `">` + esc(env.ArchiveTitle) + "</" + tag + ">"
}

func termDescription(b *Block, env *Env) string {
	if env.ArchiveDescription == "" {
		return ""
	}
	return `<div class="` + classes(b, "wp-block-term-description") + `"><p>` + esc(env.ArchiveDescription) + `</p></div>`
}

func search(b *Block, env *Env) string {
	label := str(b, "label", "Search")
	id := env.nextID("wp-block-search__input")
	labelCls := "wp-block-search__label"
	if b.hasFalse("showLabel") {
		labelCls += " screen-reader-text"
	}
	return `<form role="search" method="get" action="` + esc(env.HomeURL+"/") + `" class="` + classes(b, "wp-block-search") + `">` +
		`<label class="` + labelCls + `" for="` + id + `">` + esc(label) + `</label>` +
		`<div class="wp-block-search__inside-wrapper"><input class="wp-block-search__input" id="` + id + `" type="search" name="s" value="` +
		esc(env.SearchQuery) + `" required>` +
		`<button type="submit" class="wp-block-search__button">` + esc(str(b, "buttonText", "Search")) + `</button></div></form>`
}
