package website

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/content/theme"
	"siteplane.dev/services/internal/platform/postgres"
)

// What a page render reads that changes only with a committed write — the
// templates and parts (parsed), the global styles (as CSS), the navigation
// menus, featured images, term names, a post's neighbours — is kept in a
// siteSnapshot for one change generation, as the gateway's edge cache keeps
// whole answers (docs/edge-cache.md). Every committed write of any service
// is announced on the site's change channel (postgres.NotifyChanged); the
// content service LISTENs on it and starts a new generation on each
// notification, and at once after its own writes end (store.Commits).
// While the listener is not connected a write could go unheard, so every
// render then reads afresh (no snapshot is kept), as the edge cache goes
// offline.

// siteGen is the change generation the website's snapshot belongs to.
type siteGen struct {
	gen    atomic.Uint64
	online atomic.Bool
	snap   atomic.Pointer[siteSnapshot]
	mu     sync.Mutex // one snapshot load at a time
	// pos is the WAL position of the newest write heard (with a read pool
	// only): a page read from a replica that has not replayed it neither
	// uses nor keeps the snapshot.
	pos postgres.Position
	// ask is the listener's AskPosition (with a read pool): the position
	// is asked when a page needs it, not per notification
	ask atomic.Pointer[func()]
	// deaf is set while the listener does not LISTEN for writes (nothing
	// was kept for a few writes in a row, postgres.ChangeListener.Kept):
	// nothing is kept, and the first page that would keep asks for the
	// LISTEN again (wake, the listener's Wake). kept says something was
	// (or could have been) kept since the listener last asked.
	deaf atomic.Bool
	kept atomic.Bool
	wake atomic.Pointer[func()]
}

// keeping reports whether what is computed now may be kept for the
// current generation (the listener online and listening for writes), and
// records that it is; while the listener does not listen for writes it
// asks it to. The generation is to be read after.
func (g *siteGen) keeping() bool {
	if !g.online.Load() {
		return false
	}
	if g.deaf.Load() {
		if wake := g.wake.Load(); wake != nil {
			(*wake)()
		}
		return false
	}
	if !g.kept.Load() { // a store only when it changes: one per write heard
		g.kept.Store(true)
	}
	return true
}

// keptSince is the listener's Kept: whether anything was kept since it
// last asked.
func (g *siteGen) keptSince() bool { return g.kept.Swap(false) }

// setListening records whether the listener LISTENs for writes; either
// way a new generation starts (going deaf: a write may go unheard; back:
// writes were missed meanwhile).
func (g *siteGen) setListening(on bool) {
	g.deaf.Store(!on)
	if on {
		g.kept.Store(true) // asked for: kept for a few writes at least
	}
	g.bump()
}

// position is pos, asking the listener for it when a write was heard
// whose position it has not asked yet.
func (g *siteGen) position() postgres.LSN {
	at := g.pos.Get()
	if at == postgres.UnknownLSN {
		if ask := g.ask.Load(); ask != nil {
			(*ask)()
		}
	}
	return at
}

// bump starts a new generation: the current snapshot is no longer used.
func (g *siteGen) bump() { g.gen.Add(1) }

// setOnline records whether the listener hears every write; a change
// either way starts a new generation (writes made while offline were not
// heard).
func (g *siteGen) setOnline(on bool) {
	g.online.Store(on)
	g.deaf.Store(false) // a session starts listening for writes
	g.bump()
}

