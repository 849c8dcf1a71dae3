package metrics

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	dto "github.com/prometheus/client_model/go"

	"siteplane.dev/services/pkg/dashboard"
)

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
	for _, err := range dashboard.CheckExported(filepath.Join("..", "..", "..", ".."), "service", dashboard.ServiceMetric, exposed, 6) {
		t.Error(err)
	}
}
