package service

import (
	"context"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"siteplane.dev/services/internal/platform/config"
	"siteplane.dev/services/internal/platform/httpserver"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/metrics"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// openDatabase migrates the service's schema and opens its pool (and the
// read pool when readURL is set), with their metrics and readiness.
func openDatabase(ctx context.Context, srv *httpserver.Server, env *Env, reg prometheus.Registerer, opts Options,
	name, dsn, readURL string) error {
	countQuery := metrics.NewQueryCounter(reg, name)
	st := env.DB
	st.CountQuery = countQuery("primary")
	pool, err := postgres.MigrateAndOpenWith(ctx, dsn, opts.Name, opts.Migrations, st)
	if err != nil {
		return err
	}
	env.Pool = pool
	reg.MustRegister(metrics.NewPoolCollector(name, pool))
	want, err := postgres.LatestVersion(opts.Migrations)
	if err != nil {
		pool.Close()
		return err
	}
	// Ready means reachable and migrated: a schema restored from an older
	// backup, or left dirty by a failed migration, must not take traffic.
	// The probe has its own connection: a saturated pool must not
	// make a healthy replica look dead.
	probe := postgres.NewProbe(dsn, opts.Name, want, env.DB)
	srv.OnShutdown(func(context.Context) { pool.Close(); probe.Close() })
	check := probe.Check
	if readURL != "" {
		st.CountQuery = countQuery("read")
		if check, err = startReadPool(ctx, srv, env, opts, readURL, want, st, probe); err != nil {
			return err
		}
	}
	srv.AddReadiness("database", check)
	return nil
}

// readDSN is the read pool's DSN of a service that takes one (empty: none).
func readDSN(cfg *config.Loader, opts Options) string {
	if !opts.ReadPool || opts.Migrations == nil {
		return ""
	}
	return cfg.Secret(contract.EnvDatabaseReadURL, contract.EnvDatabaseReadURLFile, false)
}

// startReadPool opens the read pool on dsn, sends the anonymous reads of
// the service's routes to it (routeReads) and lets readiness pass while
// either the primary or the replica answers: with the primary gone (a
// failover), reads keep being served and writes answer 503.
func startReadPool(ctx context.Context, srv *httpserver.Server, env *Env, opts Options, dsn string, want int64,
	st postgres.Settings, primary *postgres.Probe) (func(context.Context) error, error) {
	pool, err := postgres.OpenRead(ctx, dsn, opts.Name, st)
	if err != nil {
		return nil, err
	}
	env.ReadPool = pool
	srv.Router().Use(routeReads(pool))
	replica := postgres.NewProbe(dsn, opts.Name, want, env.DB)
	srv.OnShutdown(func(context.Context) { pool.Close(); replica.Close() })
	return func(ctx context.Context) error {
		err := primary.Check(ctx)
		if err != nil && replica.Check(ctx) == nil {
			return nil
		}
		return err
	}, nil
}

// routeReads gives every anonymous GET and HEAD a postgres.Route to the
// read pool; the handlers' reads take it at the request boundary
// (postgres.RouteFrom), their writes stay on the primary. A caller with an
// identity always reads the primary: it may be reading its own write.
func routeReads(pool *pgxpool.Pool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if (r.Method != http.MethodGet && r.Method != http.MethodHead) || identity.FromContext(r.Context()).LoggedIn() {
				next.ServeHTTP(w, r)
				return
			}
			want, _ := postgres.ParseLSN(r.Header.Get(postgres.HeaderWantLSN))
			ctx, route := postgres.WithRoute(r.Context(), pool, want, w.Header())
			defer route.Release()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}
