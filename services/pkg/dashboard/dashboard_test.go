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

// TestCheckExported: a component that exports every metric the dashboard
// reads for it passes; one that lacks a metric, a check that covers too few
// metrics and an unreadable dashboard are findings.
func TestCheckExported(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	data, err := os.ReadFile(filepath.Join(root, Path))
	if err != nil {
		t.Fatal(err)
	}
	exprs, err := Queries(data)
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]bool{}
	requests := 0 // the queries' readings of siteplane_http_requests_total
	for _, e := range exprs {
		for _, name := range MetricNames(e) {
			all[name] = true
			if name == "siteplane_http_requests_total" {
				requests++
			}
		}
	}
	lacking := map[string]bool{}
	for name := range all {
		lacking[name] = name != "siteplane_http_requests_total"
	}
	everything := func(string) bool { return true }
	for _, tc := range []struct {
		name    string
		root    string
		owns    func(string) bool
		exposed map[string]bool
		least   int
		want    int    // findings
		part    string // a part of each finding
	}{
		{"every metric exported", root, everything, all, 6, 0, ""},
		{"the services' metrics exported", root, ServiceMetric, all, 6, 0, ""},
		{"a metric missing", root, ServiceMetric, lacking, 6, requests, "queries siteplane_http_requests_total, which no x exports"},
		{"too few checked", root, func(string) bool { return false }, all, 1, 1, "only 0 x metrics queried"},
		{"no dashboard", t.TempDir(), everything, all, 0, 1, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckExported(tc.root, "x", tc.owns, tc.exposed, tc.least)
			if len(got) != tc.want {
				t.Fatalf("findings %v, want %d", got, tc.want)
			}
			for _, f := range got {
				if !strings.Contains(f.Error(), tc.part) {
					t.Errorf("finding %q, want it to contain %q", f, tc.part)
				}
			}
		})
	}
	if requests == 0 {
		t.Error("the dashboard no longer queries siteplane_http_requests_total; pick another metric")
	}
}
