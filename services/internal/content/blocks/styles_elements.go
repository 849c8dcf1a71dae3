package blocks

import (
	"slices"
	"strings"
)

// elementSelectors are WordPress 6.9's element selectors
// (WP_Theme_JSON::ELEMENTS, without its spaces): a link is an `a` that is
// not a button, so a button block's link takes the button's colours, not
// the links'.
var elementSelectors = map[string]string{
	"link":    "a:where(:not(.wp-element-button))",
	"heading": "h1,h2,h3,h4,h5,h6",
	"h1":      "h1", "h2": "h2", "h3": "h3", "h4": "h4", "h5": "h5", "h6": "h6",
	"button": ".wp-element-button,.wp-block-button__link",
	"caption": ".wp-element-caption,.wp-block-audio figcaption,.wp-block-embed figcaption,.wp-block-gallery figcaption," +
		".wp-block-image figcaption,.wp-block-table figcaption,.wp-block-video figcaption",
	"cite": "cite",
}

// classElements are the elements WordPress selects by class
// (WP_Theme_JSON::__EXPERIMENTAL_ELEMENT_CLASS_NAMES): their rules are
// wrapped in `:root :where()` even at the top level, where the others keep
// the element-only specificity.
var classElements = map[string]struct{}{"button": {}, "caption": {}}

// elementPseudoSelectors are the states an element may style
// (WP_Theme_JSON::VALID_ELEMENT_PSEUDO_SELECTORS), in WordPress's order.
var elementPseudoSelectors = map[string][]string{
	"link":   {":link", ":any-link", ":visited", ":hover", ":focus", ":focus-visible", ":active"},
	"button": {":link", ":any-link", ":visited", ":hover", ":focus", ":focus-visible", ":active"},
}

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
var elementOrder = []string{"link", "heading", "h1", "h2", "h3", "h4", "h5", "h6", "button", "caption", "cite"}

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
// title's links without their underline in Twenty Twenty-Three. As
// WP_Theme_JSON::get_styles_for_block does, a rule is wrapped in
// `:root :where()` (specificity 0,1,0) unless it is a top-level element
// selected by tag alone; a state (":hover") is always wrapped.
func elementsCSS(sb *strings.Builder, scope string, elements map[string]any) {
	for _, name := range orderedElements(elements) {
		sel, ok := elementSelectors[name]
		if !ok {
			continue
		}
		sel = scoped(scope, sel)
		el := obj(elements, name)
		if d := declarations(el); d != "" {
			rule := sel
			if _, byClass := classElements[name]; scope != "" || byClass {
				rule = ":root :where(" + sel + ")"
			}
			sb.WriteString(rule + "{" + d + "}")
		}
		for _, pseudo := range elementPseudoSelectors[name] {
			if d := declarations(obj(el, pseudo)); d != "" {
				sb.WriteString(":root :where(" + appendToSelector(sel, pseudo) + "){" + d + "}")
			}
		}
	}
}

// appendToSelector puts suffix after each selector of the list sel
// (WP_Theme_JSON::append_to_selector).
func appendToSelector(sel, suffix string) string {
	parts := strings.Split(sel, ",")
	for i, p := range parts {
		parts[i] = p + suffix
	}
	return strings.Join(parts, ",")
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
