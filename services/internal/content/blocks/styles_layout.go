package blocks

import "strings"

// layoutCSS writes the layout rules as WordPress 6.9 prints them from
// theme.json (wp_get_global_stylesheet's base layout styles): every child
// of a flow or constrained container, and of .wp-site-blocks, gets the
// block gap above it and no margin below, its first child none above and
// its last none below; flex and grid containers space their children by
// the gap. The --wp--style--block-gap property is what the block library's
// stylesheets read (the excerpt's margins). Twenty Twenty-Three's listings
// are laid out by these: the rules that only spaced a child after another
// left a first featured image its figure margin (16 px lower than
// WordPress's on phones) and paragraphs their bottom margin.
func layoutCSS(sb *strings.Builder, gap string) {
	sb.WriteString(":root{--wp--style--block-gap:" + gap + "}")
	sb.WriteString(":where(.wp-site-blocks)>*{margin-block-start:" + gap + ";margin-block-end:0}")
	sb.WriteString(":where(.wp-site-blocks)>:first-child{margin-block-start:0}:where(.wp-site-blocks)>:last-child{margin-block-end:0}")
	for _, l := range []string{"flow", "constrained"} {
		c := ".is-layout-" + l
		sb.WriteString(":root :where(" + c + ")>:first-child{margin-block-start:0}:root :where(" + c + ")>:last-child{margin-block-end:0}")
		sb.WriteString(":root :where(" + c + ")>*{margin-block-start:" + gap + ";margin-block-end:0}")
		sb.WriteString(c + ">.alignleft{float:left;margin-inline-start:0;margin-inline-end:2em}")
		sb.WriteString(c + ">.alignright{float:right;margin-inline-start:2em;margin-inline-end:0}")
		sb.WriteString(c + ">.aligncenter{margin-left:auto !important;margin-right:auto !important}")
	}
	// a container's own block gap (style.spacing.blockGap): its children's
	// margins, as WordPress's wp-container-* rules set them; a child that is
	// such a container itself reads its own gap (the property inherits)
	sb.WriteString(".is-layout-flow[style*=\"--siteplane--block-gap\"]>*,.is-layout-constrained[style*=\"--siteplane--block-gap\"]>*{margin-block-start:0;margin-block-end:0}")
	sb.WriteString(".is-layout-flow[style*=\"--siteplane--block-gap\"]>*+*,.is-layout-constrained[style*=\"--siteplane--block-gap\"]>*+*{margin-block-start:var(--siteplane--block-gap)}")
	sb.WriteString(".is-layout-constrained>:where(:not(.alignleft):not(.alignright):not(.alignfull)){max-width:var(--wp--style--global--content-size);margin-left:auto !important;margin-right:auto !important}")
	sb.WriteString(".is-layout-constrained>.alignwide{max-width:var(--wp--style--global--wide-size)}")
	sb.WriteString(":root :where(.is-layout-flex){gap:" + gap + "}:root :where(.is-layout-grid){gap:" + gap + "}")
	sb.WriteString("body .is-layout-flex{display:flex}.is-layout-flex{flex-wrap:wrap;align-items:center}.is-layout-flex>:is(*,div){margin:0}")
	sb.WriteString("body .is-layout-grid{display:grid}.is-layout-grid>:is(*,div){margin:0}")
}

