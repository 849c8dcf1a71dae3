package website

import (
	"bytes"
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/pkg/contract"
)

// Every value the shell and the password form write is escaped where it
// stands (text or a double-quoted attribute), as html.EscapeString does;
// the markup around it is the writer's.
func TestShellEscapesValues(t *testing.T) {
	site := contract.DefaultSite("http://example.test")
	site.Title = `A+ <b>&"'`
	h := New(Config{Site: &site})
	sp := &sitePage{title: `<script>x</script>`, description: `d"><x`, canonical: `http://example.test/?a=1&b=2`,
		ogType: "article", pt: store.TypePost, post: &store.Post{ID: 5, Status: "publish", Slug: "a"}, bodyClass: `x" onload="y`}
	var sb bytes.Buffer
	h.writeShell(&sb, sp, "body{}", "siteplane")
	form := h.passwordForm(&store.Post{ID: 5}, `/a/?x="1"&y=<2>`)
	for _, c := range []struct{ in, want string }{
		{sb.String(), "<title>&lt;script&gt;x&lt;/script&gt; – A+ &lt;b&gt;&amp;&#34;&#39;</title>\n"},
		{sb.String(), `<meta name="description" content="d&#34;&gt;&lt;x">` + "\n"},
		{sb.String(), `<link rel="canonical" href="http://example.test/?a=1&amp;b=2">` + "\n"},
		{sb.String(), `<meta property="og:site_name" content="A+ &lt;b&gt;&amp;&#34;&#39;">` + "\n"},
		{sb.String(), `<body class="x&#34; onload=&#34;y wp-theme-siteplane">` + "\n"},
		{sb.String(), `<style id="global-styles-inline-css">body{}</style>` + "\n</head>\n"},
		{form, `<input type="hidden" name="redirect_to" value="/a/?x=&#34;1&#34;&amp;y=&lt;2&gt;"></form>`},
		{form, `<label for="pwbox-5">Password: <input name="post_password" id="pwbox-5" type="password"`},
	} {
		if !strings.Contains(c.in, c.want) {
			t.Errorf("missing %q in:\n%s", c.want, c.in)
		}
	}
	if strings.Contains(sb.String(), "<script>") || strings.Contains(sb.String(), `" onload="`) {
		t.Errorf("a value escaped its context:\n%s", sb.String())
	}
}
