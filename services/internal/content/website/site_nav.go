package website

import (
	"context"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
)

// navigationLinks reads a navigation post's links (ref 0: the most
// recently published navigation post, WordPress's fallback); without one, the published top-level pages,
// as the navigation block falls back to a page list.
func (s *Handler) navigationLinks(ctx context.Context, ref int64) ([]blocks.Link, error) {
	q := s.db(ctx)
	content, found, err := store.NavigationContent(ctx, q, ref)
	if err != nil {
		return nil, err
	}
	if !found {
		if ref > 0 {
			return nil, nil
		}
		return s.pageListLinks(ctx)
	}
	return s.resolveNavLinks(ctx, blocks.Parse(content))
}

// pageListLinks are the published top-level pages, as the page-list block
// lists them.
func (s *Handler) pageListLinks(ctx context.Context) ([]blocks.Link, error) {
	pages, _, err := store.ListPosts(ctx, s.db(ctx), &store.ListQuery{Type: store.TypePage, Page: 1, PerPage: 20, Statuses: []string{"publish"},
		Parent: []int64{0}, Order: "asc", OrderBy: "menu_order"})
	if err != nil {
		return nil, err
	}
	var out []blocks.Link
	for _, p := range pages {
		out = append(out, blocks.Link{Label: p.Title, URL: s.permalinks.Post(store.TypePage, p)})
	}
	return out, nil
}

// resolveNavLinks turns navigation-link blocks into links: a link to a post
// or page follows its current permalink (and is left out when it is not
// published), anything else uses its url.
func (s *Handler) resolveNavLinks(ctx context.Context, nodes []blocks.Node) ([]blocks.Link, error) {
	type item struct {
		label, url string
		id         int64
		// pageList: a core/page-list block (the menu WordPress's fallback
		// makes when there is no classic menu), the pages in its place.
		pageList bool
	}
	var items []item
	var ids []int64
	var walk func([]blocks.Node)
	walk = func(nodes []blocks.Node) {
		for _, n := range nodes {
			b := n.Block
			if b == nil {
				continue
			}
			if b.Name == "core/page-list" {
				items = append(items, item{pageList: true})
			}
			if b.Name == "core/navigation-link" || b.Name == "core/navigation-submenu" {
				it := item{}
				it.label, _ = b.Attrs["label"].(string)
				it.url, _ = b.Attrs["url"].(string)
				if id, ok := b.Attrs["id"].(float64); ok && id > 0 {
					if kind, _ := b.Attrs["kind"].(string); kind == "" || kind == "post-type" {
						it.id = int64(id)
						ids = append(ids, it.id)
					}
				}
				items = append(items, it)
			}
			walk(b.Parts)
		}
	}
	walk(nodes)
	var posts map[int64]*store.Post
	if len(ids) > 0 {
		var err error
		if posts, err = store.PublishedPosts(ctx, s.db(ctx), ids); err != nil {
			return nil, err
		}
	}
	var out []blocks.Link
	for _, it := range items {
		if it.pageList {
			pages, err := s.pageListLinks(ctx)
			if err != nil {
				return nil, err
			}
			out = append(out, pages...)
			continue
		}
		if it.id > 0 {
			p, ok := posts[it.id]
			if !ok {
				continue
			}
			pt := store.TypeByName(p.Type)
			if pt == nil {
				continue
			}
			it.url = s.permalinks.Post(pt, p)
			if it.label == "" {
				it.label = p.Title
			}
		}
		if it.url == "" {
			continue
		}
		if it.label == "" {
			it.label = it.url
		}
		out = append(out, blocks.Link{Label: it.label, URL: it.url})
	}
	return out, nil
}
