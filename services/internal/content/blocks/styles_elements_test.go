package blocks

import (
	"strings"
	"testing"
)

// A block's own element styles (styles.blocks.X.elements) apply below the
// block only, beside the root's: Twenty Twenty-Three's site and post titles
// have links without an underline while other links keep theirs.
func TestGlobalCSSBlockElements(t *testing.T) {
	styles := map[string]any{
		"elements": map[string]any{"link": map[string]any{"typography": map[string]any{"textDecoration": "underline"}}},
		"blocks": map[string]any{
			"core/site-title": map[string]any{"typography": map[string]any{"fontWeight": "normal"},
				"elements": map[string]any{"link": map[string]any{"typography": map[string]any{"textDecoration": "none"},
					":hover": map[string]any{"typography": map[string]any{"textDecoration": "underline"}}}}},
			"core/quote": map[string]any{"elements": map[string]any{"heading": map[string]any{"color": map[string]any{"text": "red"}}}},
		},
	}
	css := GlobalCSS(map[string]any{}, styles)
	for _, want := range []string{
		"a:where(:not(.wp-element-button)){text-decoration:underline}",
		".wp-block-site-title{font-weight:normal}",
		":root :where(.wp-block-site-title a:where(:not(.wp-element-button))){text-decoration:none}",
		":root :where(.wp-block-site-title a:where(:not(.wp-element-button)):hover){text-decoration:underline}",
		":root :where(.wp-block-quote h1,.wp-block-quote h2,.wp-block-quote h3,.wp-block-quote h4,.wp-block-quote h5,.wp-block-quote h6){color:red}",
	} {
		if !strings.Contains(css, want) {
			t.Errorf("CSS lacks %q", want)
		}
	}
}

// The rules of the elements come in WordPress's order, whatever their
// names' order: a heading level's own line height follows, and so
// overrides, the one of all headings (Twenty Twenty-Three's h1 and h2 at
// 1.2 under headings at 1.4; in name order h1 and h2 came first and lost).
func TestGlobalCSSElementOrder(t *testing.T) {
	lh := func(v string) map[string]any { return map[string]any{"typography": map[string]any{"lineHeight": v}} }
	css := GlobalCSS(map[string]any{}, map[string]any{"elements": map[string]any{
		"h2": lh("1.2"), "heading": lh("1.4"), "h1": lh("1.2"), "button": lh("1"), "link": lh("2")}})
	order := []string{"a:where(:not(.wp-element-button)){", "h1,h2,h3,h4,h5,h6{", "h1{", "h2{", ":root :where(.wp-element-button,.wp-block-button__link){"}
	for _, tc := range []struct{ before, after string }{
		{order[0], order[1]}, {order[1], order[2]}, {order[2], order[3]}, {order[3], order[4]},
	} {
		// the last occurrence: the block library's button defaults come
		// earlier, under the theme's rules
		i, j := strings.LastIndex(css, tc.before), strings.LastIndex(css, tc.after)
		if i < 0 || j < 0 || i > j {
			t.Errorf("%q (at %d) should come before %q (at %d) in %s", tc.before, i, tc.after, j, css)
		}
	}
}

// The elements' rules have WordPress 6.9's selectors, as its global
// stylesheet prints them (the peer's, Twenty Twenty-Five): a link is an `a`
// that is not a button (a button block took the link colour on the website
// and not in the editor's canvas), the class-based elements, the states and
// a block's elements are wrapped in `:root :where()`, and the top-level
// elements chosen by tag are not.
func TestGlobalCSSElementSelectors(t *testing.T) {
	colour := func(v string) map[string]any { return map[string]any{"color": map[string]any{"text": v}} }
	withStates := func(v string, states ...string) map[string]any {
		el := colour(v)
		for _, s := range states {
			el[s] = colour(v + s)
		}
		return el
	}
	css := GlobalCSS(map[string]any{}, map[string]any{
		"elements": map[string]any{
			"link":    withStates("l", ":hover", ":focus", ":visited", ":active", ":focus-visible", ":link", ":any-link"),
			"button":  withStates("b", ":hover", ":focus"),
			"heading": colour("hd"), "h3": colour("h3"), "caption": colour("cap"), "cite": colour("ci"),
		},
		"blocks": map[string]any{"core/navigation": map[string]any{"elements": map[string]any{"link": withStates("n", ":hover")}}},
	})
	wantContains(t, css, []string{
		"a:where(:not(.wp-element-button)){color:l}",
		":root :where(a:where(:not(.wp-element-button)):link){color:l:link}" +
			":root :where(a:where(:not(.wp-element-button)):any-link){color:l:any-link}" +
			":root :where(a:where(:not(.wp-element-button)):visited){color:l:visited}" +
			":root :where(a:where(:not(.wp-element-button)):hover){color:l:hover}" +
			":root :where(a:where(:not(.wp-element-button)):focus){color:l:focus}" +
			":root :where(a:where(:not(.wp-element-button)):focus-visible){color:l:focus-visible}" +
			":root :where(a:where(:not(.wp-element-button)):active){color:l:active}",
		"h1,h2,h3,h4,h5,h6{color:hd}h3{color:h3}",
		":root :where(.wp-element-button,.wp-block-button__link){color:b}",
		":root :where(.wp-element-button:hover,.wp-block-button__link:hover){color:b:hover}",
		":root :where(.wp-element-button:focus,.wp-block-button__link:focus){color:b:focus}",
		":root :where(.wp-element-caption,.wp-block-audio figcaption,.wp-block-embed figcaption,.wp-block-gallery figcaption," +
			".wp-block-image figcaption,.wp-block-table figcaption,.wp-block-video figcaption){color:cap}",
		"}cite{color:ci}",
		":root :where(.wp-block-navigation a:where(:not(.wp-element-button))){color:n}",
		":root :where(.wp-block-navigation a:where(:not(.wp-element-button)):hover){color:n:hover}",
	}, nil)
}

// A core block without a front-end stylesheet gets none of its theme.json
// styles, as on WordPress: Twenty Twenty-Three's core/query h2 size and
// core/comments-title size are left out, core/post-title's kept.
func TestGlobalCSSUnstyledCoreBlocks(t *testing.T) {
	size := func(v string) map[string]any { return map[string]any{"typography": map[string]any{"fontSize": v}} }
	css := GlobalCSS(map[string]any{}, map[string]any{"blocks": map[string]any{
		"core/query":          map[string]any{"elements": map[string]any{"h2": size("36px")}},
		"core/comments-title": size("28px"),
		"core/post-title":     size("20px"),
	}})
	for _, tc := range []struct {
		rule string
		want bool
	}{
		{".wp-block-query h2{font-size:36px}", false},
		{".wp-block-comments-title{font-size:28px}", false},
		{".wp-block-post-title{font-size:20px}", true},
	} {
		if strings.Contains(css, tc.rule) != tc.want {
			t.Errorf("CSS has %q: %v, want %v", tc.rule, !tc.want, tc.want)
		}
	}
}
