// Package httpserver runs a service's HTTP API and metrics listeners with the
// middleware every service shares: request ids, panic recovery, body limits,
// metrics by route template, one access-log line per request, health and
// readiness probes, and graceful shutdown.
package httpserver

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"siteplane.dev/services/internal/platform/metrics"
	"siteplane.dev/services/pkg/contract"
)

// ErrorWriter writes an error in the API's own envelope: WordPress's
// {code, message, data.status} for the content interface, the marketplace's
// {status: "error", msg} for the author API.
type ErrorWriter func(w http.ResponseWriter, r *http.Request, status int, code, message string)

// Config configures a Server.
type Config struct {
	Service     string
	ListenAddr  string
	MetricsAddr string
	// InternalAddr, when set (and not "off"), is a second API listener for
	// the service-to-service endpoints registered on InternalRouter; the
	// public listener never serves them.
	InternalAddr string
	// ShutdownDelay is how long the server keeps serving, already unready,
	// after it is told to stop: the time the load balancer (a Kubernetes
	// Service's endpoints) needs to notice and stop sending new requests.
	ShutdownDelay time.Duration
	// ShutdownTimeout bounds the drain of in-flight requests after the delay.
	ShutdownTimeout time.Duration
	MaxBodyBytes    int64
	// WriteTimeout bounds a response; media uploads want more than the default.
	WriteTimeout time.Duration
	Logger       *slog.Logger
	Registry     *prometheus.Registry
	// Errors writes the envelope of errors raised by the server itself
	// (panics, oversized bodies, unknown routes). Default: WordPress's.
	Errors ErrorWriter
}

// Server is a service's HTTP front.
type Server struct {
	cfg      Config
	router   *mux.Router
	internal *mux.Router
	metrics  *metrics.HTTP

	mu         sync.Mutex
	readiness  []namedCheck
	onShutdown []func(context.Context)
	draining   bool
	// closing is set when the shutdown delay begins: every answer from
	// then on closes its connection.
	closing atomic.Bool

	apiLn, metricsLn, internalLn net.Listener
}

type namedCheck struct {
	name  string
	check func(context.Context) error
}

// New returns a Server. Register routes on Router before calling Run.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Registry == nil {
		cfg.Registry = metrics.NewRegistry()
	}
	if cfg.Errors == nil {
		cfg.Errors = WordPressError
	}
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = 20 * time.Second
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = contract.DefaultMaxBodyBytes
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 60 * time.Second
	}
	s := &Server{cfg: cfg, router: mux.NewRouter(), internal: mux.NewRouter(), metrics: metrics.NewHTTP(cfg.Registry)}
	s.internal.SkipClean(true)
	s.internal.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cfg.Errors(w, r, http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.")
	})
	// WordPress routes are matched on the raw path (template ids contain
	// "//", trailing slashes are ignored by the route kit); mux's path
	// cleaning would redirect those requests instead.
	s.router.SkipClean(true)
	// mux gives the matched route only to the request it passes down, so the
	// template is recorded from inside the router for the outer middleware.
	s.router.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			metrics.SetRoute(r.Context(), routeTemplate(r))
			next.ServeHTTP(w, r)
		})
	})
	s.router.HandleFunc(contract.HealthzPath, s.healthz).Methods(http.MethodGet, http.MethodHead)
	s.router.HandleFunc(contract.ReadyzPath, s.readyz).Methods(http.MethodGet, http.MethodHead)
	s.router.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cfg.Errors(w, r, http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.")
	})
	s.router.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cfg.Errors(w, r, http.StatusMethodNotAllowed, "rest_no_route", "No route was found matching the URL and request method.")
	})
	return s
}

// Router is where the service registers its handlers.
func (s *Server) Router() *mux.Router { return s.router }

// InternalRouter is where the service registers its service-to-service
// endpoints, served on Config.InternalAddr only.
func (s *Server) InternalRouter() *mux.Router { return s.internal }

// Registry is the Prometheus registry served on the metrics listener.
func (s *Server) Registry() *prometheus.Registry { return s.cfg.Registry }

// Logger returns the service logger.
func (s *Server) Logger() *slog.Logger { return s.cfg.Logger }

// AddReadiness adds a check to /readyz; all must pass for 200.
func (s *Server) AddReadiness(name string, check func(context.Context) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readiness = append(s.readiness, namedCheck{name, check})
}

// OnShutdown registers f to run after in-flight requests drained (close pools here).
func (s *Server) OnShutdown(f func(context.Context)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onShutdown = append(s.onShutdown, f)
}

// Handler returns the API handler with every middleware applied.
func (s *Server) Handler() http.Handler {
	return s.middleware(s.router)
}

// closeAfterAnswer makes every answer given while the server is closing
// carry "Connection: close", which net/http honours by closing the
// connection once the answer is written.
func (s *Server) closeAfterAnswer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.closing.Load() {
			w.Header().Set("Connection", "close")
		}
		next.ServeHTTP(w, r)
	})
}

