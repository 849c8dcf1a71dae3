// Package service is the start-up sequence every Siteplane service shares:
// configuration from the environment, logger, metrics, database pool and
// migrations, identity verification, the HTTP server, and signal handling.
// A service's main is one call to Main with its own routes.
package service

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/gorilla/mux"
	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/platform/config"
	"siteplane.dev/services/internal/platform/httpserver"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/metrics"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// Options describe a service.
type Options struct {
	// Name is the contract service name; it is also the database schema.
	Name string
	// Migrations holds the schema's migration files; nil means the service
	// has no database.
	Migrations fs.FS
	// Errors writes the service's error envelope (default: WordPress's).
	Errors httpserver.ErrorWriter
	// MaxBodyBytes overrides the default request body limit.
	MaxBodyBytes int64
	// NoIdentity marks a service that never receives the gateway's signed
	// identity (the marketplace authenticates its own API keys): it needs no
	// internal key, and an identity header sent to it is refused.
	NoIdentity bool
	// InternalListener serves Server.InternalRouter on
	// contract.EnvInternalListenAddr (the gateway's /internal/ endpoints).
	InternalListener bool
	// ReadPool marks a service whose anonymous reads may go to a read-only
	// replica pool when contract.EnvDatabaseReadURL is set (readpool.go).
	ReadPool bool
	// MemoryLimit is the service's own soft memory limit (0: none); Main
	// lowers it to a share of the container's limit (memlimit.go).
	MemoryLimit int64
}

// Env is what a service's Register function receives.
type Env struct {
	Server *httpserver.Server
	Router *mux.Router
	Pool   *pgxpool.Pool // nil without Migrations
	// ReadPool is the read-only replica pool (nil without one): anonymous
	// reads reach it through postgres.RouteFrom, never directly.
	ReadPool *pgxpool.Pool
	Logger   *slog.Logger
	// Config reads the service's own variables; errors recorded on it after
	// Register returns fail the start-up with every problem listed.
	Config *config.Loader
	// Keys are the internal keys in force (re-read from the mounted files
	// while running); nil for a NoIdentity service.
	Keys identity.Keys
	// DB are the database settings read from the environment.
	DB   postgres.Settings
	Site contract.Site
}

// Register wires the service's routes and background work. Goroutines it
// starts must stop when ctx is cancelled.
type Register func(ctx context.Context, env *Env) error

// Command runs one management subcommand of a service binary: args are the
// command line without the program name; results go to stdout, logs and
// errors to stderr; the result is the exit code (0, 1 for a failure, 2 for
// a usage error). ctx ends on SIGTERM or SIGINT.
type Command func(ctx context.Context, args []string, lookup func(string) (string, bool), stdout, stderr io.Writer) int