// libraryCSS is what the block library's stylesheets (wp-includes/blocks/*/
// style.css, and common.css for figures) and core's theme.json say about
// the blocks Siteplane renders and the theme CSS leaves to them: a
// figure's margin (none above), the excerpt spaced by the block gap around
// its unmargined paragraph, the post template's list, the pagination rows'
// arrows and alignment, columns side by side from 782px (stacked below),
// a separator's line, and a button's padding and inherited font (core's
// styles.elements.button, under the theme's own button rules, which come
// later at the same specificity: Twenty Twenty-Three's "Get In Touch" and
// "Post Comment" were bare links and inputs).
const libraryCSS = ":where(figure){margin:0 0 1em}" +
	".wp-block-image>a,.wp-block-image>figure>a{display:inline-block}" +
	".wp-block-image img{box-sizing:border-box;height:auto;max-width:100%;vertical-align:bottom}" +
	".wp-block-post-content{display:flow-root}" +
	".wp-block-post-author{box-sizing:border-box;display:flex;flex-wrap:wrap}.wp-block-post-author__content{flex-basis:0;flex-grow:1}" +
	".wp-block-post-author__name{margin:0}.wp-block-post-terms .wp-block-post-terms__separator{white-space:pre-wrap}" +
	".wp-block-search__button{margin-left:10px;word-break:normal}.wp-block-search__button.has-icon{line-height:0}" +
	".wp-block-search__button svg{height:1.25em;min-height:24px;min-width:24px;width:1.25em;fill:currentColor;vertical-align:text-bottom}" +
	":where(.wp-block-search__button){border:1px solid #ccc;padding:6px 10px}" +
	".wp-block-search__inside-wrapper{display:flex;flex:auto;flex-wrap:nowrap;max-width:100%}" +
	// WordPress prints .screen-reader-text after this rule, so a hidden
	// label stays 1px wide; here it comes before: the rule leaves it out
	".wp-block-search__label:not(.screen-reader-text){width:100%}" +
	":where(.wp-block-search__input){appearance:none;border:1px solid #949494;flex-grow:1;font-family:inherit;font-size:inherit;font-style:inherit;" +
	"font-weight:inherit;letter-spacing:inherit;line-height:inherit;margin-left:0;margin-right:0;min-width:3rem;padding:8px;text-decoration:unset !important;text-transform:inherit}" +
	":where(.wp-block-search__button-inside .wp-block-search__inside-wrapper){background-color:#fff;border:1px solid #949494;box-sizing:border-box;padding:4px}" +
	":where(.wp-block-search__button-inside .wp-block-search__inside-wrapper) .wp-block-search__input{border:none;border-radius:0;padding:0 4px}" +
	":where(.wp-block-search__button-inside .wp-block-search__inside-wrapper) :where(.wp-block-search__button){padding:4px 8px}" +
	".wp-block-search.aligncenter .wp-block-search__inside-wrapper{margin:auto}" +
	":root :where(.wp-element-button,.wp-block-button__link){background-color:#32373c;border-width:0;color:#fff;font-family:inherit;" +
	"font-size:inherit;font-style:inherit;font-weight:inherit;letter-spacing:inherit;line-height:inherit;" +
	"padding:calc(.667em + 2px) calc(1.333em + 2px);text-decoration:none;text-transform:inherit}" +
	".wp-element-button{cursor:pointer}" +
	".wp-block-button__link{align-content:center;box-sizing:border-box;cursor:pointer;display:inline-block;height:100%;text-align:center;word-break:break-word}" +
	".wp-block-buttons>.wp-block-button{display:inline-block;margin:0}" +
	".wp-block-columns{box-sizing:border-box;display:flex;flex-wrap:wrap !important;align-items:normal !important}" +
	":where(.wp-block-columns){margin-bottom:1.75em}" +
	".wp-block-column{flex-grow:1;min-width:0;overflow-wrap:break-word;word-break:break-word}" +
	"@media (max-width:781px){.wp-block-columns:not(.is-not-stacked-on-mobile)>.wp-block-column{flex-basis:100% !important}}" +
	"@media (min-width:782px){.wp-block-columns{flex-wrap:nowrap !important}" +
	".wp-block-columns:not(.is-not-stacked-on-mobile)>.wp-block-column{flex-basis:0;flex-grow:1}" +
	".wp-block-columns:not(.is-not-stacked-on-mobile)>.wp-block-column[style*=flex-basis]{flex-grow:0}}" +
	".wp-block-separator{border:none;border-top:2px solid}.wp-block-separator.has-css-opacity{opacity:.4}" +
	".wp-block-separator:not(.is-style-wide):not(.is-style-dots):not(.alignwide):not(.alignfull){width:100px}" +
	":where(.wp-block-post-excerpt){box-sizing:border-box;margin-bottom:var(--wp--style--block-gap);margin-top:var(--wp--style--block-gap)}" +
	".wp-block-post-excerpt__excerpt{margin-bottom:0;margin-top:0}" +
	".wp-block-post-excerpt__more-text{margin-bottom:0;margin-top:var(--wp--style--block-gap)}.wp-block-post-excerpt__more-link{display:inline-block}" +
	".wp-block-post-template{box-sizing:border-box;list-style:none;margin-bottom:0;margin-top:0;max-width:100%;padding:0}" +
	".wp-block-query-pagination.is-content-justification-space-between>.wp-block-query-pagination-next:last-of-type{margin-inline-start:auto}" +
	".wp-block-query-pagination.is-content-justification-space-between>.wp-block-query-pagination-previous:first-child{margin-inline-end:auto}" +
	".wp-block-query-pagination .wp-block-query-pagination-previous-arrow{display:inline-block;margin-right:1ch}" +
	".wp-block-query-pagination .wp-block-query-pagination-next-arrow{display:inline-block;margin-left:1ch}" +
	".wp-block-query-pagination.aligncenter{justify-content:center}" +
	".wp-block-comments-pagination>.wp-block-comments-pagination-next,.wp-block-comments-pagination>.wp-block-comments-pagination-numbers," +
	".wp-block-comments-pagination>.wp-block-comments-pagination-previous{font-size:inherit}" +
	".wp-block-comments-pagination .wp-block-comments-pagination-previous-arrow{display:inline-block;margin-right:1ch}" +
	".wp-block-comments-pagination .wp-block-comments-pagination-next-arrow{display:inline-block;margin-left:1ch}" +
	".wp-block-comments-pagination.aligncenter{justify-content:center}"

