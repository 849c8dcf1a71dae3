package blocks

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"siteplane.dev/services/internal/platform/kses"
)

// The payloads of issue 26's first row, and one per block kind and
// attribute context: each renders inert (no on* attribute, no attribute the
// renderer does not write, no javascript: URL, no element of the payload).
func TestHostileAttributes(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings that must be there (the block still renders)
	}{
		{"issue 26: justifyContent of a static group",
			`<!-- wp:group {"layout":{"type":"flex","justifyContent":"x\" autofocus onfocus=\"alert(1)"}} --><div class="wp-block-group">x</div><!-- /wp:group -->`,
			[]string{`class="is-layout-flex is-content-justification-xautofocusonfocusalert1 wp-block-group"`}},
		{"issue 26: navigation-link javascript: url",
			`<!-- wp:navigation --><!-- wp:navigation-link {"label":"Go","url":"javascript:alert(1)"} /--><!-- /wp:navigation -->`,
			[]string{`<a class="wp-block-navigation-item__content" href=""><span class="wp-block-navigation-item__label">Go</span></a>`}},
		{"navigation-link url with blanks in its scheme", `<!-- wp:navigation-link {"url":" java\tscript:alert(1)"} /-->`, []string{`href=""`}},
		{"navigation-link data: url", `<!-- wp:navigation-link {"label":"d","url":"data:text/html,<script>alert(1)</script>"} /-->`, []string{`href=""`}},
		{"navigation layout and aria-label",
			`<!-- wp:navigation {"ariaLabel":"\"><script>alert(1)</script>","layout":{"type":"flex","justifyContent":"\" onclick=\"alert(1)"}} /-->`,
			[]string{`is-content-justification-onclickalert1"`, `aria-label="&#34;&gt;&lt;script&gt;`}},
		{"query layout", `<!-- wp:query {"layout":{"type":"flex","justifyContent":"a\"onmouseover=\"alert(1)"}} --><!-- /wp:query -->`,
			[]string{`is-content-justification-aonmouseoveralert1"`}},
		{"query pagination layout", `<!-- wp:query-pagination {"layout":{"type":"flex","justifyContent":"'><img src=x onerror=alert(1)>"}} /-->`,
			[]string{`is-content-justification-imgsrcxonerroralert1"`}},
		{"post content layout", `<!-- wp:post-content {"layout":{"type":"flex","justifyContent":"x\" autofocus onfocus=\"alert(1)"}} /-->`,
			[]string{`is-content-justification-xautofocusonfocusalert1"`}},
		{"colour and font-size presets", `<!-- wp:site-title {"textColor":"x\" onclick=\"alert(1)","backgroundColor":"a b","fontSize":"<x>","textAlign":"%22center"} /-->`,
			[]string{`has-xonclickalert1-color has-text-color has-ab-background-color has-background has-x-font-size has-text-align-center"`}},
		{"className", `<!-- wp:post-title {"className":"ok \" onclick=\"alert(1)"} /-->`, []string{`class="wp-block-post-title ok onclickalert1"`}},
		{"post-terms taxonomy class", `<!-- wp:post-terms {"term":"category\" onclick=\"x"} /-->`, nil},
		{"spacing: a declaration that ends the declaration",
			`<!-- wp:group {"style":{"spacing":{"padding":{"top":"1px;background:url(javascript:alert(1))","left":"2px"}}}} --><div class="wp-block-group">x</div><!-- /wp:group -->`,
			[]string{`<div style="padding-left:2px" class="is-layout-flow wp-block-group">`}},
		{"spacing: expression, url, escapes and quotes",
			`<!-- wp:group {"style":{"spacing":{"blockGap":"expression(alert(1))","margin":{"top":"url(x)","right":"\\75 rl(x)","bottom":"1px\" onclick=\"x","left":"var:preset|spacing|60"}}}} --><div class="wp-block-group">x</div><!-- /wp:group -->`,
			[]string{`<div style="margin-left:var(--wp--preset--spacing--60)" class="is-layout-flow wp-block-group">`}},
		{"spacing: a preset that calls url()", `<!-- wp:group {"style":{"spacing":{"blockGap":"var:x)url(javascript:alert(1)"}}} --><div>x</div><!-- /wp:group -->`,
			[]string{`<div class="is-layout-flow">x</div>`}},
		{"search labels", `<!-- wp:search {"label":"<img src=x onerror=alert(1)>","buttonText":"\"><svg onload=alert(1)>"} /-->`,
			[]string{`&lt;img src=x onerror=alert(1)&gt;</label>`}},
		{"template part tag name", `<!-- wp:template-part {"slug":"header","tagName":"script"} /-->`, []string{`<div class="wp-block-template-part">`}},
		{"post excerpt more text", `<!-- wp:post-excerpt {"moreText":"<script>alert(1)</script>"} /-->`, []string{`&lt;script&gt;`}},
		{"post navigation label", `<!-- wp:post-navigation-link {"type":"previous","label":"<b onclick=x>"} /-->`, []string{`&lt;b onclick=x&gt;`}},
		{"pagination labels", `<!-- wp:query-pagination-previous {"label":"<a href=javascript:x>"} /--><!-- wp:query-pagination-next {"label":"\" onclick=\""} /-->`,
			[]string{`&lt;a href=javascript:x&gt;`}},
		{"image, button and cover attributes stay data", `<!-- wp:image {"url":"javascript:alert(1)","id":"1\" onerror=\"x","href":"javascript:x","anchor":"\" onclick=\""} --><figure class="wp-block-image"><img src="/a.png" alt=""/></figure><!-- /wp:image -->` +
			`<!-- wp:button {"url":"javascript:alert(1)","linkTarget":"\" onclick=\""} --><div class="wp-block-button"><a class="wp-block-button__link" href="/b/">b</a></div><!-- /wp:button -->` +
			`<!-- wp:cover {"url":"javascript:alert(1)","dimRatio":"\" onclick=\"","overlayColor":"x\" onclick=\""} --><div class="wp-block-cover">c</div><!-- /wp:cover -->`,
			[]string{`<img src="/a.png" alt=""/>`, `href="/b/"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, got := range renderBoth(tt.src, testEnv) {
				if problems := unsafeMarkup(got); len(problems) > 0 {
					t.Errorf("%s\nin %s", strings.Join(problems, "\n"), got)
				}
				for _, w := range tt.want {
					if !strings.Contains(got, w) {
						t.Errorf("missing %q in %s", w, got)
					}
				}
			}
		})
	}
}

// renderBoth renders src as the website does on first sight (parsed) and
// from the pre-rendered form it keeps (compiled).
func renderBoth(src string, env func() *Env) []string {
	return []string{RenderMarkup(src, env()), Render(Compile(Parse(src), env()), env())}
}

// The attributes the renderer itself writes: any other in its output is an
// attribute value that broke out of its quotes.
var rendererAttributes = map[string]bool{
	"class": true, "href": true, "rel": true, "aria-label": true, "style": true, "id": true, "for": true, "type": true,
	"name": true, "value": true, "required": true, "role": true, "method": true, "action": true, "src": true, "alt": true,
	"loading": true, "datetime": true, "aria-current": true, "aria-hidden": true,
	// the avatar's image
	"srcset": true, "height": true, "width": true, "decoding": true,
	// the search field and its icon
	"placeholder": true, "viewBox": true,
	// the comments blocks and form
	"target": true, "data-commentid": true, "data-postid": true, "data-belowelement": true, "data-respondelement": true,
	// the navigation's overlay menu (WordPress's markup, its script's hooks)
	"data-wp-interactive": true, "data-wp-context": true, "aria-haspopup": true, "data-wp-on--click": true,
	"data-wp-on--keydown": true, "data-wp-class--has-modal-open": true, "data-wp-class--is-menu-open": true,
	"data-wp-watch": true, "data-wp-on--focusout": true, "tabindex": true, "data-wp-bind--aria-modal": true,
	"data-wp-bind--aria-label": true, "data-wp-bind--role": true, "xmlns": true, "viewbox": true, "focusable": true, "d": true,
	"data-replyto": true, "size": true, "maxlength": true, "autocomplete": true, "aria-describedby": true, "cols": true, "rows": true,
}

// The elements the renderer and the samples' saved HTML write.
var rendererElements = map[string]bool{
	"a": true, "p": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "div": true, "nav": true,
	"ul": true, "li": true, "header": true, "footer": true, "main": true, "section": true, "article": true, "aside": true,
	"ol": true, "small": true, "em": true, "textarea": true, "figure": true, "img": true, "span": true, "time": true, "form": true, "label": true, "input": true, "button": true,
	"svg": true, "path": true,
}

var urlAttributes = map[string]bool{"href": true, "src": true, "action": true}

// unsafeMarkup parses out as a browser tokenizes it and lists what could
// run: unexpected elements or attributes, bad URLs, class names that are
// not class names, style values that call functions or add declarations.
func unsafeMarkup(out string) []string {
	var problems []string
	z := html.NewTokenizer(strings.NewReader(out))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return problems
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		if tok.Data == "script" { // only the navigation's own script, as it is
			if z.Next() != html.TextToken || string(z.Text()) != navScript {
				problems = append(problems, "a script other than the navigation's")
			}
			continue
		}
		if !rendererElements[tok.Data] {
			problems = append(problems, "element <"+tok.Data+">")
		}
		for _, a := range tok.Attr {
			problems = append(problems, unsafeAttribute(tok.Data, a)...)
		}
	}
}

func unsafeAttribute(el string, a html.Attribute) []string {
	var problems []string
	name, val := strings.ToLower(a.Key), a.Val
	switch {
	case strings.HasPrefix(name, "on") || !rendererAttributes[name]:
		problems = append(problems, "attribute "+name+" on <"+el+">")
	case urlAttributes[name] && kses.URL(val) != val:
		problems = append(problems, "URL "+val)
	case name == "class":
		for _, c := range strings.Fields(val) {
			if sanitizeClass(c) != c {
				problems = append(problems, "class "+c)
			}
		}
	case name == "style":
		for _, d := range strings.Split(val, ";") {
			prop, v, _ := strings.Cut(d, ":")
			if !spacingProperty.MatchString(prop) || safeCSS(v) != v {
				problems = append(problems, "style "+d)
			}
		}
	}
	return problems
}

var spacingProperty = regexp.MustCompile(`^(gap|(padding|margin)-(top|right|bottom|left)|width|height|object-fit)$`)

// hostile are strings an author may put in any attribute.
var hostile = []string{
	`x" autofocus onfocus="alert(1)`,
	`x' onmouseover='alert(1)`,
	`javascript:alert(1)`,
	` JaVaScRiPt:alert(1)`,
	"java\tscript:alert(1)",
	"\x01javascript:alert(1)",
	`data:text/html,<script>alert(1)</script>`,
	`vbscript:msgbox(1)`,
	`"><script>alert(1)</script>`,
	`</style><script>alert(1)</script>`,
	`--><img src=x onerror=alert(1)>`,
	`red;background:url(javascript:alert(1))`,
	`expression(alert(1))`,
	`var:preset|x)url(javascript:alert(1)`,
	`1px" onmouseover="alert(1)`,
	`\75 rl(javascript:alert(1))`,
	`x%22%20onfocus%3D%22alert(1)`,
	`&quot; onfocus=&quot;alert(1)`,
	`foo onclick=alert(1)`,
	"\u00a0onclick=alert(1)",
}

// attributeKeys are every string attribute the renderer reads (kept
// complete by TestHostileKeysCoverTheRenderer) and some it does not read.
var attributeKeys = []string{
	"textColor", "backgroundColor", "align", "fontSize", "textAlign", "className", "ariaLabel", "label", "url", "slug", "tagName",
	"term", "separator", "prefix", "moreText", "type", "buttonText",
	"anchor", "id", "href", "linkTarget", "rel", "alt", "level", "ref", "content",
	"width", "height", "scale", "dimRatio", "overlayColor", "overlayMenu", "paginationArrow", "placeholder", "widthUnit", "buttonPosition",
}

// hostileAttrs sets every attribute to h: the layout as flex (so that its
// flex options are read) or of a hostile type, spacing on every side.
func hostileAttrs(h string, flex bool) map[string]any {
	attrs := map[string]any{}
	for _, k := range attributeKeys {
		attrs[k] = h
	}
	layoutType := h
	if flex {
		layoutType = "flex"
	}
	attrs["layout"] = map[string]any{"type": layoutType, "justifyContent": h, "orientation": h, "flexWrap": h}
	sides := map[string]any{"top": h, "right": h, "bottom": h, "left": h}
	attrs["style"] = map[string]any{"spacing": map[string]any{"blockGap": h, "padding": sides, "margin": sides},
		"color": map[string]any{"text": h, "background": h}, "typography": map[string]any{"fontSize": h}}
	return attrs
}

// blockSamples are one block of every kind the renderer supports (each
// dynamic block, the containers with inner blocks, and static blocks):
// %s stands for the attributes.
func blockSamples() []string {
	names := make([]string, 0, len(dynamic))
	for n := range dynamic {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		out = append(out, "<!-- wp:"+n+" %s /-->")
	}
	return append(out,
		`<!-- wp:navigation %s --><!-- wp:navigation-link %s /--><!-- wp:home-link %s /--><!-- /wp:navigation -->`,
		`<!-- wp:query %s --><div class="wp-block-query"><!-- wp:post-template %s --><!-- wp:post-title %s /--><!-- /wp:post-template -->`+
			`<!-- wp:query-pagination %s --><!-- wp:query-pagination-previous %s /--><!-- wp:query-pagination-numbers %s /-->`+
			`<!-- wp:query-pagination-next %s /--><!-- /wp:query-pagination --></div><!-- /wp:query -->`,
		`<!-- wp:group %s --><div class="wp-block-group"><!-- wp:paragraph %s --><p>p</p><!-- /wp:paragraph --></div><!-- /wp:group -->`,
		`<!-- wp:columns %s --><div class="wp-block-columns"><!-- wp:column %s --><div class="wp-block-column">c</div><!-- /wp:column --></div><!-- /wp:columns -->`,
		`<!-- wp:image %s --><figure class="wp-block-image"><img src="/a.png" alt=""/></figure><!-- /wp:image -->`,
		`<!-- wp:buttons %s --><div class="wp-block-buttons"><!-- wp:button %s --><div class="wp-block-button"><a class="wp-block-button__link" href="/b/">b</a></div><!-- /wp:button --></div><!-- /wp:buttons -->`,
		`<!-- wp:cover %s --><div class="wp-block-cover"><span class="wp-block-cover__background"></span></div><!-- /wp:cover -->`,
		`<!-- wp:acme/unknown %s --><section>u</section><!-- /wp:acme/unknown -->`,
		`<!-- wp:comments %s --><div class="wp-block-comments"><!-- wp:comment-template %s --><!-- wp:avatar %s /--><!-- wp:comment-author-name %s /-->`+
			`<!-- wp:comment-date %s /--><!-- wp:comment-content %s /--><!-- wp:comment-reply-link %s /--><!-- wp:comment-edit-link %s /-->`+
			`<!-- /wp:comment-template --><!-- wp:comments-pagination %s --><!-- wp:comments-pagination-numbers %s /--><!-- /wp:comments-pagination --></div><!-- /wp:comments -->`,
	)
}

// Property: whatever string stands in every attribute of every supported
// block, the output tokenizes to nothing unsafeMarkup objects to.
func TestHostileStringsInEveryAttribute(t *testing.T) {
	for _, sample := range blockSamples() {
		for _, h := range hostile {
			for _, flex := range []bool{true, false} {
				src := strings.ReplaceAll(sample, "%s", attrsJSON(t, hostileAttrs(h, flex)))
				if nodes := Parse(src); len(nodes) == 0 || nodes[0].Block == nil || len(nodes[0].Block.Attrs) == 0 {
					t.Fatalf("the attributes did not parse: %s", src)
				}
				for _, got := range renderBoth(src, propertyEnv) {
					if got == "" && !rendersNothing[sample] {
						t.Errorf("%s rendered nothing: the test proves nothing of it", sample)
					}
					if problems := unsafeMarkup(got); len(problems) > 0 {
						t.Errorf("%s with %q:\n%s\nin %s", strings.SplitN(sample, " ", 3)[1], h, strings.Join(problems, "\n"), got)
					}
				}
			}
		}
	}
}

// propertyEnv is testEnv with something for every block to show: a
// template part of any slug, a next post, an archive description.
func propertyEnv() *Env {
	env := testEnv()
	part := env.Part
	env.Part = func(string) ([]Node, bool) { return part("header") }
	env.Post.Next = &Link{Label: "Newer", URL: "https://s.test/newer/"}
	env.ArchiveDescription = "About news"
	env.Comments = sampleComments("Ann", "https://ann.test/")
	return env
}

// rendersNothing are the samples that render nothing with propertyEnv
// whatever their attributes.
var rendersNothing = map[string]bool{
	"<!-- wp:core/comments %s /-->": true, // its inner blocks are its output (sampled with them)
	// the comment-* blocks show the comment comment-template renders
	"<!-- wp:core/comment-author-name %s /-->": true,
	"<!-- wp:core/avatar %s /-->":              true, // a comment's (sampled in the comments)
	"<!-- wp:core/comment-content %s /-->":     true,
	"<!-- wp:core/comment-date %s /-->":        true,
	"<!-- wp:core/comment-edit-link %s /-->":   true,
	"<!-- wp:core/comment-reply-link %s /-->":  true,
	"<!-- wp:core/query-no-results %s /-->":    true, // the query has posts
	"<!-- wp:core/post-terms %s /-->":          true, // no taxonomy of a hostile name
}

// attrsJSON writes attributes as an author could store them: with <, >
// and & unescaped (the editor escapes them; a REST client need not).
func attrsJSON(t *testing.T, attrs map[string]any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(attrs); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(buf.String())
}

// Every attribute the renderer reads by name is one the property test
// fills with hostile strings, so a new attribute cannot skip it.
func TestHostileKeysCoverTheRenderer(t *testing.T) {
	files, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, k := range attributeKeys {
		known[k] = true
	}
	read := regexp.MustCompile(`(?:str|num|boolean)\(b, "([A-Za-z]+)"|\bl\["([A-Za-z]+)"\]`)
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".go") || strings.HasSuffix(f.Name(), "_test.go") {
			continue
		}
		src, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range read.FindAllStringSubmatch(string(src), -1) {
			k := m[1] + m[2]
			if !known[k] && !booleanAttributes[k] && !layoutKeys[k] {
				t.Errorf("%s reads attribute %q, which the hostile tests do not set", f.Name(), k)
			}
		}
	}
}

