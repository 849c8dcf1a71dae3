package store

import (
	"context"
	"strings"
)

// bareColumns are PostColumns without what only a post's own answer shows:
// its content and excerpt (read as ""), its terms (none) and its revisions
// (0). The permission checks (CanRead, CanEdit) and the permalink (Links.Post)
// read none of those.
var bareColumns = strings.NewReplacer(
	"p.content,", "''::text,",
	"p.excerpt,", "''::text,",
	"tr.ids, tr.taxes, tr.slugs, rv.n, rv.latest,", "'{}'::bigint[], '{}'::text[], '{}'::text[], 0, 0::bigint,",
).Replace(PostColumns)

// GetPostsBare reads the posts of ids as GetPosts does, but bare: their rows
// and ancestor paths, without content, excerpt, terms or revisions
// (bareColumns). For callers that only check permissions and build
// permalinks: the terms lateral, sorting each post's terms three times, was
// most of GetPosts' cost on a page of 100 posts (docs/performance.md,
// _embed).
func GetPostsBare(ctx context.Context, q Querier, ids []int64) (map[int64]*Post, error) {
	return getPostsBy(ctx, q, "SELECT "+bareColumns+" FROM posts p"+AncestorsLateral+" WHERE p.id = ANY($1)", ids)
}
