package store

import (
	"context"
	"errors"
	"slices"
	"sync"
)

// RowCache keeps whole post rows read outside any transaction, each used
// again only while a version read (PostVersion) says the row is unchanged:
// what the REST lists do with their encoded posts (the content package's
// post_versions.go), for readers that want the rows themselves (the
// website's listing pages). A listing then reads its page's versions (the
// ids from the index in the listing's order, the maintained total, no
// content and no term join) and fetches only the rows it lacks; at 100,000
// posts the full read of ten rows with their terms cost PostgreSQL about
// four times the version read (docs/website.md, speed).
//
// The version identifies the row exactly for the reasons post_versions.go
// gives (xmin and modified_gmt, the term ids and the terms' generation, the
// revisions, the ancestor path), so no invalidation is needed.
type RowCache struct {
	mu  sync.RWMutex
	m   map[int64]*cachedRow
	max int
}

// cachedRow is one post's row as read, with its type and sorted term ids.
type cachedRow struct {
	pt      *PostType
	row     Post
	termSet []int64
}

// NewRowCache returns a cache of at most n rows (about 1.5 KB each).
func NewRowCache(n int) *RowCache {
	return &RowCache{m: make(map[int64]*cachedRow), max: n}
}

// get returns a copy of the row cached for v's post when it is version v
// (and of type pt); nil otherwise.
func (c *RowCache) get(pt *PostType, v *PostVersion) *Post {
	c.mu.RLock()
	e := c.m[v.ID]
	c.mu.RUnlock()
	if e == nil || e.pt != pt || !e.isVersion(v) {
		return nil
	}
	p := e.row // a copy: callers get their own Post (its slices are only read)
	return &p
}

func (e *cachedRow) isVersion(v *PostVersion) bool {
	return v.ID == e.row.ID && v.Xmin == e.row.Xmin && v.Xmin != 0 && v.TermGen == e.row.TermGen && v.TermGen != 0 &&
		v.ModifiedGMT.Equal(e.row.ModifiedGMT) && v.Revisions == e.row.Revisions &&
		v.LatestRevision == e.row.LatestRevision && v.AncestorPath == e.row.AncestorPath && slices.Equal(v.TermSet, e.termSet)
}

// put keeps p (read whole with the terms' generation, outside any
// transaction) for pt.
func (c *RowCache) put(pt *PostType, p *Post) {
	if p.Xmin == 0 || p.TermGen == 0 {
		return
	}
	e := &cachedRow{pt: pt, row: *p, termSet: TermSet(p)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[p.ID]; !ok && len(c.m) >= c.max {
		for id := range c.m { // an arbitrary one makes room
			delete(c.m, id)
			break
		}
	}
	c.m[p.ID] = e
}

// ListPostsCached is ListPosts through c: ListByVersion with c's rows, and
// the rows it had to read kept in c. A post that changed between the two
// statements makes it read the page whole (ListPosts), so the answer is
// always the page of one snapshot. q must not be a transaction (the rows
// are kept).
func ListPostsCached(ctx context.Context, q Querier, lq *ListQuery, c *RowCache) ([]*Post, int, error) {
	var read []*Post
	posts, total, err := ListByVersion(ctx, q, lq, func(v *PostVersion) *Post { return c.get(lq.Type, v) },
		func(p *Post) { read = append(read, p) })
	if errors.Is(err, ErrVersionMoved) {
		return ListPosts(ctx, q, lq)
	}
	if err != nil {
		return nil, 0, err
	}
	for _, p := range read {
		c.put(lq.Type, p)
	}
	return posts, total, nil
}

// ListByVersion is ListPosts for a reader that keeps rows: the page's
// versions (the same statement as ListSQL's, with versionColumns), the
// rows cached gives for them (nil: not kept) and, in a second statement,
// the rows it lacks, each passed to fetched. ErrVersionMoved: a post
// changed between the two statements.
func ListByVersion(ctx context.Context, q Querier, lq *ListQuery, cached func(*PostVersion) *Post,
	fetched func(*Post)) ([]*Post, int, error) {
	versions, inPage, total, err := ListVersions(ctx, q, lq)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*Post, len(versions))
	var missing []int64
	at := make(map[int64]int)
	for i, v := range versions {
		if p := cached(v); p != nil {
			out[i] = p
			continue
		}
		missing = append(missing, v.ID)
		at[v.ID] = i
	}
	if len(missing) > 0 {
		if err := FetchVersions(ctx, q, lq.Type, missing, versions, at, out); err != nil {
			return nil, 0, err
		}
		for _, id := range missing {
			fetched(out[at[id]])
		}
	}
	return FinishList(lq, out, inPage), total, nil
}
