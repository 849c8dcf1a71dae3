package blocks

// Reading block attributes, and the classes and inline styles the
// renderer builds from them.

import "strings"

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

// classes builds the class attribute of a dynamic block's wrapper: its
// base classes, the preset colour and font-size classes and className,
// each reduced to the characters of a class name (base classes are the
// renderer's own, or sanitized by the caller).
func classes(b *Block, base ...string) string {
	c := append([]string(nil), base...)
	if v := sanitizeClass(str(b, "textColor", "")); v != "" {
		c = append(c, "has-"+v+"-color", "has-text-color")
	}
	if v := sanitizeClass(str(b, "backgroundColor", "")); v != "" {
		c = append(c, "has-"+v+"-background-color", "has-background")
	}
	if v := sanitizeClass(str(b, "fontSize", "")); v != "" {
		c = append(c, "has-"+v+"-font-size")
	}
	if v := sanitizeClass(str(b, "textAlign", "")); v != "" {
		c = append(c, "has-text-align-"+v)
	}
	if v := classNames(str(b, "className", "")); v != "" {
		c = append(c, v)
	}
	return strings.Join(c, " ")
}

// defaultLayouts are the layout types of the blocks that support a layout
// (block.json's supports.layout: its default type, else flow), which
// WordPress writes as is-layout-{type} when the block names no layout of
// its own: a plain group is a flow container, its children spaced by the
// block gap. Left out: navigation and cover, which place it themselves.
var defaultLayouts = map[string]string{
	"core/group": "flow", "core/column": "flow", "core/post-content": "flow", "core/post-template": "flow",
	"core/query": "flow", "core/quote": "flow", "core/details": "flow",
	"core/buttons": "flex", "core/columns": "flex", "core/gallery": "flex", "core/social-links": "flex",
	"core/query-pagination": "flex", "core/comments-pagination": "flex",
}

func layoutClass(b *Block) string {
	l := obj(b.Attrs, "layout")
	if l == nil {
		if t := defaultLayouts[b.Name]; t != "" {
			return "is-layout-" + t
		}
		return ""
	}
	t, _ := l["type"].(string)
	switch t {
	case "constrained", "flex", "grid":
	default:
		t = "flow"
	}
	cls := "is-layout-" + t
	if t == "constrained" {
		// the root padding goes on constrained containers (wp_render_layout_support_flag
		// with useRootPaddingAwareAlignments, which both themes set; without it
		// the class has no rule)
		cls = "has-global-padding " + cls
	}
	if t == "flex" {
		if o, _ := l["orientation"].(string); o == "vertical" {
			cls += " is-vertical"
		}
		j, _ := l["justifyContent"].(string)
		if j = sanitizeClass(j); j != "" {
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

// spacingStyle renders style.spacing.padding/margin as inline CSS; a
// value safeCSS refuses is left out.
func spacingStyle(b *Block) string {
	sp := obj(obj(b.Attrs, "style"), "spacing")
	if sp == nil {
		return ""
	}
	var out []string
	if g, _ := sp["blockGap"].(string); g != "" {
		if g = safeCSS(presetValue(g)); g != "" {
			// a flow or constrained container spaces its children by
			// margins, not gap: layoutCSS reads the property (WordPress
			// writes a wp-container-* rule per block instead)
			if l := layoutClass(b); l == "is-layout-flow" || strings.HasSuffix(l, "is-layout-constrained") {
				out = append(out, "--siteplane--block-gap:"+g)
			} else {
				out = append(out, "gap:"+g)
			}
		}
	}
	for _, prop := range []string{"padding", "margin"} {
		sides := obj(sp, prop)
		for _, side := range []string{"top", "right", "bottom", "left"} {
			if v, _ := sides[side].(string); v != "" {
				if v = safeCSS(presetValue(v)); v != "" {
					out = append(out, prop+"-"+side+":"+v)
				}
			}
		}
	}
	return strings.Join(out, ";")
}

// addClass adds cls to the class attribute of the first tag of s (or
// gives that tag one).
func addClass(s, cls string) string {
	open := strings.IndexByte(s, '<')
	if open < 0 || !startsTag(s[open:]) {
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

// startsTag reports whether s begins with an opening tag: a wrapper whose
// saved HTML kses cut (its first "<" a closing tag or a comment) gets no
// class or style rather than one written into that closing tag.
func startsTag(s string) bool {
	return len(s) > 1 && (s[1] >= 'a' && s[1] <= 'z' || s[1] >= 'A' && s[1] <= 'Z')
}

// addStyle adds inline CSS to the first tag of s.
func addStyle(s, css string) string {
	open := strings.IndexByte(s, '<')
	if open < 0 || !startsTag(s[open:]) {
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

func (b *Block) hasFalse(k string) bool {
	v, ok := b.Attrs[k].(bool)
	return ok && !v
}
