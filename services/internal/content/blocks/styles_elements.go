package blocks

import "strings"

// elementSelectors are theme.json's elements as CSS selectors; h1–h6 are
// their own names.
var elementSelectors = map[string]string{"link": "a", "heading": "h1,h2,h3,h4,h5,h6", "button": ".wp-element-button,.wp-block-button__link"}

// elementsCSS writes the rules of a styles.elements object: the root's
// (scope "") or a block's (styles.blocks.X.elements, scope its class), as
// WordPress scopes a block's element styles to the block, e.g. the site
// title's links without their underline in Twenty Twenty-Three.
func elementsCSS(sb *strings.Builder, scope string, elements map[string]any) {
	for _, name := range sortedKeys(elements) {
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
