package blocks

import (
	"strings"
	"testing"
)

func testEnv() *Env {
	post := &Post{ID: 7, Type: "post", Title: "Hello <World>", URL: "https://s.test/hello/", DateISO: "2026-01-02T03:04:05+00:00",
		DateText: "January 2, 2026", ContentHTML: "<p>Body</p>", Excerpt: "Short", Author: Link{Label: "Ann", URL: "https://s.test/author/ann/"},
		Image: &Image{URL: "https://s.test/img.png", Alt: "A cat"},
		Terms: map[string][]Link{"category": {{Label: "News", URL: "https://s.test/category/news/"}, {Label: "Misc", URL: "https://s.test/category/misc/"}}},
		Prev:  &Link{Label: "Older", URL: "https://s.test/older/"}}
	return &Env{SiteTitle: "My Site", Tagline: "Just words", HomeURL: "https://s.test", SearchQuery: `a"b`,
		ArchiveTitle: "Category: News",
		Part: func(slug string) ([]Node, bool) {
			switch slug {
			case "header":
				return Parse(`<!-- wp:site-title {"level":0} /-->`), true
			case "boxed":
				return Parse("<!-- wp:group {\"tagName\":\"header\"} --><header class=\"wp-block-group\">x</header><!-- /wp:group -->"), true
			case "loop":
				return Parse(`<!-- wp:template-part {"slug":"loop"} /-->`), true
			}
			return nil, false
		},
		Navigation: func(ref int64) []Link {
			if ref == 0 {
				return []Link{{Label: "About", URL: "https://s.test/about/"}}
			}
			return nil
		},
		Post: post,
		Query: &Query{Posts: []*Post{post, {ID: 8, Type: "post", Title: "Second", URL: "https://s.test/second/"}}, Page: 2, Pages: 3,
			PageURL: func(n int) string { return "https://s.test/page/" + itoa(n) + "/" }},
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

func TestRender(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings, in order
		not       []string
	}{
		{"static paragraph kept", "<!-- wp:paragraph -->\n<p>Hi</p>\n<!-- /wp:paragraph -->", []string{"\n<p>Hi</p>\n"}, []string{"wp:"}},
		{"unknown block renders its inner html", "<!-- wp:acme/thing --><div>inner<!-- wp:paragraph --><p>p</p><!-- /wp:paragraph --></div><!-- /wp:acme/thing -->",
			[]string{"<div>inner<p>p</p></div>"}, nil},
		{"group layout class and spacing", `<!-- wp:group {"layout":{"type":"flex","justifyContent":"space-between"},"style":{"spacing":{"padding":{"top":"var:preset|spacing|60"}}}} --><div class="wp-block-group">x</div><!-- /wp:group -->`,
			[]string{`<div style="padding-top:var(--wp--preset--spacing--60)" class="is-layout-flex is-content-justification-space-between wp-block-group">x</div>`}, nil},
		{"site title and tagline", `<!-- wp:site-title {"level":0,"fontSize":"small"} /--><!-- wp:site-tagline /-->`,
			[]string{`<p class="wp-block-site-title has-small-font-size"><a href="https://s.test/" rel="home">My Site</a></p>`, `<p class="wp-block-site-tagline">Just words</p>`}, nil},
		{"site title heading", `<!-- wp:site-title /-->`, []string{`<h1 class="wp-block-site-title">`}, nil},
		{"navigation from the default menu, never collapsed", `<!-- wp:navigation {"overlayMenu":"never"} /-->`,
			[]string{`<nav class="wp-block-navigation" aria-label="Navigation"><ul class="wp-block-navigation__container"><li class="wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content" href="https://s.test/about/"><span class="wp-block-navigation-item__label">About</span></a></li></ul></nav>`},
			[]string{"<button", "<script"}},
		// WordPress's overlay menu (overlayMenu "mobile" by default): the
		// responsive container's markup, and the page's first brings the script
		{"navigation with its overlay menu on phones", `<!-- wp:navigation {"layout":{"type":"flex","justifyContent":"right"}} /-->`,
			[]string{`<nav class="is-responsive items-justified-right wp-block-navigation is-layout-flex is-content-justification-right" aria-label="Navigation" data-wp-interactive="core/navigation"`,
				`<button aria-haspopup="dialog" aria-label="Open menu" class="wp-block-navigation__responsive-container-open" `,
				`<div class="wp-block-navigation__responsive-container" id="modal-1" `, `<div class="wp-block-navigation__responsive-close" tabindex="-1">`,
				`<div class="wp-block-navigation__responsive-dialog" `, `<button aria-label="Close menu" class="wp-block-navigation__responsive-container-close" `,
				`<div class="wp-block-navigation__responsive-container-content" data-wp-watch="callbacks.focusFirstElement" id="modal-1-content">`,
				`<ul class="wp-block-navigation__container"><li class="wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content" href="https://s.test/about/"><span class="wp-block-navigation-item__label">About</span></a></li></ul></div></div></div></div></nav>`,
				"<script>" + navScript + "</script>"}, nil},
		{"navigation always collapsed", `<!-- wp:navigation {"overlayMenu":"always"} /-->`,
			[]string{`class="wp-block-navigation__responsive-container-open always-shown"`, `class="wp-block-navigation__responsive-container hidden-by-default" id="modal-1"`}, nil},
		{"two overlay menus: distinct ids, one script", `<!-- wp:navigation /--><!-- wp:navigation {"overlayMenu":"never"} /--><!-- wp:navigation /-->`,
			[]string{`id="modal-1"`, `id="modal-1-content"`, "</nav><script>", `</script><nav class="wp-block-navigation"`, `id="modal-2"`, `id="modal-2-content"`},
			[]string{"modal-3"}},
		{"navigation with an empty ref renders nothing", `<!-- wp:navigation {"ref":5} /-->`, nil, []string{"<nav"}},
		{"navigation with inner links", `<!-- wp:navigation --><!-- wp:navigation-link {"label":"X","url":"/x/"} /--><!-- wp:home-link /--><!-- /wp:navigation -->`,
			[]string{`href="/x/"><span class="wp-block-navigation-item__label">X</span></a>`, `href="https://s.test/">Home</a>`}, nil},
		{"template part wrapper", `<!-- wp:template-part {"slug":"header","tagName":"header"} /-->`,
			[]string{`<header class="wp-block-template-part"><p class="wp-block-site-title">`, `</header>`}, nil},
		{"template part never nests the same element", `<!-- wp:template-part {"slug":"boxed","tagName":"header"} /-->`,
			[]string{`<div class="wp-block-template-part"><header`}, nil},
		{"missing template part is empty", `<!-- wp:template-part {"slug":"nope"} /-->`, nil, []string{"template-part"}},
		{"recursive template part stops", `<!-- wp:template-part {"slug":"loop"} /-->`, []string{"wp-block-template-part"}, nil},
		{"post title escaped and linked", `<!-- wp:post-title {"isLink":true} /-->`,
			[]string{`<h2 class="wp-block-post-title"><a href="https://s.test/hello/">Hello &lt;World&gt;</a></h2>`}, nil},
		{"post date", `<!-- wp:post-date /-->`, []string{`<time datetime="2026-01-02T03:04:05+00:00">January 2, 2026</time>`}, nil},
		// WordPress 6.9 puts the link inside the time element
		{"post date linked", `<!-- wp:post-date {"isLink":true} /-->`,
			[]string{`<div class="wp-block-post-date"><time datetime="2026-01-02T03:04:05+00:00"><a href="https://s.test/hello/">January 2, 2026</a></time></div>`}, nil},
		{"post author name", `<!-- wp:post-author-name {"isLink":true} /-->`,
			[]string{`<div class="wp-block-post-author-name"><a href="https://s.test/author/ann/" target="_self" class="wp-block-post-author-name__link">Ann</a></div>`}, nil},
		// as WordPress: no link without isLink (Twenty Twenty-Three's "by admin")
		{"post author name unlinked", `<!-- wp:post-author-name /-->`, []string{`<div class="wp-block-post-author-name">Ann</div>`}, []string{"<a "}},
		{"post author", `<!-- wp:post-author /-->`,
			[]string{`<div class="wp-block-post-author"><div class="wp-block-post-author__content"><p class="wp-block-post-author__name">Ann</p></div></div>`}, nil},
		{"post excerpt with more link", `<!-- wp:post-excerpt {"moreText":"More"} /-->`,
			[]string{`<p class="wp-block-post-excerpt__excerpt">Short</p>`, `href="https://s.test/hello/">More`}, nil},
		{"post content", `<!-- wp:post-content {"layout":{"type":"constrained"}} /-->`,
			[]string{`<div class="entry-content wp-block-post-content has-global-padding is-layout-constrained"><p>Body</p></div>`}, nil},
		{"featured image", `<!-- wp:post-featured-image {"isLink":true} /-->`, []string{`<a href="https://s.test/hello/"`, `<img src="https://s.test/img.png" alt="A cat"`}, nil},
		// Twenty Twenty-Three's listing and single post: sized, wide, darkened
		{"featured image sized", `<!-- wp:post-featured-image {"isLink":true,"width":"100%","height":"clamp(15vw, 30vh, 400px)","align":"wide"} /-->`,
			[]string{`<figure style="width:100%;height:clamp(15vw, 30vh, 400px)" class="wp-block-post-featured-image alignwide">`,
				`<a href="https://s.test/hello/" aria-label="Hello &lt;World&gt;" style="height:clamp(15vw, 30vh, 400px)">`,
				`style="height:clamp(15vw, 30vh, 400px);object-fit:cover"`}, nil},
		{"featured image overlay and spacing", `<!-- wp:post-featured-image {"overlayColor":"contrast","dimRatio":50,"align":"wide","style":{"spacing":{"margin":{"top":"calc(-1 * var(--wp--preset--spacing--50))"}}}} /-->`,
			[]string{`<figure style="margin-top:calc(-1 * var(--wp--preset--spacing--50))" class="wp-block-post-featured-image alignwide">`,
				`<span class="wp-block-post-featured-image__overlay has-background-dim has-background-dim-50 has-contrast-background-color" aria-hidden="true"></span></figure>`}, []string{"<a "}},
		{"post terms", `<!-- wp:post-terms {"term":"category","prefix":"In: "} /-->`,
			[]string{`taxonomy-category wp-block-post-terms`, `In: `, `>News</a><span class="wp-block-post-terms__separator">, </span><a`}, nil},
		{"post terms of an empty taxonomy", `<!-- wp:post-terms {"term":"post_tag"} /-->`, nil, []string{"wp-block-post-terms"}},
		{"post navigation", `<!-- wp:post-navigation-link {"type":"previous","showTitle":true} /--><!-- wp:post-navigation-link /-->`,
			[]string{`<a href="https://s.test/older/" rel="prev">Older</a>`}, []string{`rel="next"`}},
		{"query loop", `<!-- wp:query --><div class="wp-block-query"><!-- wp:post-template --><!-- wp:post-title {"isLink":true} /--><!-- /wp:post-template --><!-- wp:query-pagination --><!-- wp:query-pagination-previous /--><!-- wp:query-pagination-numbers /--><!-- wp:query-pagination-next /--><!-- /wp:query-pagination --><!-- wp:query-no-results --><!-- wp:paragraph --><p>None</p><!-- /wp:paragraph --><!-- /wp:query-no-results --></div><!-- /wp:query -->`,
			[]string{`<div class="wp-block-query is-layout-flow"><ul class="wp-block-post-template is-layout-flow"><li class="wp-block-post post-7 type-post">`, `Hello &lt;World&gt;`, `post-8`, `Second`,
				`<nav class="wp-block-query-pagination is-layout-flex" aria-label="Pagination">`, `href="https://s.test/page/1/" class="wp-block-query-pagination-previous">Previous Page</a>`,
				`<span aria-current="page" class="page-numbers current">2</span>`, `href="https://s.test/page/3/" class="wp-block-query-pagination-next">Next Page</a>`},
			[]string{"None", "arrow"}},
		// Twenty Twenty-Three's "Next Page →": the pagination's arrow beside its links' labels
		{"query pagination arrows", `<!-- wp:query-pagination {"paginationArrow":"arrow"} --><!-- wp:query-pagination-previous /--><!-- wp:query-pagination-next /--><!-- /wp:query-pagination -->`,
			[]string{`<a href="https://s.test/page/1/" class="wp-block-query-pagination-previous"><span class="wp-block-query-pagination-previous-arrow is-arrow-arrow" aria-hidden="true">←</span>Previous Page</a>`,
				`<a href="https://s.test/page/3/" class="wp-block-query-pagination-next">Next Page<span class="wp-block-query-pagination-next-arrow is-arrow-arrow" aria-hidden="true">→</span></a>`}, nil},
		{"query pagination chevrons without labels", `<!-- wp:query-pagination {"paginationArrow":"chevron","showLabel":false} --><!-- wp:query-pagination-next {"label":"More"} /--><!-- /wp:query-pagination -->`,
			[]string{`class="wp-block-query-pagination-next" aria-label="More"><span class="wp-block-query-pagination-next-arrow is-arrow-chevron" aria-hidden="true">»</span></a>`}, nil},
		{"query pagination with an unknown arrow", `<!-- wp:query-pagination {"paginationArrow":"none"} --><!-- wp:query-pagination-next /--><!-- /wp:query-pagination -->`,
			[]string{`class="wp-block-query-pagination-next">Next Page</a>`}, []string{"arrow"}},
		{"query displayLayout grid", `<!-- wp:query {"displayLayout":{"type":"flex","columns":3},"align":"wide"} --><div class="wp-block-query"><!-- wp:post-template {"align":"wide"} --><!-- wp:query --><div class="wp-block-query"><!-- wp:post-template /--></div><!-- /wp:query --><!-- /wp:post-template --></div><!-- /wp:query -->`,
			[]string{`<div class="wp-block-query alignwide is-layout-flow"><ul class="wp-block-post-template alignwide is-flex-container columns-3 is-layout-flow">`, `<li class="wp-block-post post-7 type-post"><div class="wp-block-query is-layout-flow"><ul class="wp-block-post-template is-layout-flow"><li`}, nil},
		// Twenty Twenty-Three's pagination row spans the wide size, as the listing does
		{"query pagination aligned", `<!-- wp:query --><div class="wp-block-query"><!-- wp:post-template /--><!-- wp:query-pagination {"align":"wide","layout":{"type":"flex","justifyContent":"space-between"}} --><!-- wp:query-pagination-next /--><!-- /wp:query-pagination --></div><!-- /wp:query -->`,
			[]string{`<nav class="wp-block-query-pagination alignwide is-layout-flex is-content-justification-space-between" aria-label="Pagination">`}, nil},
		{"query displayLayout list", `<!-- wp:query {"displayLayout":{"type":"list"}} --><div class="wp-block-query"><!-- wp:post-template /--></div><!-- /wp:query -->`,
			[]string{`<ul class="wp-block-post-template is-layout-flow"><li`}, []string{"is-flex-container"}},
		{"search form", `<!-- wp:search {"label":"Search","showLabel":false} /-->`,
			[]string{`action="https://s.test/"`, `screen-reader-text`, `name="s" value="a&#34;b"`}, nil},
		// Twenty Twenty-Three's 404 search: an icon button, a placeholder, the full width, centred
		{"search form with an icon", `<!-- wp:search {"label":"Search","placeholder":"Search...","showLabel":false,"width":100,"widthUnit":"%","buttonText":"Search","buttonUseIcon":true,"align":"center"} /-->`,
			[]string{`class="wp-block-search wp-block-search__button-outside wp-block-search__icon-button aligncenter"`,
				`<div class="wp-block-search__inside-wrapper" style="width:100%"><input class="wp-block-search__input" id="wp-block-search__input" placeholder="Search..." type="search"`,
				`<button aria-label="Search" class="wp-block-search__button has-icon wp-element-button" type="submit"><svg class="search-icon"`}, nil},
		{"search form without a button", `<!-- wp:search {"buttonPosition":"no-button"} /-->`, []string{`wp-block-search__no-button`}, []string{"<button"}},
		{"two search forms have distinct ids", `<!-- wp:search /--><!-- wp:search /-->`,
			[]string{`for="wp-block-search__input"`, `id="wp-block-search__input"`, `for="wp-block-search__input-2"`, `id="wp-block-search__input-2"`}, nil},
		{"block gap", `<!-- wp:group {"style":{"spacing":{"blockGap":"0"}}} --><div class="wp-block-group">x</div><!-- /wp:group -->`,
			[]string{`<div style="--siteplane--block-gap:0" class="is-layout-flow wp-block-group">`}, nil},
		// a flex container's gap is the gap property
		{"flex block gap", `<!-- wp:group {"layout":{"type":"flex"},"style":{"spacing":{"blockGap":"0.5ch"}}} --><div class="wp-block-group">x</div><!-- /wp:group -->`,
			[]string{`<div style="gap:0.5ch" class="is-layout-flex wp-block-group">`}, nil},
		{"query title", `<!-- wp:query-title {"type":"archive"} /-->`, []string{`<h1 class="wp-block-query-title">Category: News</h1>`}, nil},
		// Twenty Twenty-Three's titles: the spacing support's margin and the alignment on the dynamic block's wrapper
		{"query title aligned with a margin", `<!-- wp:query-title {"type":"archive","align":"wide","style":{"spacing":{"margin":{"bottom":"var:preset|spacing|50"}}}} /-->`,
			[]string{`<h1 style="margin-bottom:var(--wp--preset--spacing--50)" class="wp-block-query-title alignwide">Category: News</h1>`}, nil},
		{"post title with a margin", `<!-- wp:post-title {"level":1,"style":{"spacing":{"margin":{"bottom":"var:preset|spacing|40"}}}} /-->`,
			[]string{`<h1 style="margin-bottom:var(--wp--preset--spacing--40)" class="wp-block-post-title">Hello &lt;World&gt;</h1>`}, nil},
		{"a plain group is a flow container", `<!-- wp:group {"tagName":"main"} --><main class="wp-block-group"><!-- wp:paragraph --><p>a</p><!-- /wp:paragraph --></main><!-- /wp:group --><!-- wp:group --><div class="wp-block-group">b</div><!-- /wp:group -->`,
			[]string{`<main class="is-layout-flow wp-block-group"><p>a</p></main>`, `<div class="is-layout-flow wp-block-group">b</div>`}, nil},
		{"comments render nothing", "<!-- wp:comments --><div><!-- wp:comments-title /--></div><!-- /wp:comments -->", nil, []string{"div"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RenderMarkup(tt.src, testEnv())
			// pre-rendering the site-wide parts changes nothing
			if compiled := Render(Compile(Parse(tt.src), testEnv()), testEnv()); compiled != got {
				t.Errorf("compiled render differs:\n%s\nwant\n%s", compiled, got)
			}
			rest := got
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (in order) %q\nin %s", w, got)
				}
				rest = rest[i+len(w):]
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("unexpected %q in %s", n, got)
				}
			}
		})
	}
}

