package website

import (
	"fmt"
	"sync"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/theme"
)

// themeFiles are the site theme's templates and parts, parsed once with
// their pattern blocks resolved: the files do not change while serving.
type themeFiles struct {
	once      sync.Once
	th        *theme.Theme
	err       error
	templates map[string][]blocks.Node
	parts     map[string][]blocks.Node
}

// SetTheme makes th the theme pages render with (before serving); without
// it the built-in theme renders.
func (s *Handler) SetTheme(th *theme.Theme) { s.themeSrc = th }

// theme returns the site's theme and its parsed files.
func (s *Handler) theme() (*theme.Theme, map[string][]blocks.Node, map[string][]blocks.Node, error) {
	t := &s.files
	t.once.Do(func() {
		t.th = s.themeSrc
		if t.th == nil {
			if t.th, t.err = theme.Builtin(); t.err != nil {
				t.err = fmt.Errorf("load theme: %w", t.err)
				return
			}
		}
		t.templates, t.parts = map[string][]blocks.Node{}, map[string][]blocks.Node{}
		for _, f := range t.th.Templates {
			t.templates[f.Slug] = parseThemed(t.th, f.Content)
		}
		for _, f := range t.th.Parts {
			t.parts[f.Slug] = parseThemed(t.th, f.Content)
		}
	})
	return t.th, t.templates, t.parts, t.err
}

// parseThemed parses block markup of th (a file, or a template stored for
// it) with its core/pattern blocks replaced by the patterns' blocks: what
// WordPress's render_block_core_pattern outputs, done once at parse time so
// the compiled template holds the patterns' static HTML.
func parseThemed(th *theme.Theme, src string) []blocks.Node {
	return resolvePatterns(th, blocks.Parse(src), map[string]bool{})
}

// resolvePatterns replaces every core/pattern block of nodes by the parsed
// blocks of its pattern. An unknown pattern, or one that includes itself,
// renders nothing, as WordPress's does.
func resolvePatterns(th *theme.Theme, nodes []blocks.Node, seen map[string]bool) []blocks.Node {
	var out []blocks.Node
	for _, n := range nodes {
		b := n.Block
		switch {
		case b == nil:
			out = append(out, n)
		case b.Name == "core/pattern":
			slug, _ := b.Attrs["slug"].(string)
			p, ok := th.Pattern(slug)
			if !ok || seen[slug] {
				continue
			}
			seen[slug] = true
			out = append(out, resolvePatterns(th, blocks.Parse(p.Content), seen)...)
			delete(seen, slug)
		default:
			b.Parts = resolvePatterns(th, b.Parts, seen)
			out = append(out, n)
		}
	}
	return out
}
