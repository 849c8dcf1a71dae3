package media

import (
	"context"
	"runtime/debug"
	"strings"
	"time"

	"siteplane.dev/services/internal/media/migrations"
	"siteplane.dev/services/internal/platform/idempotency"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/internal/platform/service"
	"siteplane.dev/services/pkg/contract"
)

// Environment variables of the media service beyond the shared ones.
const (
	// EnvMaxUploadBytes limits one uploaded file (default 32 MiB).
	EnvMaxUploadBytes = "SITEPLANE_MEDIA_MAX_UPLOAD_BYTES"
	// EnvMaxPixels refuses larger images before decoding (default 50 megapixels).
	EnvMaxPixels = "SITEPLANE_MEDIA_MAX_PIXELS"
	// EnvDecoders is how many images are decoded at once (default GOMAXPROCS).
	EnvDecoders = "SITEPLANE_MEDIA_DECODERS"
	// EnvDecodeBytes lowers the decode budget, which otherwise follows the
	// process's memory limit (DecodeBudget).
	EnvDecodeBytes = contract.EnvMediaDecodeBytes
	// EnvSpoolDir is where raw upload bodies wait while they are processed
	// (unlinked temporary files; default: the system's temporary directory).
	EnvSpoolDir = "SITEPLANE_MEDIA_SPOOL_DIR"
)

// Defaults of the variables above.
const (
	DefaultMaxUploadBytes = 32 << 20
	DefaultMaxPixels      = 50_000_000
)

// multipartSlack is what a multipart body may carry beyond the file (the
// other fields and the part headers).
const multipartSlack = 1 << 20

// Options are the start-up options: name and schema, migrations, and a body
// limit that leaves room for the largest upload.
func Options() service.Options {
	return service.Options{Name: contract.ServiceMedia, Migrations: migrations.FS, MaxBodyBytes: 1 << 40, MemoryLimit: DefaultMemoryLimit,
		ReadPool: true}
}

// Register wires the REST routes, the route descriptions the gateway merges
// into its index and the public files.
func Register(ctx context.Context, env *service.Env) error {
	cfg := env.Config
	conf := Config{
		MaxUploadBytes: cfg.Int(EnvMaxUploadBytes, DefaultMaxUploadBytes, 1, 1<<40),
		MaxPixels:      cfg.Int(EnvMaxPixels, DefaultMaxPixels, 1, 1<<40),
		Decoders:       int(cfg.Int(EnvDecoders, 0, 0, 1024)),
		// the budget follows the process's soft memory limit, whatever
		// set it (GOMEMLIMIT, the container's limit, DefaultMemoryLimit)
		DecodeBytes: DecodeBudget(debug.SetMemoryLimit(-1), cfg.Int(EnvDecodeBytes, 0, 1<<20, 1<<40)),
		SpoolDir:    cfg.String(EnvSpoolDir, ""),
		ContentURL:  cfg.String(contract.EnvContentURL, ""),
		Keys:        env.Keys,
	}
	if conf.ContentURL == "" {
		env.Logger.Warn("attachments follow no parent: " + contract.EnvContentURL + " is not set")
	}
	env.Logger.Info("image decode budget", "mib", conf.DecodeBytes>>20)
	blobs, closer := storeFromConfig(cfg)
	if err := cfg.Err(); err != nil {
		return nil //nolint:nilerr // service.Run reports every configuration problem after Register
	}
	env.Server.OnShutdown(func(context.Context) { closer.Close() })
	svc := New(env.Pool, blobs, env.Site, conf, env.Logger)
	srv, err := svc.NewServer()
	if err != nil {
		return err
	}
	idem := idempotency.New(env.Pool, idempotentTx, env.Logger)
	go idem.Cleanup(ctx, time.Hour)
	env.Router.Use(svc.limitBodies) // before anything reads a body (guard.go)
	env.Router.Use(idem.Middleware)
	env.Router.Handle(contract.RouteDescriptionsPath, srv.IndexHandler())
	env.Router.PathPrefix(UploadsPath).Handler(svc.FilesHandler())
	env.Router.PathPrefix("/").Handler(svc.limitUploads(srv))
	return nil
}

// NewServer builds the route kit server over the service's routes.
func (s *Service) NewServer() (*rest.Server, error) {
	return rest.New(rest.Options{RootURL: strings.TrimRight(s.site.URL, "/") + "/cms-json/",
		MaxBodyBytes: s.maxUpload + multipartSlack, Logger: s.logger}, s.routes()...)
}

// DefaultMemoryLimit is the media process's soft memory limit (runtime/debug)
// unless GOMEMLIMIT is set or 85% of the container's limit is lower
// (service.Main); the decode budget follows it (DecodeBudget: 140 MiB).
// Work over the budget is refused, so the budget must admit the images
// people upload: a 50-megapixel camera JPEG weighs about 90 MiB, a 24 MP
// RGBA PNG about 120 MiB. (It was 48 MiB while heavier images ran alone
// past the budget: 61 MiB RSS under eight concurrent 12 MP uploads,
// docs/performance.md; those still decode two at a time, one per core.)
const DefaultMemoryLimit = 160 << 20
