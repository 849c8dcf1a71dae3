package metrics

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	dto "github.com/prometheus/client_model/go"

	"siteplane.dev/services/pkg/dashboard"
)

// dashboardExprs returns every PromQL query of the chart's Grafana
// dashboard.
func dashboardExprs(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", dashboard.Path))
	if err != nil {
		t.Fatal(err)
	}
	exprs, err := dashboard.Queries(data)
	if err != nil {
		t.Fatal(err)
	}
	return exprs
}

// TestDashboardQueriesNameServiceMetrics: every service metric the chart's
// dashboard queries (siteplane_http_*, siteplane_db_*) is one the services
// register, under the exposed name (a histogram's _bucket, _sum, _count).
// The operator's series are checked by the operator's binary test, which
// scrapes a running operator.
func TestDashboardQueriesNameServiceMetrics(t *testing.T) {
	reg := NewRegistry()
	NewHTTP(reg).Observe("gateway", "/x", "GET", 200, time.Millisecond)
	pool, err := pgxpool.New(context.Background(), "postgres://nobody@127.0.0.1:1/none")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	reg.MustRegister(NewPoolCollector("gateway", pool))
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	exposed := map[string]bool{}
	for _, f := range families {
		exposed[f.GetName()] = true
		if f.GetType() == dto.MetricType_HISTOGRAM {
			for _, s := range []string{"_bucket", "_sum", "_count"} {
				exposed[f.GetName()+s] = true
			}
		}
	}
	checked := 0
	for _, e := range dashboardExprs(t) {
		for _, name := range dashboard.MetricNames(e) {
			if !strings.HasPrefix(name, "siteplane_http_") && !strings.HasPrefix(name, "siteplane_db_") {
				continue
			}
			checked++
			if !exposed[name] {
				t.Errorf("the dashboard queries %s, which no service exports (query: %s)", name, e)
			}
		}
	}
	if checked < 6 {
		t.Errorf("only %d service metrics queried", checked)
	}
}
