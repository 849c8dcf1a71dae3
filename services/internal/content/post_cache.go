package content

import (
	"reflect"
	"slices"
	"sync"
	"time"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// Anonymous reads of posts in the view context (lists and single posts)
// are most of the traffic, and most of their CPU went into preparing and
// encoding each post anew: rendering its content and excerpt, building the
// object and escaping it as JSON. Such a post's JSON is a function of its
// row, its type and the site's time zone only: the caller, for whom
// nothing differs between anonymous readers, and no request option shapes
// it (_fields, _pretty, excerpt_length and password fall back to the
// ordinary path). So it is kept, with the row it was made from, and used
// again only while the row read now equals that one field for field: a
// changed post (a new title, a term, a revision) is encoded anew by the
// read that first sees the change, whichever process or transaction made
// it, and no invalidation is needed for correctness.
//
// A row read outside any transaction is compared by its version instead
// (xmin, modified_gmt, the terms' generation and what the JSON takes from
// other rows), which lets a read fetch versions only and the rows it lacks
// (post_versions.go).

// encodedPostsMax bounds the cache: about 3 KB a post (the row and its
// JSON), so at most a few MiB.
const encodedPostsMax = 2048

// encodedPost is one post's JSON with what it was made from.
type encodedPost struct {
	pt  *store.PostType
	loc *time.Location
	row store.Post
	// versioned: row was read outside any transaction, so its version
	// identifies it (a transaction's own, uncommitted writes may leave
	// several versions of a row with the same xmin; only its last one is
	// ever seen by others)
	versioned bool
	termSet   []int64 // row's term ids in ascending order (when versioned)
	json      rest.Encoded
}

// encodedPosts is the cache (Service.encoded).
type encodedPosts struct {
	mu sync.RWMutex
	m  map[int64]*encodedPost
}

// cacheable reports whether v renders a post the same for every request
// that reaches the cache: the view context, an anonymous caller, no
// password given and no excerpt length.
func cacheable(v view) bool {
	return v.context == "view" && !v.who.LoggedIn() && v.password == "" && v.excerptLength == 0 && !v.passwordUnlocked
}

// preparedJSON returns p prepared for v and encoded for c, from the cache
// when p's row is the one it was made from; ok is false when the request
// cannot use the cache (prepare and let the kit encode instead).
func (s *Service) preparedJSON(c *rest.Request, pt *store.PostType, p *store.Post, v view) (rest.Encoded, bool) {
	if !cacheable(v) || c.ShapesItems() {
		return nil, false
	}
	loc := s.location()
	s.encoded.mu.RLock()
	e := s.encoded.m[p.ID]
	s.encoded.mu.RUnlock()
	if e != nil && e.pt == pt && e.loc == loc && e.matches(p) {
		return e.json, true
	}
	b, ok := c.EncodeItem(s.prepare(pt, p, v))
	if !ok {
		return nil, false
	}
	s.encoded.mu.Lock()
	if s.encoded.m == nil {
		s.encoded.m = make(map[int64]*encodedPost)
	}
	if _, ok := s.encoded.m[p.ID]; !ok && len(s.encoded.m) >= encodedPostsMax {
		for id := range s.encoded.m { // an arbitrary one makes room
			delete(s.encoded.m, id)
			break
		}
	}
	e = &encodedPost{pt: pt, loc: loc, row: *p, json: b}
	if !inBatchTx(c.Context()) && p.Xmin != 0 && p.TermGen != 0 {
		e.versioned, e.termSet = true, store.TermSet(p)
	}
	s.encoded.m[p.ID] = e
	s.encoded.mu.Unlock()
	return b, true
}

// matches reports whether p is the row e was made from: by version when
// both were read with one (sameRead), else field for field. A p read
// inside a transaction that wrote it carries that transaction's xmin,
// which no committed version e was made from can carry yet.
func (e *encodedPost) matches(p *store.Post) bool {
	if e.versioned && p.TermGen != 0 {
		return store.SameRead(&e.row, p)
	}
	return samePost(&e.row, p)
}

// isVersion reports whether e was made from version v.
func (e *encodedPost) isVersion(v *store.PostVersion) bool {
	return e.versioned && v.ID == e.row.ID && v.Xmin == e.row.Xmin && v.TermGen == e.row.TermGen &&
		v.ModifiedGMT.Equal(e.row.ModifiedGMT) && v.Revisions == e.row.Revisions &&
		v.LatestRevision == e.row.LatestRevision && v.AncestorPath == e.row.AncestorPath && slices.Equal(v.TermSet, e.termSet)
}

// samePost reports whether two reads of a post are equal in every field
// (reflect.DeepEqual: a field added to Post is compared without a change
// here; the times are scanned the same way each time, so equal instants
// are equal values).
// TermGen, which one read may take and another not, is left out.
func samePost(a, b *store.Post) bool {
	x, y := *a, *b
	x.TermGen, y.TermGen = 0, 0
	return reflect.DeepEqual(&x, &y)
}