// siteSnapshot is one generation's view of the theme and of what pages
// look up often. Its lazily filled maps may hold entries read a moment
// after the generation ended; the snapshot is then no longer current, so
// no page reads them.
type siteSnapshot struct {
	gen       uint64
	templates map[string][]blocks.Node // stored templates (slug → parsed)
	parts     map[string][]blocks.Node // stored parts
	css       string                   // the global styles stylesheet

	compiled  sync.Map // "template:"+slug, "part:"+slug → []blocks.Node (blocks.Compile)
	excerpts  sync.Map // int64 post id → string
	contents  sync.Map // contentKey (post id, author unfiltered) → []blocks.Node (compiled) or string (classic content's HTML)
	sizes     sync.Map // template slug → *atomic.Int64, the last body's size and an eighth (a render's size hint)
	nav       sync.Map // int64 ref → []blocks.Link
	images    sync.Map // int64 attachment id → *blocks.Image (nil: none)
	terms     sync.Map // int64 term id → *Term (nil: none)
	neighbour sync.Map // int64 post id → [2]*blocks.Link (previous, next)
	singular  sync.Map // singularKey → [2]*store.Post (page, post; site.go's singularRows); read only
	listings  sync.Map // listingKey → listed (site_listing.go); read only
	termSlugs sync.Map // taxonomy+":"+slug → *store.Term (nil: none; site_listing.go); read only
	comments  sync.Map // int64 post id → []*store.SiteComment (approved, content rendered; comments.go)
	disc      atomic.Pointer[store.Discussion]
	icon      atomic.Pointer[string] // the site icon's links (site_icon.go)
	iconID    int64                  // the site_icon setting, 0 for none
	// attachmentPages is the wp_attachment_pages_enabled setting
	attachmentPages bool
	// commentPages are anonymous readers' comment pages (commentPageKey →
	// *blocks.Comments, arranged; comments.go)
	commentPages sync.Map

	// held is the estimated size of the per-post entries (excerpts,
	// contents, neighbours, images, terms, singular rows, listings); past limit no more are kept, so
	// a crawl through every post of a large site between two writes cannot
	// grow the snapshot without bound. The other maps are bounded by the
	// theme (templates, parts, menus).
	held  atomic.Int64
	limit int64
}

// maxSnapshotBytes bounds a snapshot's per-post entries (siteSnapshot.held):
// about 4,000 typical posts' compiled content.
const maxSnapshotBytes = 8 << 20

// keep stores value under key in m when the snapshot's budget has room for
// cost more bytes; past the budget the value is only used by the caller
// (computed again next time), which is correct, just slower.
func (sn *siteSnapshot) keep(m *sync.Map, key, value any, cost int) {
	if sn.held.Add(int64(cost)) > sn.limit {
		sn.held.Add(-int64(cost))
		return
	}
	m.Store(key, value)
}

// entryCost is the estimated size of an entry holding n bytes of text: the
// text and the map's and value's overhead.
func entryCost(n int) int { return n + 128 }

