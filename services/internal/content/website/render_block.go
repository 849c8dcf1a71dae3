package website

import (
	"context"
	"net/http"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
)

// RenderBlock renders one block with the page renderer, for the block
// renderer route (WordPress's render_block of a block made of name and
// attrs, with no inner content): the site-wide values, the theme's parts
// and, when post is set, that post as the current one. The route lets
// only callers who may edit the post name one, so a protected post shows
// its content (no password cookie is read).
func (s *Handler) RenderBlock(ctx context.Context, name string, attrs map[string]any, pt *store.PostType, post *store.Post) (string, error) {
	sn, err := s.snapshot(ctx)
	if err != nil {
		return "", err
	}
	env, readErr := s.siteWideEnv(ctx, sn)
	env.Part = func(slug string) ([]blocks.Node, bool) {
		n, ok, err := sn.compiledNodes(ctx, s, "part", slug)
		if err != nil && *readErr == nil {
			*readErr = err
		}
		return n, ok
	}
	if post != nil {
		req := &siteReq{r: (&http.Request{}).WithContext(ctx), paged: 1, caller: identity.FromContext(ctx)}
		conv := &postConverter{s: s, req: req, sn: sn, users: map[int64]store.User{}}
		bp, err := conv.convert(ctx, pt, []*store.Post{post}, true, env)
		if err != nil {
			return "", err
		}
		env.Post = bp[0]
	}
	if attrs == nil {
		attrs = map[string]any{}
	}
	out := blocks.Render([]blocks.Node{{Block: &blocks.Block{Name: name, Attrs: attrs}}}, env)
	if *readErr != nil {
		return "", *readErr
	}
	return out, nil
}
