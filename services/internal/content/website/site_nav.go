package website

import (
	"context"
	"slices"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
)

// navigationLinks reads a navigation post's links (ref 0: the most
// recently published navigation post, WordPress's fallback); without one, the published top-level pages,
// as the navigation block falls back to a page list. A ref to a menu that
// is gone (deleted in the site editor), not published or empty falls back
// the same way, as WordPress's navigation block does
// (WP_Navigation_Block_Renderer::get_inner_blocks).
func (s *Handler) navigationLinks(ctx context.Context, ref int64) ([]blocks.Link, error) {
	q := s.db(ctx)
	content, found, err := store.NavigationContent(ctx, q, ref)
	if err != nil {
		return nil, err
	}
	if !found {
		if ref > 0 {
			return s.navigationLinks(ctx, 0)
		}
		return s.pageListLinks(ctx)
	}
	nodes := blocks.Parse(content)
	if ref > 0 && !slices.ContainsFunc(nodes, func(n blocks.Node) bool { return n.Block != nil }) {
		return s.navigationLinks(ctx, 0)
	}
	return s.resolveNavLinks(ctx, nodes)
}

// pageListLinks are the published top-level pages, as the page-list block
// lists them (read by version, as the listing pages read theirs).
func (s *Handler) pageListLinks(ctx context.Context) ([]blocks.Link, error) {
	pages, _, err := store.ListPostsCached(ctx, s.db(ctx), &store.ListQuery{Type: store.TypePage, Page: 1, PerPage: 20, Statuses: []string{"publish"},
		Parent: []int64{0}, Order: "asc", OrderBy: "menu_order"}, s.rows)
	if err != nil {
		return nil, err
	}
	var out []blocks.Link
	for _, p := range pages {
		out = append(out, blocks.Link{Label: p.Title, URL: s.permalinks.Post(store.TypePage, p)})
	}
	return out, nil
}

// navEntry is one item of a menu before its links are resolved.
type navEntry struct {
	label, url string
	id         int64
	// pageList: a core/page-list block (the menu WordPress's fallback
	// makes when there is no classic menu), the pages in its place.
	pageList bool
	// children: a submenu's (core/navigation-submenu) own items.
	children []navEntry
}

// navEntries collects the menu items of blocks, a submenu's items under
// it, and the post ids they link to into ids.
func navEntries(nodes []blocks.Node, ids *[]int64) []navEntry {
	var out []navEntry
	for _, n := range nodes {
		b := n.Block
		if b == nil {
			continue
		}
		switch b.Name {
		case "core/page-list":
			out = append(out, navEntry{pageList: true})
		case "core/navigation-link", "core/navigation-submenu":
			it := navEntry{}
			it.label, _ = b.Attrs["label"].(string)
			it.url, _ = b.Attrs["url"].(string)
			if id, ok := b.Attrs["id"].(float64); ok && id > 0 {
				if kind, _ := b.Attrs["kind"].(string); kind == "" || kind == "post-type" {
					it.id = int64(id)
					*ids = append(*ids, it.id)
				}
			}
			if b.Name == "core/navigation-submenu" {
				it.children = navEntries(b.Parts, ids)
			}
			out = append(out, it)
		default:
			out = append(out, navEntries(b.Parts, ids)...)
		}
	}
	return out
}

// resolveNavLinks turns navigation-link and navigation-submenu blocks into
// links: a link to a post or page follows its current permalink (and is
// left out when it is not published), anything else uses its url; a
// submenu keeps its links below it.
func (s *Handler) resolveNavLinks(ctx context.Context, nodes []blocks.Node) ([]blocks.Link, error) {
	var ids []int64
	entries := navEntries(nodes, &ids)
	var posts map[int64]*store.Post
	if len(ids) > 0 {
		var err error
		if posts, err = store.PublishedPosts(ctx, s.db(ctx), ids); err != nil {
			return nil, err
		}
	}
	return s.navLinks(ctx, entries, posts)
}

// navLinks resolves entries with the published posts they link to.
func (s *Handler) navLinks(ctx context.Context, entries []navEntry, posts map[int64]*store.Post) ([]blocks.Link, error) {
	var out []blocks.Link
	for _, it := range entries {
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
		children, err := s.navLinks(ctx, it.children, posts)
		if err != nil {
			return nil, err
		}
		if it.url == "" && len(children) == 0 {
			continue
		}
		if it.label == "" {
			it.label = it.url
		}
		out = append(out, blocks.Link{Label: it.label, URL: it.url, Children: children})
	}
	return out, nil
}