var (
	booleanAttributes = map[string]bool{"isLink": true, "showTitle": true, "showLabel": true, "buttonUseIcon": true}
	layoutKeys        = map[string]bool{"type": true, "justifyContent": true, "orientation": true, "flexWrap": true}
)

// Data the site supplies (menu item URLs, author and post URLs, image
// URLs) gets the same URL check: a menu item stored before the fix with a
// javascript: URL is inert.
func TestHostileSiteData(t *testing.T) {
	for _, h := range hostile {
		env := func() *Env { return hostileEnv(h) }
		for _, sample := range blockSamples() {
			src := strings.ReplaceAll(sample, "%s", attrsJSON(t, map[string]any{"isLink": true, "term": h, "showTitle": true}))
			for _, got := range renderBoth(src, env) {
				if problems := unsafeMarkup(got); len(problems) > 0 {
					t.Errorf("%q: %s\nin %s", h, strings.Join(problems, "\n"), got)
				}
			}
		}
	}
}

// hostileEnv is testEnv with h in every field the site fills.
func hostileEnv(h string) *Env {
	env := testEnv()
	env.HomeURL, env.SiteTitle, env.Tagline, env.SearchQuery, env.ArchiveTitle, env.ArchiveDescription = h, h, h, h, h, h
	env.Navigation = func(int64) []Link { return []Link{{Label: h, URL: h}} }
	p := env.Post
	p.Type, p.Title, p.URL, p.DateISO, p.DateText, p.Excerpt = h, h, h, h, h, h
	p.Author, p.Image = Link{Label: h, URL: h}, &Image{URL: h, Alt: h}
	p.Terms = map[string][]Link{h: {{Label: h, URL: h}}}
	p.Prev, p.Next = &Link{Label: h, URL: h}, &Link{Label: h, URL: h}
	env.Query.PageURL = func(int) string { return h }
	env.Comments = sampleComments(h, h)
	env.Comments.PostTitle, env.Comments.PostURL, env.Comments.PageURL = h, h, func(int) string { return h }
	env.Comments.Form = CommentForm{Action: h, User: h, ProfileURL: h, LogoutURL: h, ReplyTo: env.Comments.Threads[0]}
	return env
}
