package blocks

import (
	"testing"

	"siteplane.dev/services/internal/content/theme"
)

// BenchmarkRenderTemplate renders the built-in theme's listing templates
// with ten posts: escaping attributes must not cost allocations (785 an
// index page before and after).
func BenchmarkRenderTemplate(b *testing.B) {
	th, err := theme.Builtin()
	if err != nil {
		b.Fatal(err)
	}
	env := themeEnv(th)
	var posts []*Post
	for i := 0; i < 10; i++ {
		p := *env.Post
		posts = append(posts, &p)
	}
	env.Query.Posts = posts
	for _, f := range th.Templates {
		if f.Slug != "index" && f.Slug != "home" {
			continue
		}
		nodes := Parse(f.Content)
		b.Run(f.Slug, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Render(nodes, env)
			}
		})
	}
}
