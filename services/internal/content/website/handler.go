// Package website is content's public website (docs/website.md): pages
// rendered from the block theme, feeds, sitemaps and robots.txt, and the
// snapshot of what pages read often, kept for one change generation.
//
// It is one of content's two front ends, beside the REST handlers
// (package content); neither imports the other. It reads posts, terms,
// templates and users through content/store and the theme's files through
// content/theme, renders blocks with content/blocks, and learns of writes
// from store.Commits (this replica's own, at once) and the site's change
// channel (every service's, ListenChanges).
package website

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/content/theme"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// Config is what the website reads from.
type Config struct {
	Pool *pgxpool.Pool
	// Site is the site as it starts: the site file's values (SetSite puts
	// the stored settings over them)
	Site  *contract.Site
	Users store.Users
	// Media gives featured images; nil shows none
	Media store.Media
	// Zone is the site's time zone, as the timezone setting has it now
	Zone func() *time.Location
	// Commits is the store's hook: every write's end starts a new
	// generation of the snapshot
	Commits *store.Commits
	// SnapshotBytes overrides maxSnapshotBytes (tests; 0: the default)
	SnapshotBytes int64
	// Changed, when set, also receives every change notification's payload,
	// before the generation moves (the REST handlers reload the settings
	// another replica wrote and SetSite the result).
	Changed func(payload string)
	// ReadReplicas: anonymous pages may read a replica (postgres.Route), so
	// the listener tracks the newest write's WAL position and a snapshot is
	// used only by pages whose replica has replayed it (site_cache.go).
	ReadReplicas bool
}

// Handler serves the public website.
type Handler struct {
	pool    *pgxpool.Pool
	changed func(payload string)
	// site is the effective site: the site file's values with the stored
	// settings over them (title, tagline, front page), swapped by SetSite
	site          atomic.Pointer[contract.Site]
	permalinks    store.Links
	restRoot      string
	users         store.Users
	media         store.Media
	zone          func() *time.Location
	siteUsers     sync.Map     // authors for pages (int64 → cachedUser, site_posts.go)
	siteCSS       atomic.Value // cssCache (site_page.go)
	siteGen       siteGen      // the change generation and its snapshot (site_cache.go)
	snapshotBytes int64
	replicas      bool
	commits       *store.Commits
	now           func() time.Time
	previewKey    atomic.Pointer[[]byte] // the moderation hash's key (comments.go)
	themeSrc      *theme.Theme           // the site's theme (theme.go); nil: built-in
	files         themeFiles             // its templates and parts, parsed once
	rows          *store.RowCache        // listed posts' rows, used again by version (site_page.go)
}

// New returns the website of cfg.Site, subscribed to cfg.Commits.
func New(cfg Config) *Handler {
	links := store.NewLinks(cfg.Site.URL)
	h := &Handler{pool: cfg.Pool, permalinks: links, restRoot: links.RESTRoot,
		users: cfg.Users, media: cfg.Media, zone: cfg.Zone, snapshotBytes: cfg.SnapshotBytes, changed: cfg.Changed,
		replicas: cfg.ReadReplicas, commits: cfg.Commits, rows: store.NewRowCache(listedRowsMax), now: func() time.Time { return time.Now().UTC().Truncate(time.Second) }}
	site := *cfg.Site
	h.site.Store(&site)
	if cfg.Commits != nil {
		cfg.Commits.OnCommit(h.siteGen.bump)
	}
	return h
}

// Site is the site pages show now (read only): every read of the title,
// tagline, front page or URL goes through it, so a settings change shows
// at once.
func (s *Handler) Site() *contract.Site { return s.site.Load() }

// SetSite makes site the one pages show and reports whether it changed. A
// change starts a new generation: a snapshot (its compiled templates hold
// the site title and tagline) loaded before the swap, even one loaded after
// the change notification but before the settings were reloaded, is never
// used again.
func (s *Handler) SetSite(site contract.Site) bool {
	if *s.site.Load() == site {
		return false // the periodic reload: nothing changed, keep the snapshot
	}
	s.site.Store(&site)
	s.siteGen.bump()
	return true
}

// SetMedia replaces the featured images' source (before serving).
func (s *Handler) SetMedia(m store.Media) { s.media = m }

// db is where the website's statements go: it never runs inside a
// request's transaction. An anonymous page reads the replica its request
// holds (postgres.Route), any other the primary.
func (s *Handler) db(ctx context.Context) store.Querier {
	if c := postgres.RouteFrom(ctx).Reader(ctx); c != nil {
		return c
	}
	return s.pool
}

// location is the site's time zone now.
func (s *Handler) location() *time.Location { return s.zone() }

// Online reports whether what is computed now may be kept for the
// current generation: the change listener hears every write (while it
// does not, no snapshot is kept). Asked while the listener does not
// LISTEN for writes, it asks for the LISTEN (siteGen.keeping).
func (s *Handler) Online() bool { return s.siteGen.keeping() }

// Listening reports whether the change listener LISTENs for writes (it
// stops while nothing is kept, postgres.ChangeListener.Kept).
func (s *Handler) Listening() bool { return !s.siteGen.deaf.Load() }

// Generation is the current change generation: it moves on with every
// write heard.
func (s *Handler) Generation() uint64 { return s.siteGen.gen.Load() }

// validText reports whether s is text PostgreSQL can hold and compare:
// valid UTF-8 without NUL (what the REST kit accepts as text, too).
func validText(s string) bool { return strings.IndexByte(s, 0) < 0 && utf8.ValidString(s) }
