package blocks

import (
	"sort"
	"strings"
)

// GlobalCSS turns theme.json-shaped settings and styles (the theme's,
// with the user's global styles merged over them by MergeStyles) into the
// page's stylesheet: preset custom properties and classes, the root and
// element styles, per-block styles and the layout rules.
func GlobalCSS(settings, styles map[string]any) string {
	var sb strings.Builder
	sb.WriteString(":root{")
	for _, p := range presetVars {
		for _, it := range presetList(settings, p.path) {
			v := cssValue(it[p.value])
			if p.prefix == "font-size" {
				v = cssValue(fluidSize(settings, v, it["fluid"]))
			}
			sb.WriteString("--wp--preset--" + p.prefix + "--" + cssIdent(it[p.key]) + ":" + v + ";")
		}
	}
	styles = fluidStyles(settings, styles)
	layout := obj(settings, "layout")
	content, wide := cssValue(layout["contentSize"]), cssValue(layout["wideSize"])
	if content == "" {
		content = "680px"
	}
	if wide == "" {
		wide = content
	}
	sb.WriteString("--wp--style--global--content-size:" + content + ";--wp--style--global--wide-size:" + wide + ";}")
	presetClassesCSS(&sb, settings)
	gap := cssValue(obj(obj(styles, "spacing"), "blockGap"))
	if gap == "" {
		gap = "1.5rem"
	}
	rootPadding := settings["useRootPaddingAwareAlignments"] == true
	bodyStyles, padVars := styles, ""
	if rootPadding {
		bodyStyles, padVars = rootPaddingVars(styles)
	}
	sb.WriteString("body{margin:0;" + declarations(bodyStyles) + padVars + "}")
	layoutCSS(&sb, gap)
	if rootPadding {
		sb.WriteString(rootPaddingCSS)
	}
	sb.WriteString(".is-layout-flex.is-vertical{flex-direction:column;align-items:flex-start}.is-layout-flex.is-nowrap{flex-wrap:nowrap}")
	sb.WriteString(".is-content-justification-space-between{justify-content:space-between}.is-content-justification-right{justify-content:flex-end}.is-content-justification-center{justify-content:center}")
	sb.WriteString(".screen-reader-text{border:0;clip:rect(1px,1px,1px,1px);clip-path:inset(50%);height:1px;margin:-1px;overflow:hidden;padding:0;position:absolute;width:1px;word-wrap:normal !important}")
	sb.WriteString(".wp-block-navigation__container{display:flex;flex-wrap:wrap;gap:1rem;list-style:none;margin:0;padding:0}")
	sb.WriteString(navOverlayCSS)
	sb.WriteString(navSubmenuCSS)
	sb.WriteString(libraryCSS)
	sb.WriteString(featuredImageCSS)
	sb.WriteString(postTemplateGridCSS)
	sb.WriteString(".wp-block-query-pagination-numbers{display:flex;gap:.5rem}")
	sb.WriteString(commentsCSS)
	sb.WriteString("img{max-width:100%;height:auto}")
	elementsCSS(&sb, "", obj(styles, "elements"))
	blocks := obj(styles, "blocks")
	for _, name := range sortedKeys(blocks) {
		if _, ok := unstyledCoreBlocks[name]; ok {
			continue
		}
		sel := ".wp-block-" + cssIdent(strings.TrimPrefix(name, "core/"))
		if d := declarations(obj(blocks, name)); d != "" {
			sb.WriteString(sel + "{" + d + "}")
		}
		elementsCSS(&sb, sel, obj(obj(blocks, name), "elements"))
	}
	if css, ok := styles["css"].(string); ok && !strings.Contains(css, "</") {
		sb.WriteString(css)
	}
	return sb.String()
}

// declarations renders the color, typography, spacing and border groups of
// one style object.
func declarations(st map[string]any) string {
	var out []string
	add := func(prop string, v any) {
		if s := cssValue(v); s != "" {
			out = append(out, prop+":"+s)
		}
	}
	color := obj(st, "color")
	add("color", color["text"])
	add("background-color", color["background"])
	add("background", color["gradient"])
	typo := obj(st, "typography")
	for _, k := range sortedKeys(typo) {
		add(kebab(k), typo[k])
	}
	sp := obj(st, "spacing")
	for _, prop := range []string{"padding", "margin"} {
		if s, ok := sp[prop].(string); ok {
			add(prop, s)
			continue
		}
		sides := obj(sp, prop)
		for _, side := range []string{"top", "right", "bottom", "left"} {
			add(prop+"-"+side, sides[side])
		}
	}
	border := obj(st, "border")
	for _, k := range sortedKeys(border) {
		add("border-"+kebab(k), border[k])
	}
	return strings.Join(out, ";")
}

// MergeStyles overlays the user's theme.json-shaped object on the theme's
// (objects merge key by key, anything else is replaced).
func MergeStyles(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		if bo, ok := out[k].(map[string]any); ok {
			if oo, ok := v.(map[string]any); ok {
				out[k] = MergeStyles(bo, oo)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// presetList is one preset list of settings, its origins merged as
// WordPress's get_settings_values_by_slug merges them: one preset per slug,
// where the slug first came, with the value of the last origin that has it
// (a theme's "medium" font size overrides WordPress's own).
func presetList(settings map[string]any, path string) []map[string]any {
	group, key, _ := strings.Cut(path, ".")
	var out []map[string]any
	at := map[string]int{}
	for _, it := range presetItems(obj(settings, group)[key]) {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		slug := cssIdent(m["slug"])
		if i, seen := at[slug]; seen {
			out[i] = m
			continue
		}
		at[slug] = len(out)
		out = append(out, m)
	}
	return out
}

// cssValue renders a style value, resolving "var:preset|…" references, and
// drops anything that could end the declaration or the style element.
func cssValue(v any) string {
	s, ok := v.(string)
	if !ok {
		return ""
	}
	s = presetValue(s)
	if strings.ContainsAny(s, "{};<>") {
		return ""
	}
	return s
}

func cssIdent(v any) string {
	s, _ := v.(string)
	var sb strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

func kebab(s string) string {
	var sb strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			sb.WriteByte('-')
			r += 'a' - 'A'
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
