package dashboard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMetricNames(t *testing.T) {
	for expr, want := range map[string]string{
		`histogram_quantile(0.95, sum by (service, le) (rate(a_bucket{x=~"5.."}[5m]))) / b or vector(0) and on (x) c`: "a_bucket,b,c",
		`sum(rate(siteplane_http_requests_total{code=~"5.."}[5m])) without (pod)`:                                     "siteplane_http_requests_total",
		`max(x offset 5m) > bool 1`: "x",
	} {
		if got := strings.Join(MetricNames(expr), ","); got != want {
			t.Errorf("MetricNames(%s) = %s, want %s", expr, got, want)
		}
	}
}

func TestQueriesOfTheChartsDashboard(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", Path))
	if err != nil {
		t.Fatal(err)
	}
	exprs, err := Queries(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(exprs) < 10 {
		t.Fatalf("only %d queries in the dashboard", len(exprs))
	}
	if _, err := Queries([]byte("{")); err == nil {
		t.Error("Queries accepted a broken document")
	}
}