// snapshot returns the current generation's snapshot, loading it when
// there is none; offline, a fresh one that is not kept.
func (s *Handler) snapshot(ctx context.Context) (*siteSnapshot, error) {
	g := &s.siteGen
	if !g.keeping() {
		return s.loadSnapshot(ctx, 0)
	}
	gen := g.gen.Load()
	// the position is read after the generation: it is the newest
	// write's of that generation or later
	if !postgres.RouteFrom(ctx).Reached(ctx, g.position()) {
		return s.loadSnapshot(ctx, 0) // a replica behind: read afresh, keep nothing
	}
	if sn := g.snap.Load(); sn != nil && sn.gen == gen {
		return sn, nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	gen = g.gen.Load()
	if sn := g.snap.Load(); sn != nil && sn.gen == gen {
		return sn, nil // loaded while we waited
	}
	sn, err := s.loadSnapshot(ctx, gen)
	if err != nil {
		return nil, err
	}
	// kept only if no write was heard while it loaded: one committed
	// before the load is in it, one after bumps past it
	if g.online.Load() && !g.deaf.Load() && g.gen.Load() == gen {
		g.snap.Store(sn)
	}
	return sn, nil
}

// loadSnapshot reads the theme's stored templates, parts and user global
// styles (one statement) and prepares them.
func (s *Handler) loadSnapshot(ctx context.Context, gen uint64) (*siteSnapshot, error) {
	th, _, _, err := s.theme()
	if err != nil {
		return nil, err
	}
	rows, err := store.LoadThemeRows(ctx, s.db(ctx), th.Stylesheet)
	if err != nil {
		return nil, err
	}
	sn := &siteSnapshot{gen: gen, templates: map[string][]blocks.Node{}, parts: map[string][]blocks.Node{}, limit: s.snapshotLimit()}
	for slug, c := range rows.Templates {
		sn.templates[slug] = parseThemed(th, c)
	}
	for slug, c := range rows.Parts {
		sn.parts[slug] = parseThemed(th, c)
	}
	sn.css = s.globalCSS(th, rows.Styles)
	sn.iconID = settingID(rows.SiteIcon)
	sn.attachmentPages = attachmentPagesOn(rows.AttachmentPages)
	return sn, nil
}

// snapshotLimit is maxSnapshotBytes unless a test set its own.
func (s *Handler) snapshotLimit() int64 {
	if s.snapshotBytes > 0 {
		return s.snapshotBytes
	}
	return maxSnapshotBytes
}

// ListenChanges keeps the website's generation current until ctx ends:
// one pooled connection, taken out of the pool, LISTENs on the site's
// change and control channels. Every payload (a write, a settings change,
// an edge cache purge) may change what pages show, so each starts a new
// generation.
func (s *Handler) ListenChanges(ctx context.Context, logger *slog.Logger) {
	l := &postgres.ChangeListener{
		Connect: func(ctx context.Context) (*pgx.Conn, error) {
			pc, err := s.pool.Acquire(ctx)
			if err != nil {
				return nil, fmt.Errorf("acquire listener connection: %w", err)
			}
			return pc.Hijack(), nil // a LISTEN belongs to its session: not back to the pool
		},
		Online: func(on bool) {
			s.siteGen.pos.Heard()
			s.siteGen.setOnline(on)
		},
		Changed: func(string) {
			s.siteGen.pos.Heard()
			s.siteGen.bump()
		},
		// a settings change is announced on the control channel before
		// the change channel (postgres.NotifyControl): the new site is
		// swapped in before the generation moves, so no page of the new
		// generation shows the old title
		Control: func(payload string) {
			if s.changed != nil {
				s.changed(payload)
			}
			s.siteGen.bump()
		},
		// not woken by every write while nothing is kept (issue 34)
		Kept: s.siteGen.keptSince,
		Listening: func(on bool) {
			s.siteGen.pos.Heard() // writes made while deaf: position unknown
			s.siteGen.setListening(on)
		},
		Logger: logger, Name: "website snapshot",
	}
	wake := l.Wake
	s.siteGen.wake.Store(&wake)
	if s.replicas {
		l.Position = s.siteGen.pos.Set
		ask := l.AskPosition
		s.siteGen.ask.Store(&ask)
	}
	l.Run(ctx)
}

// compiledNodes returns the template or part (kind "template", "part") of
// slug — the stored one, else the theme's — pre-rendered for this
// generation with blocks.Compile; ok false when there is none.
func (sn *siteSnapshot) compiledNodes(ctx context.Context, s *Handler, kind, slug string) ([]blocks.Node, bool, error) {
	key := kind + ":" + slug
	if v, ok := sn.compiled.Load(key); ok {
		n := v.([]blocks.Node)
		return n, n != nil, nil
	}
	_, files, fileParts, err := s.theme()
	if err != nil {
		return nil, false, err
	}
	stored, themed := sn.templates, files
	if kind == "part" {
		stored, themed = sn.parts, fileParts
	}
	nodes, ok := theme.Resolve(slug, theme.In(stored), theme.In(themed))
	if !ok {
		sn.compiled.Store(key, []blocks.Node(nil))
		return nil, false, nil
	}
	env, navErr := s.siteWideEnv(ctx, sn)
	env.Part = func(slug string) ([]blocks.Node, bool) {
		return theme.Resolve(slug, theme.In(sn.parts), theme.In(fileParts))
	}
	compiled := blocks.Compile(nodes, env)
	if *navErr != nil {
		return nil, false, *navErr
	}
	if compiled == nil {
		compiled = []blocks.Node{}
	}
	sn.compiled.Store(key, compiled)
	return compiled, true, nil
}

// siteWideEnv is the Env of what every page shares: the site's title,
// tagline and URL, and its navigation menus (read once per generation;
// the error of the first failed read is put in *navErr).
func (s *Handler) siteWideEnv(ctx context.Context, sn *siteSnapshot) (*blocks.Env, *error) {
	navErr := new(error)
	env := &blocks.Env{SiteTitle: s.Site().Title, Tagline: s.Site().Description, HomeURL: s.Site().URL}
	env.Navigation = func(ref int64) []blocks.Link {
		if l, ok := sn.nav.Load(ref); ok {
			return l.([]blocks.Link)
		}
		l, err := s.navigationLinks(ctx, ref)
		if err != nil {
			if *navErr == nil {
				*navErr = err
			}
			return nil
		}
		sn.nav.Store(ref, l)
		return l
	}
	return env, navErr
}
