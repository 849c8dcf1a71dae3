package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// dashboardExprs returns every PromQL query of the chart's Grafana dashboard.
func dashboardExprs(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "charts", "siteplane-operator", "dashboards", "siteplane.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(data, &dash); err != nil {
		t.Fatal(err)
	}
	var exprs []string
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			exprs = append(exprs, tg.Expr)
		}
	}
	return exprs
}

var (
	promString   = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	promMatchers = regexp.MustCompile(`\{[^}]*\}`)
	promRange    = regexp.MustCompile(`\[[^\]]*\]`)
	promGrouping = regexp.MustCompile(`\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`)
	promIdent    = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*`)
	promKeywords = map[string]bool{"and": true, "or": true, "unless": true, "bool": true, "offset": true, "vector": true}
	promCall     = regexp.MustCompile(`^\s*\(`)
	exposedName  = regexp.MustCompile(`(?m)^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]`)
)

// metricNames returns the metric names a PromQL query reads (the same
// reading as the services' dashboard test).
func metricNames(expr string) []string {
	s := promString.ReplaceAllString(expr, `""`)
	s = promMatchers.ReplaceAllString(s, " ")
	s = promRange.ReplaceAllString(s, " ")
	s = promGrouping.ReplaceAllString(s, " ")
	var names []string
	for _, loc := range promIdent.FindAllStringIndex(s, -1) {
		id := s[loc[0]:loc[1]]
		if promKeywords[id] || promCall.MatchString(s[loc[1]:]) {
			continue
		}
		names = append(names, id)
	}
	return names
}

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
		for _, name := range metricNames(e) {
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
