package main

import (
	"path/filepath"
	"regexp"
	"testing"

	"siteplane.dev/services/pkg/dashboard"
)

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
	for _, err := range dashboard.CheckExported(filepath.Join("..", ".."), "operator",
		func(name string) bool { return !dashboard.ServiceMetric(name) }, exposed, 6) {
		t.Error(err)
	}
}
