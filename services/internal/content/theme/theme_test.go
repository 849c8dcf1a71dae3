package theme

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestBuiltin(t *testing.T) {
	th, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if th.Stylesheet != "siteplane" || th.Name != "Siteplane" || th.Version == "" || th.TextDomain != "siteplane" {
		t.Fatalf("headers: %+v", th)
	}
	for _, slug := range []string{"index", "home", "single", "page", "archive", "search", "404"} {
		f, ok := th.Template(slug)
		if !ok || !strings.Contains(f.Content, "<!-- wp:template-part {\"slug\":\"header\"") {
			t.Errorf("template %s: missing or without the header part", slug)
		}
	}
	for slug, want := range map[string]string{"single": "wp:post-content", "page": "wp:post-content", "index": "wp:query", "search": "wp:search"} {
		if f, _ := th.Template(slug); !strings.Contains(f.Content, want) {
			t.Errorf("template %s lacks %s", slug, want)
		}
	}
	if f, _ := th.Template("page-wide"); f.Title != "Wide page" || !slices.Equal(f.PostTypes, []string{"page"}) {
		t.Errorf("custom template: %+v", f)
	}
	if f, _ := th.Template("404"); f.Title != "Page: 404" {
		t.Errorf("404 title %q", f.Title)
	}
	h, ok := th.Part("header")
	if !ok || h.Area != AreaHeader || !strings.Contains(h.Content, "wp:site-title") || !strings.Contains(h.Content, "wp:navigation") {
		t.Errorf("header part: %+v", h)
	}
	if f, _ := th.Part("footer"); f.Area != AreaFooter {
		t.Errorf("footer area %q", f.Area)
	}
	if len(th.Variations) < 1 || th.Variations[0].Data["title"] != "Midnight" || th.Variations[0].Data["$schema"] != nil {
		t.Errorf("variations: %+v", th.Variations)
	}
	if th.Settings["color"] == nil || th.Styles["typography"] == nil {
		t.Error("settings/styles not read")
	}
}

func TestLoadErrors(t *testing.T) {
	ok := fstest.MapFS{
		"style.css":            {Data: []byte("/*\nTheme Name: T\n*/")},
		"theme.json":           {Data: []byte(`{"version":3}`)},
		"templates/index.html": {Data: []byte("<!-- wp:paragraph /-->")},
		"parts/odd.html":       {Data: []byte("x")},
		"styles/dusk.json":     {Data: []byte(`{"version":3,"extra":1,"styles":{}}`)},
	}
	th, err := Load(ok, "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(th.Variations) != 1 || th.Variations[0].Data["title"] != "dusk" || th.Variations[0].Data["extra"] != nil {
		t.Errorf("untitled variation: %+v", th.Variations)
	}
	if p, _ := th.Part("odd"); p.Area != AreaUncategorized {
		t.Errorf("part without theme.json entry: area %q", p.Area)
	}
	for name, mutate := range map[string]func(fstest.MapFS){
		"no index":      func(m fstest.MapFS) { delete(m, "templates/index.html") },
		"bad json":      func(m fstest.MapFS) { m["theme.json"] = &fstest.MapFile{Data: []byte("{")} },
		"no style.css":  func(m fstest.MapFS) { delete(m, "style.css") },
		"no theme name": func(m fstest.MapFS) { m["style.css"] = &fstest.MapFile{Data: []byte("/* */")} },
	} {
		m := fstest.MapFS{}
		for k, v := range ok {
			m[k] = v
		}
		mutate(m)
		if _, err := Load(m, "t"); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}

func TestSanitizeAndParseID(t *testing.T) {
	for in, want := range map[string]string{
		"siteplane//home":     "siteplane//home",
		"siteplane/home":      "siteplane//home",
		"siteplane%2F%2Fhome": "siteplane//home",
		"sub/dir//home":       "sub/dir//home",
		"sub/dir/home":        "sub/dir//home",
		"home":                "home",
	} {
		if got := SanitizeID(in); got != want {
			t.Errorf("SanitizeID(%q) = %q, want %q", in, got, want)
		}
	}
	if th, slug, ok := ParseID("sub/dir//home"); !ok || th != "sub/dir" || slug != "home" {
		t.Errorf("ParseID: %q %q %v", th, slug, ok)
	}
	for _, bad := range []string{"home", "//home", "theme//"} {
		if _, _, ok := ParseID(bad); ok {
			t.Errorf("ParseID(%q) ok", bad)
		}
	}
}

func TestHierarchy(t *testing.T) {
	tests := []struct {
		slug, prefix string
		custom       bool
		want         string
	}{
		{slug: "index", want: "index"},
		{slug: "my-template", custom: true, want: "page singular index"},
		{slug: "front-page", want: "front-page home index"},
		{slug: "home", want: "home index"},
		{slug: "single", want: "single singular index"},
		{slug: "single-post", want: "single-post single singular index"},
		{slug: "single-post-hello", want: "single-post-hello single-post single singular index"},
		{slug: "page-about", want: "page-about page singular index"},
		{slug: "category-news", want: "category-news category archive index"},
		{slug: "tag", want: "tag archive index"},
		{slug: "author-admin", want: "author-admin author archive index"},
		{slug: "taxonomy-post_tag-x", want: "taxonomy-post_tag-x taxonomy-post_tag taxonomy archive index"},
		{slug: "date", want: "date archive index"},
		{slug: "attachment", want: "attachment single singular index"},
		{slug: "search", want: "search index"},
		{slug: "single-post-hello", prefix: "single-post", want: "single-post-hello single-post single singular index"},
		{slug: "category-news", prefix: "category", want: "category-news category archive index"},
		{slug: "unknown", want: "unknown index"},
	}
	for _, tt := range tests {
		got := strings.Join(Hierarchy(tt.slug, tt.custom, tt.prefix), " ")
		if got != tt.want {
			t.Errorf("Hierarchy(%q, %v, %q) = %q, want %q", tt.slug, tt.custom, tt.prefix, got, tt.want)
		}
	}
}

// A stored template beats the theme's file of the same slug; either alone
// is used; neither is no template.
func TestResolve(t *testing.T) {
	stored := map[string]string{"single": "stored single", "custom": "stored custom"}
	files := map[string]string{"single": "file single", "index": "file index"}
	for _, c := range []struct {
		slug, want string
		ok         bool
	}{
		{"single", "stored single", true},
		{"custom", "stored custom", true},
		{"index", "file index", true},
		{"page", "", false},
	} {
		got, ok := Resolve(c.slug, In(stored), In(files))
		if got != c.want || ok != c.ok {
			t.Errorf("Resolve(%q) = %q, %v; want %q, %v", c.slug, got, ok, c.want, c.ok)
		}
	}
}
