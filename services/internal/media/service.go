package media

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/media/blobstore"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// Service holds the handlers' dependencies.
type Service struct {
	pool      *pgxpool.Pool
	blobs     blobstore.Store
	img       *Processor
	site      contract.Site
	loc       *time.Location
	uploads   string // public base URL of the files, with a trailing slash
	maxUpload int64
	spoolDir  string
	content   *contentClient // nil: attachments follow no parent (parents.go)
	logger    *slog.Logger
	now       func() time.Time
}

// Config are the service's settings beyond the shared ones.
type Config struct {
	// MaxUploadBytes limits one uploaded file.
	MaxUploadBytes int64
	// MaxPixels refuses images with more pixels, before decoding them.
	MaxPixels int64
	// Decoders is how many images are decoded at once (0: GOMAXPROCS).
	Decoders int
	// DecodeBytes bounds the decoded pixels held at once (0: DefaultDecodeBytes).
	DecodeBytes int64
	// SpoolDir holds raw upload bodies while they are processed, as unlinked
	// temporary files ("": os.TempDir()).
	SpoolDir string
	// ContentURL is the content service's API base URL, where parent posts
	// are looked up as the caller with identities signed by Keys ("": no
	// lookups, see parents.go).
	ContentURL string
	Keys       identity.Keys
}

// New returns a Service storing metadata in pool and files in blobs.
func New(pool *pgxpool.Pool, blobs blobstore.Store, site contract.Site, cfg Config, logger *slog.Logger) *Service {
	if logger == nil {
		logger = slog.Default()
	}
	s := &Service{pool: pool, blobs: blobs, img: NewProcessor(cfg.Decoders, cfg.DecodeBytes, cfg.MaxPixels), site: site,
		loc: site.Location(), uploads: strings.TrimRight(site.URL, "/") + UploadsPath, maxUpload: cfg.MaxUploadBytes,
		spoolDir: cfg.SpoolDir, logger: logger, now: func() time.Time { return time.Now().UTC().Truncate(time.Second) }}
	if cfg.ContentURL != "" && cfg.Keys != nil {
		s.content = &contentClient{base: strings.TrimRight(cfg.ContentURL, "/"), keys: cfg.Keys, client: &http.Client{Timeout: 5 * time.Second}}
	}
	return s
}

// UploadsPath is the public URL path of uploaded files.
const UploadsPath = "/cms-content/uploads/"

const routePrefix = "/cms/v2/media"

// txKey marks a context that runs inside an enclosing transaction (an
// idempotent request's, txhooks.go).
type txKey struct{}

// inTx runs f in one transaction, or in a savepoint of the enclosing one. Every
// such write announces itself on the site's change channel in the same
// transaction (delivered only on commit), so the gateways' edge caches drop
// what they cached before it, served upload files included.
func (s *Service) inTx(ctx context.Context, f func(tx pgx.Tx) error) error {
	write := func(tx pgx.Tx) error {
		if err := f(tx); err != nil {
			return err
		}
		return postgres.NotifyChanged(ctx, tx, contract.ServiceMedia)
	}
	// the request's later reads must see this write: on the primary
	postgres.RouteFrom(ctx).Wrote()
	if tx, ok := ctx.Value(txKey{}).(pgx.Tx); ok {
		return pgx.BeginFunc(ctx, tx, write)
	}
	return postgres.BeginFunc(ctx, s.pool, write)
}

// load reads an attachment through the enclosing transaction when there is one.
func (s *Service) load(ctx context.Context, id int64) (*Attachment, error) {
	tx, _ := ctx.Value(txKey{}).(pgx.Tx)
	return getAttachment(ctx, tx, s.reader(ctx), id)
}

// reader returns where a read outside a transaction goes: the read pool's
// connection an anonymous read holds (postgres.Route), else the primary.
func (s *Service) reader(ctx context.Context) postgres.Rows {
	if c := postgres.RouteFrom(ctx).Reader(ctx); c != nil {
		return c
	}
	return s.pool
}

func caller(r *rest.Request) identity.Identity { return identity.FromContext(r.Context()) }

var (
	errInvalidID = func() *rest.Error {
		return rest.NewError("rest_post_invalid_id", "Invalid post ID.", http.StatusNotFound)
	}
	errDB = func() *rest.Error {
		return rest.NewError("rest_db_error", "The media database could not be reached.", http.StatusInternalServerError)
	}
)

// target loads the attachment of the route's {id}.
func (s *Service) target(r *rest.Request) (*Attachment, error) {
	id := r.Int("id")
	if id <= 0 {
		return nil, errInvalidID()
	}
	a, err := s.load(r.Context(), id)
	if errors.Is(err, errNotFound) {
		return nil, errInvalidID()
	}
	if err != nil {
		s.logger.ErrorContext(r.Context(), "load attachment", "id", id, "error", err.Error())
		return nil, rest.StoreError(err, errDB())
	}
	return a, nil
}

// Permissions (meta capabilities read_post, edit_post, delete_post of the
// attachment type). canRead is the rule without the parent; an inherit
// attachment also follows its parent post (readers, parents.go).

func canRead(c identity.Identity, a *Attachment) bool {
	if a.Status != "private" {
		return true
	}
	return c.LoggedIn() && (c.UserID == a.Author || c.Can("read_private_posts"))
}

func canEdit(c identity.Identity, a *Attachment) bool {
	if !c.LoggedIn() {
		return false
	}
	if c.UserID == a.Author {
		return c.Can("edit_posts")
	}
	return c.Can("edit_others_posts")
}

func canDelete(c identity.Identity, a *Attachment) bool {
	if !c.LoggedIn() {
		return false
	}
	if c.UserID == a.Author {
		return c.Can("delete_posts")
	}
	return c.Can("delete_others_posts")
}

func (s *Service) itemURL(id int64) string { return fmt.Sprintf("%s/%d", routePrefix, id) }
