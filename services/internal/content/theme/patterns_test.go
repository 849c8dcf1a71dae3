package theme

import (
	"reflect"
	"testing"
)

func TestParsePattern(t *testing.T) {
	no, yes := false, true
	cases := []struct {
		name string
		src  string
		want Pattern
		ok   bool
	}{
		{name: "every header", src: "<?php\n/**\n * Title: Hero\n * Slug: t/hero\n * Description: Big.\n * Categories: banner, featured\n * Keywords: a,b\n" +
			" * Block Types: core/post-content\n * Post Types: page, wp_template\n * Template Types: front-page\n * Viewport Width: 1400\n * Inserter: yes\n */\n?>\n<!-- wp:paragraph -->\n<p>x</p>\n<!-- /wp:paragraph -->\n",
			want: Pattern{Slug: "t/hero", Title: "Hero", Description: "Big.", Categories: []string{"banner", "featured"}, Keywords: []string{"a", "b"},
				BlockTypes: []string{"core/post-content"}, PostTypes: []string{"page", "wp_template"}, TemplateTypes: []string{"front-page"},
				ViewportWidth: 1400, Inserter: &yes, Content: "<!-- wp:paragraph -->\n<p>x</p>\n<!-- /wp:paragraph -->\n"}, ok: true},
		{name: "hidden from the inserter", src: "<?php\n/**\n * Title: H\n * Slug: t/h\n * Inserter: no\n */\n?>\nx",
			want: Pattern{Slug: "t/h", Title: "H", Inserter: &no, Content: "x"}, ok: true},
		{name: "no slug is skipped", src: "<?php\n/**\n * Title: H\n */\n?>\nx"},
		{name: "no title is skipped", src: "<?php\n/**\n * Slug: t/h\n */\n?>\nx"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := parsePattern(c.src)
			if ok != c.ok || !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v %v, want %+v %v", got, ok, c.want, c.ok)
			}
		})
	}
}

func TestBuiltinPatterns(t *testing.T) {
	th, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, p := range th.Patterns {
		slugs = append(slugs, p.Slug)
	}
	if want := []string{"siteplane/call-to-action", "siteplane/hidden-no-results"}; !reflect.DeepEqual(slugs, want) {
		t.Errorf("patterns %v, want %v", slugs, want)
	}
}