// Listen binds both listeners now, so that callers (tests, the local
// supervisor) can learn the ports before Run. Use ":0" for a free port.
func (s *Server) Listen() error {
	var err error
	if s.apiLn, err = net.Listen("tcp", s.cfg.ListenAddr); err != nil {
		return err
	}
	if s.cfg.MetricsAddr != "" && s.cfg.MetricsAddr != "off" {
		if s.metricsLn, err = net.Listen("tcp", s.cfg.MetricsAddr); err != nil {
			s.apiLn.Close()
			return err
		}
	}
	if s.cfg.InternalAddr != "" && s.cfg.InternalAddr != "off" {
		if s.internalLn, err = net.Listen("tcp", s.cfg.InternalAddr); err != nil {
			s.apiLn.Close()
			if s.metricsLn != nil {
				s.metricsLn.Close()
			}
			return err
		}
	}
	return nil
}

// InternalAddr returns the internal listener's address, or "" when disabled.
func (s *Server) InternalAddr() string {
	if s.internalLn == nil {
		return ""
	}
	return s.internalLn.Addr().String()
}

// APIAddr and MetricsAddr return the bound addresses (after Listen).
func (s *Server) APIAddr() string { return s.apiLn.Addr().String() }

// MetricsAddr returns the metrics listener's address, or "" when disabled.
func (s *Server) MetricsAddr() string {
	if s.metricsLn == nil {
		return ""
	}
	return s.metricsLn.Addr().String()
}

// Run serves until ctx is cancelled (SIGTERM/SIGINT in main), then shuts
// down gracefully: readiness turns false at once while the server keeps
// serving for ShutdownDelay (so the load balancer stops sending before
// anything is refused), then listeners close, in-flight requests get up to
// ShutdownTimeout to finish, and OnShutdown hooks run.
func (s *Server) Run(ctx context.Context) error {
	if s.apiLn == nil {
		if err := s.Listen(); err != nil {
			return err
		}
	}
	api := &http.Server{
		Handler:           s.closeAfterAnswer(s.Handler()),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    1 << 20,
		ErrorLog:          slog.NewLogLogger(s.cfg.Logger.Handler(), slog.LevelWarn),
	}
	var metricsSrv *http.Server
	errc := make(chan error, 3)
	go func() { errc <- api.Serve(s.apiLn) }()
	var internalSrv *http.Server
	if s.internalLn != nil {
		internalSrv = &http.Server{Handler: s.closeAfterAnswer(s.middleware(s.internal)), ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout: 60 * time.Second, WriteTimeout: s.cfg.WriteTimeout, IdleTimeout: 120 * time.Second,
			MaxHeaderBytes: 1 << 20, ErrorLog: api.ErrorLog}
		go func() { errc <- internalSrv.Serve(s.internalLn) }()
	}
	if s.metricsLn != nil {
		mm := http.NewServeMux()
		mm.Handle(contract.MetricsPath, promhttp.HandlerFor(s.cfg.Registry, promhttp.HandlerOpts{Registry: s.cfg.Registry}))
		metricsSrv = &http.Server{Handler: mm, ReadHeaderTimeout: 10 * time.Second}
		go func() { errc <- metricsSrv.Serve(s.metricsLn) }()
	}
	s.cfg.Logger.Info("serving", "addr", s.APIAddr(), "metrics_addr", s.MetricsAddr(), "internal_addr", s.InternalAddr())

	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-errc:
	}
	s.mu.Lock()
	s.draining = true
	hooks := s.onShutdown
	s.mu.Unlock()

	if serveErr == nil && s.cfg.ShutdownDelay > 0 {
		// Each answer from now on closes its connection (closeAfterAnswer),
		// so clients that keep connections alive reconnect, through the
		// load balancer, to a replica that stays. Idle connections are left
		// open until Shutdown: closing them now (SetKeepAlivesEnabled)
		// races with a client that is sending a request on one at that
		// moment, which then fails without an answer — and a POST is not
		// retried. Left open, such a request gets its answer and the close.
		s.closing.Store(true)
		s.cfg.Logger.Info("unready, still serving", "shutdown_delay", s.cfg.ShutdownDelay.String())
		select {
		case <-time.After(s.cfg.ShutdownDelay):
		case serveErr = <-errc:
		}
	}
	s.cfg.Logger.Info("shutting down", "drain_timeout", s.cfg.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	err := api.Shutdown(sctx)
	if internalSrv != nil {
		_ = internalSrv.Shutdown(sctx)
	}
	if metricsSrv != nil {
		_ = metricsSrv.Shutdown(sctx)
	}
	for _, h := range hooks {
		h(sctx)
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	if err != nil {
		return err
	}
	s.cfg.Logger.Info("stopped")
	return nil
}
