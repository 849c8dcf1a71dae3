package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"siteplane.dev/services/pkg/dashboard"
)

// dashboardExprs returns every PromQL query of the chart's Grafana dashboard.
func dashboardExprs(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", dashboard.Path))
	if err != nil {
		t.Fatal(err)
	}
	exprs, err := dashboard.Queries(data)
	if err != nil {
		t.Fatal(err)
	}
	return exprs
}

// exposedName reads a metric's name at the start of a line of the text
// exposition format.
var exposedName = regexp.MustCompile(`(?m)^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]`)

// checkDashboardOperatorMetrics checks that every metric the dashboard
// queries, other than the services' (siteplane_http_*, siteplane_db_*,
// checked in the services module), appears in body, a scrape of a running
// operator.
func checkDashboardOperatorMetrics(t *testing.T, body string) {
	t.Helper()
	exposed := map[string]bool{}
	for _, m := range exposedName.FindAllStringSubmatch(body, -1) {
		exposed[m[1]] = true
	}
	checked := 0
	for _, e := range dashboardExprs(t) {
		for _, name := range dashboard.MetricNames(e) {
			if strings.HasPrefix(name, "siteplane_http_") || strings.HasPrefix(name, "siteplane_db_") {
				continue
			}
			checked++
			if !exposed[name] {
				t.Errorf("the dashboard queries %s, which the operator does not export (query: %s)", name, e)
			}
		}
	}
	if checked < 6 {
		t.Errorf("only %d operator metrics queried", checked)
	}
}
