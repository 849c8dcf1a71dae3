package dashboard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ServiceMetric reports whether a metric is one the services export
// (siteplane_http_*, siteplane_db_*); the dashboard's other metrics are the
// operator's. The services module's test checks the first, the operator's
// the rest.
func ServiceMetric(name string) bool {
	return strings.HasPrefix(name, "siteplane_http_") || strings.HasPrefix(name, "siteplane_db_")
}

// CheckExported checks the dashboard against the metrics one component
// exports, for that component's test: every metric a query reads that owns
// claims must be in exposed (the names a scrape or a registry shows). At
// least least of them must be checked, so that a renamed prefix cannot pass
// by checking nothing. root is the repository root; kind names the
// component's metrics in the findings ("operator", "service"). It returns
// the findings, none when the dashboard and the component agree.
func CheckExported(root, kind string, owns func(name string) bool, exposed map[string]bool, least int) []error {
	data, err := os.ReadFile(filepath.Join(root, Path))
	if err != nil {
		return []error{err}
	}
	exprs, err := Queries(data)
	if err != nil {
		return []error{err}
	}
	var findings []error
	checked := 0
	for _, e := range exprs {
		for _, name := range MetricNames(e) {
			if !owns(name) {
				continue
			}
			checked++
			if !exposed[name] {
				findings = append(findings, fmt.Errorf("the dashboard queries %s, which no %s exports (query: %s)", name, kind, e))
			}
		}
	}
	if checked < least {
		findings = append(findings, fmt.Errorf("only %d %s metrics queried", checked, kind))
	}
	return findings
}
