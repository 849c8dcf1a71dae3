package service

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"siteplane.dev/services/internal/platform/config"
)

// EnvPprofAddr, when set, makes the service serve Go's profiling endpoints
// (net/http/pprof, under /debug/pprof/) on that address, on a listener of
// its own: never on the API or metrics port. It is off by default. The
// address must be a loopback one (127.0.0.1:6060, [::1]:6060, localhost:0),
// because profiles show code paths and goroutine stacks; reach a pod's
// with `kubectl port-forward`. With port 0 the chosen address is logged.
//
//	SITEPLANE_PPROF_ADDR=127.0.0.1:6060
//	go tool pprof 'http://127.0.0.1:6060/debug/pprof/profile?seconds=20'
const EnvPprofAddr = "SITEPLANE_PPROF_ADDR"

// pprofAddr reads EnvPprofAddr: "" when unset, a failure on cfg when it is
// not host:port with a loopback host.
func pprofAddr(cfg *config.Loader) string {
	addr := cfg.String(EnvPprofAddr, "")
	if addr == "" {
		return ""
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		cfg.Fail("%s: %q is not host:port", EnvPprofAddr, addr)
		return ""
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		cfg.Fail("%s: %q is not a loopback address (profiles are served on loopback only)", EnvPprofAddr, addr)
		return ""
	}
	return addr
}

// pprofHandler serves the profiling endpoints on a mux of its own, so that
// nothing depends on http.DefaultServeMux (where the pprof package also
// registers itself).
func pprofHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index) // also the named profiles: heap, goroutine, allocs, ...
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// startPprof listens on addr and serves the profiling endpoints until ctx
// ends. It returns the bound address.
func startPprof(ctx context.Context, addr string, logger *slog.Logger) (net.Addr, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	// No write timeout: a CPU profile or trace streams for as long as asked.
	srv := &http.Server{Handler: pprofHandler(), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("pprof listener stopped", "error", err.Error())
		}
	}()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	logger.Info("serving pprof", "addr", l.Addr().String())
	return l.Addr(), nil
}
