package blocks

import (
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/theme"
)

// themeEnv is testEnv with the theme's template parts.
func themeEnv(th *theme.Theme) *Env {
	e := testEnv()
	e.Part = func(slug string) ([]Node, bool) {
		if f, ok := th.Part(slug); ok {
			return Parse(f.Content), true
		}
		return nil, false
	}
	return e
}

// Every template of the built-in theme renders the same compiled as
// parsed, with its parts, and compiling folds its site-wide blocks.
func TestCompileThemeTemplates(t *testing.T) {
	th, err := theme.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	env := func() *Env { return themeEnv(th) }
	for _, f := range th.Templates {
		t.Run(f.Slug, func(t *testing.T) {
			nodes := Parse(f.Content)
			want := Render(nodes, env())
			compiled := Compile(nodes, env())
			if got := Render(compiled, env()); got != want {
				t.Errorf("compiled render differs:\n%s\nwant\n%s", got, want)
			}
			blocks := 0
			for _, n := range compiled {
				if n.Block != nil {
					blocks++
				}
			}
			if blocks >= len(nodes) && len(nodes) > 1 {
				t.Errorf("nothing folded: %d blocks left of %d nodes", blocks, len(nodes))
			}
		})
	}
}

// A page's blocks stay blocks: the post, the query and the search box.
func TestCompileKeepsPageBlocks(t *testing.T) {
	src := `<!-- wp:group --><div class="wp-block-group"><!-- wp:site-title /--><!-- wp:post-title /--></div><!-- /wp:group -->` +
		`<!-- wp:paragraph --><p>static</p><!-- /wp:paragraph --><!-- wp:search /-->`
	compiled := Compile(Parse(src), testEnv())
	if len(compiled) != 3 || compiled[0].Block == nil || compiled[1].HTML != "<p>static</p>" || compiled[2].Block == nil {
		t.Fatalf("compiled %#v", compiled)
	}
	other := testEnv()
	other.Post = &Post{Title: "Another"}
	if got := Render(compiled, other); !strings.Contains(got, "Another") || !strings.Contains(got, "My Site") {
		t.Errorf("page blocks not rendered per page: %s", got)
	}
}