// MainOrCommand is a service binary's main: without arguments, or with
// "serve", it runs the service (Main); "migrate" is MigrateCommand (for a
// service with migrations); otherwise the subcommand. It exits the process.
func MainOrCommand(opts Options, register Register, command Command) {
	if len(os.Args) < 2 || os.Args[1] == "serve" {
		Main(opts, register)
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	var code int
	if os.Args[1] == "migrate" && opts.Migrations != nil {
		code = MigrateCommand(ctx, opts, os.Args[2:], os.LookupEnv, os.Stdout, os.Stderr)
	} else {
		code = command(ctx, os.Args[1:], os.LookupEnv, os.Stdout, os.Stderr)
	}
	stop()
	os.Exit(code)
}

// Main runs the service until SIGTERM or SIGINT and exits the process.
func Main(opts Options, register Register) {
	err := func() error {
		limit, source, err := applyMemoryLimit(os.LookupEnv, opts.MemoryLimit)
		if err != nil {
			return err
		}
		if limit > 0 {
			slog.New(slog.NewJSONHandler(os.Stderr, nil)).Info("soft memory limit", "service", opts.Name,
				"limit_mib", limit>>20, "from", source)
		}
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
		defer stop()
		go trimIdleHeap(ctx, trimTick) // idletrim.go
		return Run(ctx, opts, os.LookupEnv, register, nil)
	}()
	if err != nil {
		slog.New(slog.NewJSONHandler(os.Stderr, nil)).Error("exit", "service", opts.Name, "error", err.Error())
		os.Exit(1)
	}
}

// Run is Main without the process concerns. ready, when not nil, receives the
// bound API address once the server listens (tests use it).
func Run(ctx context.Context, opts Options, lookup func(string) (string, bool), register Register, ready func(apiAddr string)) error {
	cfg := config.New(lookup)
	name := cfg.String(contract.EnvServiceName, opts.Name)
	// Access-log lines are written in batches (at most 100 ms late; a
	// warning or error at once): one write per request was a third of a
	// service's write system calls under load (docs/performance.md).
	logger, logOut := logging.NewBatched(os.Stderr, name, cfg.String(contract.EnvLogLevel, "info"))
	defer logOut.Close()
	listen := cfg.String(contract.EnvListenAddr, contract.DefaultListenAddr)
	metricsAddr := cfg.String(contract.EnvMetricsAddr, contract.DefaultMetricsAddr)
	shutdown := cfg.Duration(contract.EnvShutdownTimeout, 0)
	delay := shutdownDelay(cfg)
	internalAddr := ""
	if opts.InternalListener {
		internalAddr = cfg.String(contract.EnvInternalListenAddr, contract.DefaultInternalListenAddr)
	}
	maxBody := cfg.Int(contract.EnvMaxBodyBytes, opts.MaxBodyBytes, 1, 1<<40)
	dsn := cfg.Secret(contract.EnvDatabaseURL, contract.EnvDatabaseURLFile, opts.Migrations != nil)
	readURL := readDSN(cfg, opts)
	dbSettings := postgres.SettingsFromConfig(cfg)
	var keys identity.Keys
	if !opts.NoIdentity {
		keys = loadKeys(cfg)
	}
	site := loadSite(cfg)
	profAddr := pprofAddr(cfg)
	if err := cfg.Err(); err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	if profAddr != "" {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel() // stops the profiling listener when Run returns
		if _, err := startPprof(ctx, profAddr, logger); err != nil {
			return fmt.Errorf("%s: %w", EnvPprofAddr, err)
		}
	}

	reg := metrics.NewRegistry()
	srv := httpserver.New(httpserver.Config{Service: name, ListenAddr: listen, MetricsAddr: metricsAddr, InternalAddr: internalAddr,
		ShutdownDelay: delay, ShutdownTimeout: shutdown, MaxBodyBytes: maxBody, Logger: logger, Registry: reg, Errors: opts.Errors})
	env := &Env{Server: srv, Router: srv.Router(), Logger: logger, Config: cfg, Keys: keys, DB: dbSettings, Site: site}

	errs := opts.Errors
	if errs == nil {
		errs = httpserver.WordPressError
	}
	reject := func(w http.ResponseWriter, r *http.Request, err error) {
		logger.Warn("identity header rejected", "request_id", logging.RequestID(r.Context()), "reason", err.Error())
		errs(w, r, http.StatusUnauthorized, "rest_invalid_identity", "The caller identity could not be verified.")
	}
	if keys != nil {
		// The audience is the contract name (opts.Name), not the label a
		// deployment may override: it is what the gateway signs for.
		idm := metrics.NewIdentity(reg)
		observe := func(kid string, err error) {
			if err != nil {
				idm.Rejected(name, identity.Reason(err))
				return
			}
			idm.Verified(name, kid)
		}
		mw := identity.Middleware(keys, opts.Name, nil, reject, observe)
		srv.Router().Use(mw)
		srv.InternalRouter().Use(mw)
	} else {
		srv.Router().Use(dropIdentity)
	}

	if opts.Migrations != nil {
		if err := openDatabase(ctx, srv, env, reg, opts, name, dsn, readURL); err != nil {
			return err
		}
	}

	if err := register(ctx, env); err != nil {
		return err
	}
	if err := cfg.Err(); err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	if err := srv.Listen(); err != nil {
		return err
	}
	if ready != nil {
		ready(srv.APIAddr())
	}
	return srv.Run(ctx)
}

func loadSite(cfg *config.Loader) contract.Site {
	path := cfg.String(contract.EnvSiteFile, "")
	if path == "" {
		return contract.DefaultSite("http://localhost:8080")
	}
	s, err := contract.ReadSiteFile(path)
	if err != nil {
		cfg.Fail("%s: %v", contract.EnvSiteFile, err)
		return contract.DefaultSite("http://localhost:8080")
	}
	return *s
}
