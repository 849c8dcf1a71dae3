package gateway

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// POST /host-tools/v1/host-api: the site's health and versions, for the
// hosting tools of an administrator. "checks" chooses what is examined:
// "database" (the gateway's PostgreSQL: reachable, schema version, latency)
// and "services" (each backend of the route file answers its /readyz
// within "timeout" seconds). "status" is "ok" when every check passed,
// else "degraded". Versions are always reported. Administrators only
// (manage_options): the answer names the site's services and versions.

var hostCheckNames = []any{"database", "services"}

func hostAPIArgs() rest.Props {
	return rest.Props{
		{Name: "checks", Schema: &rest.Schema{Description: "The health checks to run.", Type: "array",
			Items: &rest.Schema{Type: "string", Enum: hostCheckNames}, Default: hostCheckNames}},
		{Name: "timeout", Schema: &rest.Schema{Description: "Seconds each service has to answer its readiness probe.", Type: "integer",
			Minimum: rest.Ptr(1.0), Maximum: rest.Ptr(10.0), Default: 2}},
	}
}

func (g *Gateway) serveHostAPI(r *rest.Request) (*rest.Response, error) {
	ctx := r.Context()
	checks := r.Strings("checks")
	timeout := time.Duration(r.Int("timeout")) * time.Second
	ok := true
	health := rest.Object{}
	pool := g.cfg.Store.Pool()
	pgVersion := ""
	if err := pool.QueryRow(ctx, `SHOW server_version`).Scan(&pgVersion); err != nil {
		pgVersion = ""
	}
	schema, dirty, schemaErr := postgres.Version(ctx, pool)
	if slices.Contains(checks, "database") {
		start := time.Now()
		err := pool.Ping(ctx)
		db := rest.Object{}
		switch {
		case err != nil:
			ok = false
			db = append(db, rest.Member{Key: "status", Value: "unavailable"})
		case schemaErr != nil || dirty:
			ok = false
			db = append(db, rest.Member{Key: "status", Value: "schema_not_migrated"})
		default:
			db = append(db, rest.Member{Key: "status", Value: "ok"})
		}
		db = append(db, rest.Member{Key: "latency_ms", Value: float64(time.Since(start).Microseconds()) / 1000})
		health = append(health, rest.Member{Key: "database", Value: db})
	}
	if slices.Contains(checks, "services") {
		list, allUp := g.probeServices(ctx, timeout)
		ok = ok && allUp
		health = append(health, rest.Member{Key: "services", Value: list})
	}
	status := "ok"
	if !ok {
		status = "degraded"
	}
	siteplane := "(devel)"
	if bi, found := debug.ReadBuildInfo(); found {
		if bi.Main.Version != "" {
			siteplane = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && s.Value != "" {
				siteplane = s.Value
			}
		}
	}
	versions := rest.Object{
		{Key: "siteplane", Value: siteplane},
		{Key: "go", Value: runtime.Version()},
		{Key: "postgresql", Value: pgVersion},
		{Key: "gateway_schema", Value: schema},
		{Key: "route_file", Value: g.cfg.Routes.Current().File.Version},
	}
	return rest.OK(rest.Object{
		{Key: "status", Value: status},
		{Key: "site_url", Value: g.cfg.Site.URL},
		{Key: "checked_at", Value: g.cfg.Now().UTC().Format(time.RFC3339)},
		{Key: "health", Value: health},
		{Key: "versions", Value: versions},
	}), nil
}

// probeServices asks every backend of the route file for its readiness, in
// parallel, each bounded by timeout.
func (g *Gateway) probeServices(ctx context.Context, timeout time.Duration) ([]rest.Object, bool) {
	t := g.cfg.Routes.Current()
	services := t.File.Services
	out := make([]rest.Object, len(services))
	up := make([]bool, len(services))
	client := &http.Client{Transport: g.cfg.Proxy.Transport(), Timeout: timeout}
	var wg sync.WaitGroup
	for i, s := range services {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			status := "unavailable"
			if b, found := t.Backend(s.Name); found {
				pctx, cancel := context.WithTimeout(ctx, timeout)
				defer cancel()
				req, _ := http.NewRequestWithContext(pctx, http.MethodGet, b.Base.JoinPath(contract.ReadyzPath).String(), nil)
				if res, err := client.Do(req); err == nil {
					var body struct {
						Status string `json:"status"`
					}
					_ = json.NewDecoder(io.LimitReader(res.Body, 4096)).Decode(&body)
					res.Body.Close()
					if res.StatusCode == http.StatusOK {
						status, up[i] = "ok", true
					} else if body.Status != "" {
						status = body.Status
					}
				}
			}
			out[i] = rest.Object{{Key: "name", Value: s.Name}, {Key: "status", Value: status},
				{Key: "latency_ms", Value: float64(time.Since(start).Microseconds()) / 1000}}
		}()
	}
	wg.Wait()
	return out, !slices.Contains(up, false)
}
