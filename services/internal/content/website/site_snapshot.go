package website

import (
	"context"
	"log/slog"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
)

// What a page reads through the generation's snapshot: a post's
// neighbours, term names, featured images, excerpts and rendered content.

// adjacent returns the previous (older) and next (newer) published posts
// of p, from the snapshot or one statement.
func (sn *siteSnapshot) adjacent(ctx context.Context, s *Handler, p *store.Post) (prev, next *blocks.Link, err error) {
	if v, ok := sn.neighbour.Load(p.ID); ok {
		l := v.([2]*blocks.Link)
		return l[0], l[1], nil
	}
	prevPost, nextPost, err := store.AdjacentPosts(ctx, s.db(ctx), p)
	if err != nil {
		return nil, nil, err
	}
	prev, next = neighbourLinks(s, prevPost, nextPost)
	cost := 0
	for _, l := range []*blocks.Link{prev, next} {
		if l != nil {
			cost += len(l.Label) + len(l.URL)
		}
	}
	sn.keep(&sn.neighbour, p.ID, [2]*blocks.Link{prev, next}, entryCost(cost))
	return prev, next, nil
}

// neighbourLinks are the links to a post's published neighbours (nil:
// none).
func neighbourLinks(s *Handler, prevPost, nextPost *store.Post) (prev, next *blocks.Link) {
	if prevPost != nil {
		prev = &blocks.Link{Label: prevPost.Title, URL: s.permalinks.Post(store.TypePost, prevPost)}
	}
	if nextPost != nil {
		next = &blocks.Link{Label: nextPost.Title, URL: s.permalinks.Post(store.TypePost, nextPost)}
	}
	return prev, next
}

// termNames maps term ids to terms, reading only those the snapshot
// lacks.
func (sn *siteSnapshot) termNames(ctx context.Context, q store.Querier, ids []int64) (map[int64]*store.Term, error) {
	out := make(map[int64]*store.Term, len(ids))
	var missing []int64
	for _, id := range ids {
		if v, ok := sn.terms.Load(id); ok {
			if t := v.(*store.Term); t != nil {
				out[id] = t
			}
			continue
		}
		missing = append(missing, id)
	}
	if len(missing) == 0 {
		return out, nil
	}
	found, err := store.TermNames(ctx, q, missing)
	if err != nil {
		return nil, err
	}
	for _, id := range missing {
		t := found[id]
		sn.keep(&sn.terms, id, t, entryCost(64))
		if t != nil {
			out[id] = t
		}
	}
	return out, nil
}

// featuredImages are the images of posts' featured media, looked up
// (through the gateway) only for attachments the snapshot lacks; a failed
// lookup shows the posts without them, and is not kept.
func (sn *siteSnapshot) featuredImages(ctx context.Context, s *Handler, posts []*store.Post) map[int64]*blocks.Image {
	out := map[int64]*blocks.Image{}
	var missing []*store.Post
	for _, p := range posts {
		if p.FeaturedMedia <= 0 {
			continue
		}
		if v, ok := sn.images.Load(p.FeaturedMedia); ok {
			out[p.FeaturedMedia] = v.(*blocks.Image)
			continue
		}
		missing = append(missing, p)
	}
	if len(missing) == 0 {
		return out
	}
	images, ok := s.featuredImages(ctx, missing)
	for _, p := range missing {
		var img *blocks.Image
		if i, found := images[p.FeaturedMedia]; found {
			img = &i
		}
		if ok {
			sn.keep(&sn.images, p.FeaturedMedia, img, entryCost(256))
		}
		out[p.FeaturedMedia] = img
	}
	return out
}

// excerpt is the post's plain excerpt, made once per generation.
func (sn *siteSnapshot) excerpt(p *store.Post) string {
	if v, ok := sn.excerpts.Load(p.ID); ok {
		return v.(string)
	}
	e := plainExcerpt(p, store.DefaultExcerptWords)
	sn.keep(&sn.excerpts, p.ID, e, entryCost(len(e)))
	return e
}

// contentKey keys a post's parsed content in the snapshot: the filtered
// and the unfiltered variant of one post are different entries, so a
// variant made for one author's role is never served for another's.
type contentKey struct {
	id         int64
	unfiltered bool
	// part is the page of a post split with <!--nextpage--> (nextpage.go),
	// 0 for the whole content
	part int
}

// postContent renders a post's content for a page: its blocks parsed and
// compiled once per generation (what is left renders with env), classic
// content's paragraphs made once. unfiltered is whether the post's author
// may post unfiltered HTML; if not, the content is filtered again as it is
// rendered (authorContent).
func (sn *siteSnapshot) postContent(p *store.Post, unfiltered bool, env *blocks.Env) string {
	return sn.renderContent(p, unfiltered, env, true)
}

// renderContent is postContent, kept in the snapshot only when keep (a
// preview's content is not the post's).
func (sn *siteSnapshot) renderContent(p *store.Post, unfiltered bool, env *blocks.Env, keep bool) string {
	return sn.renderKeyed(contentKey{id: p.ID, unfiltered: unfiltered}, p.Content, env, keep)
}

// renderKeyed renders raw, the content (or one page of it) of key's post.
func (sn *siteSnapshot) renderKeyed(key contentKey, raw string, env *blocks.Env, keep bool) string {
	unfiltered := key.unfiltered
	if v, ok := sn.contents.Load(key); ok && keep {
		if classic, ok := v.(string); ok {
			return classic
		}
		return blocks.Render(v.([]blocks.Node), env)
	}
	nodes, classic, isClassic := authorContent(raw, unfiltered)
	if isClassic {
		if keep {
			sn.keep(&sn.contents, key, classic, entryCost(len(classic)))
		}
		return classic
	}
	site := &blocks.Env{SiteTitle: env.SiteTitle, Tagline: env.Tagline, HomeURL: env.HomeURL, Navigation: env.Navigation, Part: env.Part}
	nodes = blocks.Compile(nodes, site)
	// compiled nodes hold about their source's text, twice over at most
	if keep {
		sn.keep(&sn.contents, key, nodes, entryCost(2*len(raw)))
	}
	return blocks.Render(nodes, env)
}

// featuredImages are the images of posts' featured media; a failed lookup
// (ok false) shows the posts without them (an image is not a reason to
// fail a page).
func (s *Handler) featuredImages(ctx context.Context, posts []*store.Post) (images map[int64]blocks.Image, ok bool) {
	var ids []int64
	for _, p := range posts {
		if p.FeaturedMedia > 0 {
			ids = append(ids, p.FeaturedMedia)
		}
	}
	if len(ids) == 0 || s.media == nil {
		return nil, true
	}
	images, err := s.media.Images(ctx, ids)
	if err != nil {
		slog.Default().WarnContext(ctx, "featured images not shown", "error", err.Error())
		return nil, false
	}
	return images, true
}
