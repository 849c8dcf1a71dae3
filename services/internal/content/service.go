// Package content is the content service: posts, pages, reusable blocks and
// navigation with their revisions and autosaves, comments, templates and
// global styles, and the term collections (categories, tags, menus, pattern
// categories), served as WordPress's REST API under cms/v2, and the public
// website. This package is the REST handlers and the service's wiring.
//
// Packages, from the bottom up (hack/layers.sh prints their imports):
//
//   - content/migrations: the schema's SQL migrations;
//   - content/theme: the block theme's files and its pure rules (template
//     ids, the hierarchy, theme.Resolve: a stored template beats the file);
//   - content/blocks: block markup parsed and rendered to HTML;
//   - content/blocktypes: WordPress's block library as data (block types,
//     core patterns and pattern categories), generated from a WordPress
//     release by blocktypes/gen;
//   - content/store: the domain under both front ends — post types,
//     taxonomies, capability rules (edit_post, delete_post, read_post),
//     permalinks (store.Links), slugs, dates, rendered text, and every SQL
//     statement of content (pgx, no ORM; a page and its total in one
//     round trip through platform/postgres.QueryPage); the seams to other
//     services (store.Users, store.Media) and the commit hook
//     (store.Commits) the website's snapshot subscribes to. No HTTP;
//   - content/website: the public site, feeds, sitemaps and their snapshot,
//     with its own Handler; reads through store and theme only;
//   - content (this package): the REST front end. It never reaches into the
//     website, nor the website into it: both sit on the store.
//
// In this package, one file per concern:
//
//   - routes.go: every route declared once, as rest.Route data; the route
//     kit (platform/rest) validates, filters and encodes;
//   - schema.go, item_schema.go: argument and item schemas as data;
//   - permissions.go: the permission checks, apart from the handlers, so the
//     route kit also derives the Allow header from them;
//   - posts.go, post_write.go, post_create.go, revisions.go, terms.go,
//     comments.go, menu_items.go, templates.go, global_styles.go, themes.go,
//     settings.go, search.go, discovery.go: the handlers on the route kit's
//     validated *rest.Request, each write in one transaction (inTx);
//   - block_types.go, block_type_variations.go, editor_routes.go (block
//     patterns, menu locations), block_renderer.go, navigation_fallback.go:
//     the routes the block editor reads (docs/content-routes.md);
//   - response.go, post_cache.go, post_versions.go: posts as responses, and
//     anonymous readers' encoded posts, checked by version;
//   - batch.go, batch_slugs.go: the gateway's all-or-nothing batch;
//   - schedule.go: publishing scheduled posts when due;
//   - users.go, media.go: the gateway's user and media lookups (store.Users,
//     store.Media over HTTP);
//   - service.go, register.go, command.go: the wiring, the service's start
//     and `content seed-demo`.
package content

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/content/theme"
	"siteplane.dev/services/internal/content/website"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// Service holds the dependencies of the handlers.
type Service struct {
	pool *pgxpool.Pool
	site contract.Site
	// tz is the site's time zone: the timezone setting, else the site
	// file's (settings.go keeps it current)
	tz          atomic.Pointer[time.Location]
	restRoot    string
	permalinks  store.Links
	users       store.Users
	media       store.Media // media.go
	now         func() time.Time
	statics     sync.Map // *PostType → *typeStatic (response.go)
	termSchemas sync.Map // *Taxonomy → *rest.Schema (terms.go)
	// commits announces the end of every write transaction (inTx,
	// insertNewPost) to its subscribers: the website's snapshot
	commits store.Commits
	// web is the public website, the other front end over the same store
	web *website.Handler
	// encoded keeps anonymous readers' post JSON (post_cache.go)
	encoded encodedPosts
	// theme is the site's theme (theme_select.go); nil: the built-in one
	theme *theme.Theme
	// encodedTerms: anonymous term JSON (term_cache.go)
	encodedTerms encodedTerms
	// embedAnswers: anonymous _embed lookups' answers (embed_answers.go)
	embedAnswers embedAnswers
}

// New returns a Service over pool for site; users validates author ids.
func New(pool *pgxpool.Pool, site contract.Site, users store.Users) *Service {
	return NewWithReplicas(pool, site, users, false)
}

// NewWithReplicas is New for a service whose anonymous reads may go to a
// read pool (readReplicas: service.Env.ReadPool is set).
func NewWithReplicas(pool *pgxpool.Pool, site contract.Site, users store.Users, readReplicas bool) *Service {
	links := store.NewLinks(site.URL)
	s := &Service{pool: pool, site: site, restRoot: links.RESTRoot, permalinks: links,
		users: users, now: func() time.Time { return time.Now().UTC().Truncate(time.Second) }}
	s.tz.Store(site.Location())
	s.web = website.New(website.Config{Pool: pool, Site: &s.site, Users: users, Zone: s.location, Commits: &s.commits,
		Changed: s.heard, ReadReplicas: readReplicas})
	return s
}

// txKey marks a context that runs inside a batch transaction.
type txKey struct{}

// withTx returns ctx carrying tx: every statement of a request served with
// it goes through tx (the all-or-nothing batch, batch.go).
func withTx(ctx context.Context, tx pgx.Tx) context.Context {
	return context.WithValue(ctx, txKey{}, tx)
}

// db is where a request's statements go: the batch transaction, the read
// pool's connection of an anonymous read (postgres.Route), or the pool.
func (s *Service) db(ctx context.Context) store.Querier {
	if tx, ok := ctx.Value(txKey{}).(pgx.Tx); ok {
		return tx
	}
	// an anonymous read goes to the replica its request holds
	if c := postgres.RouteFrom(ctx).Reader(ctx); c != nil {
		return c
	}
	return s.pool
}

// answerInTx runs write in one transaction, as inTx does, and answers 200
// with what write left in *body: the frame the write handlers whose answer
// is made inside the transaction share.
func (s *Service) answerInTx(c *rest.Request, body *any, write func(tx pgx.Tx) error) (*rest.Response, error) {
	if err := s.inTx(c.Context(), write); err != nil {
		return nil, err
	}
	return rest.OK(*body), nil
}

// inTx runs f in one transaction: a write commits wholly or not at all.
// Inside a batch transaction it is a savepoint of that transaction.
// Every such write announces itself on the site's change channel, in the
// same transaction (delivered only on commit), so the gateways' edge caches
// drop what they cached before it.
func (s *Service) inTx(ctx context.Context, f func(tx pgx.Tx) error) error {
	write := func(tx pgx.Tx) error {
		if err := f(tx); err != nil {
			return err
		}
		return postgres.NotifyChanged(ctx, tx, contract.ServiceContent)
	}
	// the request's later reads must see this write: on the primary
	postgres.RouteFrom(ctx).Wrote()
	// the website's snapshot follows this replica's own writes at once,
	// not only when the notification comes back (store.Commits)
	defer s.commits.Committed()
	if tx, ok := ctx.Value(txKey{}).(pgx.Tx); ok {
		return pgx.BeginFunc(ctx, tx, write)
	}
	return postgres.BeginFunc(ctx, s.pool, write)
}

// SiteHandler serves the public website (content/website).
func (s *Service) SiteHandler(logger *slog.Logger) http.Handler { return s.web.SiteHandler(logger) }

// ListenChanges keeps the website's snapshot current with every service's
// writes until ctx ends (website.Handler.ListenChanges).
func (s *Service) ListenChanges(ctx context.Context, logger *slog.Logger) {
	s.web.ListenChanges(ctx, logger)
}
