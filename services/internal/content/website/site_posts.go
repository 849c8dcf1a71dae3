package website

import (
	"context"
	"html"
	"strings"
	"time"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/kses"
)

// Posts as the blocks show them (postConverter): author names (cached a
// short while), rendered content and excerpts, the password form.

// siteUserTTL is how long pages reuse an author's name and slug from the
// gateway's lookup: a renamed author shows on pages within this time.
const siteUserTTL = 30 * time.Second

type cachedUser struct {
	u     store.User
	until time.Time
}

// postConverter turns posts into what the blocks show, reading author
// names and term names once per page.
type postConverter struct {
	s     *Handler
	req   *siteReq
	sn    *siteSnapshot
	users map[int64]store.User
}

func (c *postConverter) user(ctx context.Context, id int64) (store.User, error) {
	if u, ok := c.users[id]; ok {
		return u, nil
	}
	if e, ok := c.s.siteUsers.Load(id); ok && time.Now().Before(e.(cachedUser).until) {
		c.users[id] = e.(cachedUser).u
		return e.(cachedUser).u, nil
	}
	var u store.User
	found, ok, err := c.s.users.User(ctx, id)
	if err != nil {
		return u, err
	}
	if ok {
		u = found
	}
	c.users[id] = u
	c.s.siteUsers.Store(id, cachedUser{u: u, until: time.Now().Add(siteUserTTL)})
	return u, nil
}

func (c *postConverter) convert(ctx context.Context, pt *store.PostType, posts []*store.Post, full bool, env *blocks.Env) ([]*blocks.Post, error) {
	s := c.s
	var ids []int64
	for _, p := range posts {
		ids = append(ids, p.TermIDs...)
	}
	terms, err := c.sn.termNames(ctx, s.db(ctx), ids)
	if err != nil {
		return nil, err
	}
	images := c.sn.featuredImages(ctx, s, posts)
	out := make([]*blocks.Post, 0, len(posts))
	for _, p := range posts {
		local := p.DateGMT.In(s.location())
		ppt := pt
		if p.Type == store.TypePage.Name { // a search lists pages among the posts
			ppt = store.TypePage
		}
		bp := &blocks.Post{ID: p.ID, Type: p.Type, Title: p.Title, URL: s.permalinks.Post(ppt, p), DateISO: local.Format(time.RFC3339),
			DateText: local.Format("January 2, 2006"), Terms: map[string][]blocks.Link{}}
		if img := images[p.FeaturedMedia]; img != nil && p.FeaturedMedia > 0 {
			bp.Image = img
		}
		if p.Password != "" {
			bp.Title = "Protected: " + p.Title
		}
		if p.Status == "private" {
			bp.Title = "Private: " + p.Title
		}
		u, err := c.user(ctx, p.Author)
		if err != nil {
			return nil, err
		}
		bp.Author.Label = u.Name
		if u.Slug != "" {
			bp.Author.URL = s.Site().URL + "/author/" + u.Slug + "/"
		}
		for _, id := range p.TermIDs {
			if t, ok := terms[id]; ok {
				tax := store.Category
				if t.Taxonomy == store.Tag.Name {
					tax = store.Tag
				} else if t.Taxonomy != store.Category.Name {
					continue
				}
				bp.Terms[t.Taxonomy] = append(bp.Terms[t.Taxonomy], blocks.Link{Label: t.Name, URL: s.permalinks.Term(tax, t)})
			}
		}
		open := unlocked(c.req, pt, p)
		// a previewed post's autosaved text is the caller's alone: it
		// is rendered afresh, never kept in the shared snapshot
		fresh := c.req.preview == p.ID
		switch {
		case !open:
			bp.Excerpt = "There is no excerpt because this is a protected post."
		case fresh:
			bp.Excerpt = plainExcerpt(p, store.DefaultExcerptWords)
		default:
			bp.Excerpt = c.sn.excerpt(p)
		}
		if full {
			if open {
				sub := *env
				sub.Post = nil
				sub.Query = nil
				bp.ContentHTML = c.pagedContent(pt, p, mayPostUnfiltered(u), &sub, !fresh)
			} else {
				bp.ContentHTML = s.passwordForm(p, bp.URL)
			}
			if pt == store.TypePost && p.Status == "publish" {
				prev, next, ok := c.req.neighbours(s, p.ID)
				if !ok {
					var err error
					if prev, next, err = c.sn.adjacent(ctx, s, p); err != nil {
						return nil, err
					}
				}
				bp.Prev, bp.Next = prev, next
			}
		}
		out = append(out, bp)
	}
	return out, nil
}

// mayPostUnfiltered reports whether u's role may post unfiltered HTML
// (kses.Capability); a user without a known role may not.
func mayPostUnfiltered(u store.User) bool {
	return identity.Role(u.Role).Can(kses.Capability)
}

// authorContent parses a post's stored content for rendering: classic
// content (no blocks) as its paragraphs' HTML, block content as nodes.
// Unless its author may post unfiltered HTML, the HTML is filtered by
// kses's post allowlist again here: stored content is filtered when it is
// rendered as well as when it is written, so content stored before a fix
// (or written around the REST API) is as safe as new content.
func authorContent(raw string, unfiltered bool) (nodes []blocks.Node, classic string, isClassic bool) {
	if !store.HasBlocks(raw) {
		if !unfiltered {
			raw = kses.Filter(raw, kses.Post)
		}
		return nil, store.Autop(raw), true
	}
	nodes = blocks.Parse(raw)
	if !unfiltered {
		nodes = blocks.Sanitize(nodes)
	}
	return nodes, "", false
}

// renderPostContent renders a post's content (the feeds): its blocks on
// the server, or, for classic content, paragraphs from its line breaks;
// filtered unless its author may post unfiltered HTML.
func (s *Handler) renderPostContent(raw string, unfiltered bool, env *blocks.Env) string {
	nodes, classic, isClassic := authorContent(raw, unfiltered)
	if isClassic {
		return classic
	}
	return blocks.Render(nodes, env)
}

// plainExcerpt is the post's excerpt as text (meta description, excerpt
// block).
func plainExcerpt(p *store.Post, words int) string {
	var h string
	if strings.TrimSpace(p.Excerpt) != "" {
		h = p.Excerpt
	} else {
		h = store.GenerateExcerpt(p.Content, words)
	}
	return strings.TrimSpace(html.UnescapeString(store.StripTags(h, " ")))
}