// rootPaddingVars is styles without the root's padding, and the padding
// as the --wp--style--root--padding-* properties: with
// useRootPaddingAwareAlignments WordPress pads the site blocks' top and
// bottom and each outermost constrained container's sides (rootPaddingCSS),
// not the body, so full-width blocks reach the window's edges and a nested
// container is not padded twice (Twenty Twenty-Three's comments).
func rootPaddingVars(styles map[string]any) (map[string]any, string) {
	sp := obj(styles, "spacing")
	pad, ok := sp["padding"]
	if !ok {
		return styles, ""
	}
	sides := map[string]any{}
	if m, isMap := pad.(map[string]any); isMap {
		sides = m
	} else {
		for _, side := range []string{"top", "right", "bottom", "left"} {
			sides[side] = pad
		}
	}
	var vars strings.Builder
	for _, side := range []string{"top", "right", "bottom", "left"} {
		if v := cssValue(sides[side]); v != "" {
			vars.WriteString(";--wp--style--root--padding-" + side + ":" + v)
		}
	}
	rest := make(map[string]any, len(sp))
	for k, v := range sp {
		if k != "padding" {
			rest[k] = v
		}
	}
	out := make(map[string]any, len(styles))
	for k, v := range styles {
		out[k] = v
	}
	out["spacing"] = rest
	return out, vars.String()
}

// rootPaddingCSS is WordPress's root padding rules
// (wp_get_global_stylesheet with useRootPaddingAwareAlignments).
const rootPaddingCSS = ".wp-site-blocks{padding-top:var(--wp--style--root--padding-top);padding-bottom:var(--wp--style--root--padding-bottom)}" +
	".has-global-padding{padding-right:var(--wp--style--root--padding-right);padding-left:var(--wp--style--root--padding-left)}" +
	".has-global-padding>.alignfull{margin-right:calc(var(--wp--style--root--padding-right) * -1);margin-left:calc(var(--wp--style--root--padding-left) * -1)}" +
	".has-global-padding :where(:not(.alignfull.is-layout-flow)>.has-global-padding:not(.wp-block-block,.alignfull)){padding-right:0;padding-left:0}" +
	".has-global-padding :where(:not(.alignfull.is-layout-flow)>.has-global-padding:not(.wp-block-block,.alignfull))>.alignfull{margin-left:0;margin-right:0}"
