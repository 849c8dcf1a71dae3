// Package dashboard reads the chart's Grafana dashboard
// (charts/siteplane-operator/dashboards/siteplane.json) for the tests that
// check every query names a metric that exists: the services' metrics in
// the services module, the operator's in the operator module.
package dashboard

import (
	"encoding/json"
	"fmt"
	"regexp"
)

// Path is the dashboard's path from the repository root.
const Path = "charts/siteplane-operator/dashboards/siteplane.json"

// Queries returns every PromQL expression of the dashboard's panels.
func Queries(data []byte) ([]string, error) {
	var dash struct {
		Panels []struct {
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(data, &dash); err != nil {
		return nil, fmt.Errorf("read dashboard: %w", err)
	}
	var exprs []string
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			exprs = append(exprs, tg.Expr)
		}
	}
	return exprs, nil
}

var (
	promString   = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	promMatchers = regexp.MustCompile(`\{[^}]*\}`)
	promRange    = regexp.MustCompile(`\[[^\]]*\]`)
	promGrouping = regexp.MustCompile(`\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`)
	promIdent    = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*`)
	promKeywords = map[string]bool{"and": true, "or": true, "unless": true, "bool": true, "offset": true, "vector": true}
	promCall     = regexp.MustCompile(`^\s*\(`)
)

// MetricNames returns the metric names a PromQL query reads: identifiers
// that are not functions (followed by "("), keywords, label names in
// matchers or groupings, strings, ranges or units (offset 5m). It is a reading good enough
// for the dashboard's queries, not a PromQL parser.
func MetricNames(expr string) []string {
	s := promString.ReplaceAllString(expr, `""`)
	s = promMatchers.ReplaceAllString(s, " ")
	s = promRange.ReplaceAllString(s, " ")
	s = promGrouping.ReplaceAllString(s, " ")
	var names []string
	for _, loc := range promIdent.FindAllStringIndex(s, -1) {
		id := s[loc[0]:loc[1]]
		if loc[0] > 0 && isDigit(s[loc[0]-1]) { // the unit of a duration or number: 5m
			continue
		}
		if promKeywords[id] || promCall.MatchString(s[loc[1]:]) {
			continue
		}
		names = append(names, id)
	}
	return names
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
