package blocks

// Query blocks: the loop over the main query, its pagination and the
// archive's title and description.

import (
	"strconv"
	"strings"
)

func query(b *Block, env *Env) string {
	var sb strings.Builder
	writeQuery(&sb, b, env)
	return sb.String()
}

// writeQuery and writePostTemplate write the query loop straight into the
// page (writers): it is most of a listing's HTML.
func writeQuery(sb *strings.Builder, b *Block, env *Env) {
	cls := classes(b, "wp-block-query") + alignClass(b)
	if l := layoutClass(b); l != "" {
		cls += " " + l
	}
	sb.WriteString(`<div class="`)
	sb.WriteString(cls)
	sb.WriteString(`">`)
	sub := *env
	sub.postTemplateClass = displayLayoutClass(b)
	writeChildren(sb, b, &sub)
	sb.WriteString(`</div>`)
}

// alignClass is the block supports' alignment class (" alignwide") of a
// dynamic block, whose saved HTML (which would carry it) is not used.
func alignClass(b *Block) string {
	switch a := sanitizeClass(str(b, "align", "")); a {
	case "wide", "full", "left", "right", "center":
		return " align" + a
	}
	return ""
}

// displayLayoutClass is render_block_core_post_template's class for the
// query's displayLayout (the attribute before post-template had a layout
// of its own, which published themes such as Twenty Twenty-Three still
// write): a flex grid of columns.
func displayLayoutClass(b *Block) string {
	dl := obj(b.Attrs, "displayLayout")
	if t, _ := dl["type"].(string); t != "flex" {
		return ""
	}
	n, ok := dl["columns"].(float64)
	if !ok || n < 1 || n > 12 {
		n = 3 // the attribute's default
	}
	return "is-flex-container columns-" + strconv.Itoa(int(n))
}

// renderChildren renders only the inner blocks (a dynamic block's saved
// wrapper HTML is replaced by the block's own).

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
	sb.WriteString(classes(b, "wp-block-post-template") + alignClass(b))
	if env.postTemplateClass != "" {
		sb.WriteString(" " + env.postTemplateClass)
	}
	if l := layoutClass(b); l != "" {
		sb.WriteString(" " + l)
	}
	sb.WriteString(`">`)
	sub := *env
	sub.postTemplateClass = ""
	for _, p := range q.Posts {
		sub.Post = p
		sb.WriteString(`<li class="wp-block-post post-`)
		sb.WriteString(strconv.FormatInt(p.ID, 10))
		sb.WriteString(` type-`)
		sb.WriteString(sanitizeClass(p.Type))
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
	return paginationNav(b, env, "wp-block-query-pagination", "Pagination")
}

// paginationNav is a pagination block's nav around its inner blocks
// (flex, the block's default layout, when it names none); it gives its
// links the arrow and label context.
func paginationNav(b *Block, env *Env, base, label string) string {
	cls := classes(b, base) + alignClass(b)
	l := layoutClass(b)
	sub := *env
	sub.paginationArrow = str(b, "paginationArrow", "none")
	sub.hidePaginationLabel = b.Attrs["showLabel"] == false
	return `<nav class="` + cls + " " + l + `" aria-label="` + label + `">` + renderChildren(b, &sub) + `</nav>`
}

// paginationArrows are get_query_pagination_arrow's arrows: previous, next.
var paginationArrows = map[string][2]string{"arrow": {"←", "→"}, "chevron": {"«", "»"}}

// paginationLink is a previous or next link of a pagination block (kind
// "query" or "comments"): its label, or the default, with the enclosing
// block's arrow before (previous) or after (next) it; with the label
// hidden (showLabel off) the label is the link's aria-label.
func paginationLink(b *Block, env *Env, kind, href string, next bool, fallback string) string {
	dir, i := "previous", 0
	if next {
		dir, i = "next", 1
	}
	text := esc(str(b, "label", fallback))
	attrs := `href="` + escURL(href) + `" class="wp-block-` + kind + `-pagination-` + dir + `"`
	label := text
	if kind == "query" && env.hidePaginationLabel { // the comments links always show theirs
		label, attrs = "", attrs+` aria-label="`+text+`"`
	}
	if a, ok := paginationArrows[env.paginationArrow]; ok {
		arrow := `<span class="wp-block-` + kind + `-pagination-` + dir + `-arrow is-arrow-` + env.paginationArrow + `" aria-hidden="true">` + a[i] + `</span>`
		if next {
			label += arrow
		} else {
			label = arrow + label
		}
	}
	return `<a ` + attrs + `>` + label + `</a>`
}

func paginationPrevious(b *Block, env *Env) string {
	q := env.Query
	if q == nil || q.Page <= 1 {
		return ""
	}
	return paginationLink(b, env, "query", q.PageURL(q.Page-1), false, "Previous Page")
}

func paginationNext(b *Block, env *Env) string {
	q := env.Query
	if q == nil || q.Page >= q.Pages {
		return ""
	}
	return paginationLink(b, env, "query", q.PageURL(q.Page+1), true, "Next Page")
}

// paginationNumbers is paginate_links as the block calls it (prev_next
// off, end_size 1, mid_size 2): the first and last page, two either side of
// the current one and "…" for each gap, so the markup stays the same size
// at any number of pages (a link per page made the front page 750 KB at
// 100,000 posts).
func paginationNumbers(_ *Block, env *Env) string {
	return pageNumbers("wp-block-query-pagination-numbers", env.Query)
}

// pageNumbers is the numbers of q's pages in a div of class cls.
func pageNumbers(cls string, q *Query) string {
	if q == nil || q.Pages < 2 {
		return ""
	}
	const endSize, midSize = 1, 2
	var sb strings.Builder
	sb.WriteString(`<div class="` + cls + `">`)
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
			sb.WriteString(`<a class="page-numbers" href="` + escURL(q.PageURL(n)) + `">` + groupThousands(n) + `</a>`)
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
	return "<" + tag + ` class="` + classes(b, "wp-block-query-title") + alignClass(b) + `">` + esc(env.ArchiveTitle) + "</" + tag + ">"
}

func termDescription(b *Block, env *Env) string {
	if env.ArchiveDescription == "" {
		return ""
	}
	return `<div class="` + classes(b, "wp-block-term-description") + `"><p>` + esc(env.ArchiveDescription) + `</p></div>`
}
