package blocks

import (
	"slices"
	"strings"
)

// elementSelectors are theme.json's elements as CSS selectors; h1–h6 are
// their own names.
var elementSelectors = map[string]string{"link": "a", "heading": "h1,h2,h3,h4,h5,h6", "button": ".wp-element-button,.wp-block-button__link"}

// unstyledCoreBlocks are WordPress 6.9's core blocks without a front-end
// stylesheet (no style.css in wp-includes/blocks/NAME/). With a block
// theme WordPress prints a core block's theme.json styles only beside its
// enqueued stylesheet (wp_add_global_styles_for_blocks), so these blocks'
// styles never reach the page: Twenty Twenty-Three's core/query h2 size
// (x-large) is not applied there, and the listing's titles are h2-sized.
var unstyledCoreBlocks = map[string]struct{}{
	"core/block": {}, "core/column": {}, "core/comments-pagination-next": {}, "core/comments-pagination-numbers": {},
	"core/comments-pagination-previous": {}, "core/comments-title": {}, "core/freeform": {}, "core/home-link": {},
	"core/html": {}, "core/legacy-widget": {}, "core/list-item": {}, "core/missing": {}, "core/more": {},
	"core/navigation-submenu": {}, "core/nextpage": {}, "core/page-list-item": {}, "core/pattern": {},
	"core/query-no-results": {}, "core/query-pagination-next": {}, "core/query-pagination-numbers": {},
	"core/query-pagination-previous": {}, "core/query": {}, "core/shortcode": {}, "core/social-link": {},
	"core/template-part": {}, "core/terms-query": {}, "core/widget-group": {},
}

// elementOrder is WordPress's order of the elements' rules (its
// WP_Theme_JSON::ELEMENTS): "heading" before h1–h6, so that a level's own
// value (Twenty Twenty-Three's h1 and h2 line height 1.2) wins over the
// one of all headings (1.4) at the same specificity.
var elementOrder = []string{"link", "heading", "h1", "h2", "h3", "h4", "h5", "h6", "button"}

// orderedElements lists the names of elements in elementOrder, then any
// other in name order.
func orderedElements(elements map[string]any) []string {
	var out []string
	for _, name := range elementOrder {
		if _, ok := elements[name]; ok {
			out = append(out, name)
		}
	}
	for _, name := range sortedKeys(elements) {
		if !slices.Contains(elementOrder, name) {
			out = append(out, name)
		}
	}
	return out
}

// elementsCSS writes the rules of a styles.elements object: the root's
// (scope "") or a block's (styles.blocks.X.elements, scope its class), as
// WordPress scopes a block's element styles to the block, e.g. the site
// title's links without their underline in Twenty Twenty-Three.
func elementsCSS(sb *strings.Builder, scope string, elements map[string]any) {
	for _, name := range orderedElements(elements) {
		sel, ok := elementSelectors[name]
		if !ok {
			if len(name) != 2 || name[0] != 'h' {
				continue
			}
			sel = name
		}
		sel = scoped(scope, sel)
		el := obj(elements, name)
		if d := declarations(el); d != "" {
			sb.WriteString(sel + "{" + d + "}")
		}
		if d := declarations(obj(el, ":hover")); d != "" {
			sb.WriteString(hoverOf(sel) + "{" + d + "}")
		}
	}
}

// scoped puts each selector of the list sel below scope.
func scoped(scope, sel string) string {
	if scope == "" {
		return sel
	}
	parts := strings.Split(sel, ",")
	for i, p := range parts {
		parts[i] = scope + " " + p
	}
	return strings.Join(parts, ",")
}

// postTemplateGridCSS is the block library's grid of a post template in a
// query with a flex displayLayout: one column on narrow screens, the
// columns from 600px.
const postTemplateGridCSS = ".wp-block-post-template.is-flex-container{display:flex;flex-direction:row;flex-wrap:wrap;gap:1.25em}" +
	".wp-block-post-template.is-flex-container>li{margin:0;width:100%}" +
	"@media (min-width:600px){.wp-block-post-template.is-flex-container.columns-2>li{width:calc(50% - .625em)}" +
	".wp-block-post-template.is-flex-container.columns-3>li{width:calc(33.33333% - .83333em)}" +
	".wp-block-post-template.is-flex-container.columns-4>li{width:calc(25% - .9375em)}" +
	".wp-block-post-template.is-flex-container.columns-5>li{width:calc(20% - 1em)}" +
	".wp-block-post-template.is-flex-container.columns-6>li{width:calc(16.66667% - 1.04167em)}}"

// featuredImageCSS is the block library's stylesheet of the featured
// image (wp-includes/blocks/post-featured-image/style.css): the image fills
// its figure, a link fills the figure's height, the overlay covers it at
// the dimRatio opacity.
const featuredImageCSS = ".wp-block-post-featured-image{margin-left:0;margin-right:0;position:relative}" +
	".wp-block-post-featured-image a{display:block;height:100%}" +
	".wp-block-post-featured-image :where(img){box-sizing:border-box;height:auto;max-width:100%;vertical-align:bottom;width:100%}" +
	".wp-block-post-featured-image .wp-block-post-featured-image__overlay.has-background-dim{background-color:#000;inset:0;position:absolute}" +
	".wp-block-post-featured-image .wp-block-post-featured-image__overlay.has-background-dim-0{opacity:0}" +
	".wp-block-post-featured-image .wp-block-post-featured-image__overlay.has-background-dim-10{opacity:.1}" +
	".wp-block-post-featured-image .wp-block-post-featured-image__overlay.has-background-dim-20{opacity:.2}" +
	".wp-block-post-featured-image .wp-block-post-featured-image__overlay.has-background-dim-30{opacity:.3}" +
	".wp-block-post-featured-image .wp-block-post-featured-image__overlay.has-background-dim-40{opacity:.4}" +
	".wp-block-post-featured-image .wp-block-post-featured-image__overlay.has-background-dim-50{opacity:.5}" +
	".wp-block-post-featured-image .wp-block-post-featured-image__overlay.has-background-dim-60{opacity:.6}" +
	".wp-block-post-featured-image .wp-block-post-featured-image__overlay.has-background-dim-70{opacity:.7}" +
	".wp-block-post-featured-image .wp-block-post-featured-image__overlay.has-background-dim-80{opacity:.8}" +
	".wp-block-post-featured-image .wp-block-post-featured-image__overlay.has-background-dim-90{opacity:.9}" +
	".wp-block-post-featured-image .wp-block-post-featured-image__overlay.has-background-dim-100{opacity:1}"