func TestQueryWithoutPosts(t *testing.T) {
	env := testEnv()
	env.Query = &Query{Page: 1, Pages: 0}
	got := RenderMarkup(`<!-- wp:query --><!-- wp:post-template --><!-- wp:post-title /--><!-- /wp:post-template --><!-- wp:query-pagination --><!-- wp:query-pagination-next /--><!-- /wp:query-pagination --><!-- wp:query-no-results --><!-- wp:paragraph --><p>None</p><!-- /wp:paragraph --><!-- /wp:query-no-results --><!-- /wp:query -->`, env)
	if got != `<div class="wp-block-query is-layout-flow"><p>None</p></div>` {
		t.Errorf("got %s", got)
	}
}

func TestGlobalCSS(t *testing.T) {
	settings := map[string]any{
		"color":      map[string]any{"palette": []any{map[string]any{"slug": "base", "color": "#fff"}}},
		"typography": map[string]any{"fontSizes": []any{map[string]any{"slug": "small", "size": "0.8rem"}}},
		"spacing":    map[string]any{"spacingSizes": []any{map[string]any{"slug": "60", "size": "2rem"}}},
		"layout":     map[string]any{"contentSize": "600px", "wideSize": "1000px"},
	}
	styles := map[string]any{
		"color":    map[string]any{"background": "var:preset|color|base", "text": "#111"},
		"elements": map[string]any{"link": map[string]any{"color": map[string]any{"text": "red"}, ":hover": map[string]any{"typography": map[string]any{"textDecoration": "none"}}}},
		"blocks":   map[string]any{"core/post-date": map[string]any{"typography": map[string]any{"fontSize": "12px"}}},
	}
	user := map[string]any{"color": map[string]any{"text": "#222"}, "css": "p{x:y}</style><script>"}
	got := GlobalCSS(settings, MergeStyles(styles, user))
	for _, w := range []string{
		"--wp--preset--color--base:#fff;", "--wp--preset--font-size--small:0.8rem;", "--wp--preset--spacing--60:2rem;",
		"--wp--style--global--content-size:600px;", ".has-base-color{color:var(--wp--preset--color--base) !important}",
		".has-small-font-size{", "body{margin:0;color:#222;background-color:var(--wp--preset--color--base)}",
		"a:where(:not(.wp-element-button)){color:red}", ":root :where(a:where(:not(.wp-element-button)):hover){text-decoration:none}",
		".wp-block-post-date{font-size:12px}",
		// The navigation's links take its text colour (the block library's rule).
		".wp-block-navigation .wp-block-navigation-item__content.wp-block-navigation-item__content{color:inherit}",
		// WordPress's layout rules: no gap above a container's first child, no margin below any child
		":root{--wp--style--block-gap:1.5rem}", ":root :where(.is-layout-flow)>:first-child{margin-block-start:0}",
		":root :where(.is-layout-constrained)>*{margin-block-start:1.5rem;margin-block-end:0}", ":root :where(.is-layout-flex){gap:1.5rem}",
		// the block library's figure margin: none above a featured image
		":where(figure){margin:0 0 1em}",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in %s", w, got)
		}
	}
	// with useRootPaddingAwareAlignments the root padding is custom
	// properties on the body, applied to the site blocks and the outermost
	// constrained containers (WordPress's rules), not the body's padding
	settings["useRootPaddingAwareAlignments"] = true
	styles["spacing"] = map[string]any{"padding": map[string]any{"top": "1px", "left": "var:preset|spacing|60"}}
	got = GlobalCSS(settings, styles)
	for _, w := range []string{
		"body{margin:0;color:#111;background-color:var(--wp--preset--color--base);--wp--style--root--padding-top:1px;--wp--style--root--padding-left:var(--wp--preset--spacing--60)}",
		".has-global-padding{padding-right:var(--wp--style--root--padding-right);padding-left:var(--wp--style--root--padding-left)}",
		".wp-site-blocks{padding-top:var(--wp--style--root--padding-top);",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in %s", w, got)
		}
	}
	if strings.Contains(got, "<") {
		t.Errorf("markup leaked into CSS: %s", got)
	}
	// a value that would close the declaration is dropped
	if css := GlobalCSS(nil, map[string]any{"color": map[string]any{"text": "red;}body{x:y"}}); strings.Contains(css, "x:y") {
		t.Errorf("injection kept: %s", css)
	}
}
