package metrics

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	dto "github.com/prometheus/client_model/go"
)

// dashboardExprs returns every PromQL query of the chart's Grafana
// dashboard (panels and template variables).
func dashboardExprs(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "charts", "siteplane-operator", "dashboards", "siteplane.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
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
	if len(exprs) < 10 {
		t.Fatalf("only %d queries in the dashboard", len(exprs))
	}
	return exprs
}

var (
	promString    = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	promMatchers  = regexp.MustCompile(`\{[^}]*\}`)
	promRange     = regexp.MustCompile(`\[[^\]]*\]`)
	promGrouping  = regexp.MustCompile(`\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`)
	promIdent     = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*`)
	promKeywords  = map[string]bool{"and": true, "or": true, "unless": true, "bool": true, "offset": true, "vector": true}
	promFunctionL = regexp.MustCompile(`^\s*\(`)
)

// metricNames returns the metric names a PromQL query reads: identifiers
// that are not functions (followed by "("), keywords, label names in
// matchers or groupings, strings or ranges.
func metricNames(expr string) []string {
	s := promString.ReplaceAllString(expr, `""`)
	s = promMatchers.ReplaceAllString(s, " ")
	s = promRange.ReplaceAllString(s, " ")
	s = promGrouping.ReplaceAllString(s, " ")
	var names []string
	for _, loc := range promIdent.FindAllStringIndex(s, -1) {
		id := s[loc[0]:loc[1]]
		if promKeywords[id] || promFunctionL.MatchString(s[loc[1]:]) {
			continue
		}
		names = append(names, id)
	}
	return names
}

func TestMetricNames(t *testing.T) {
	got := strings.Join(metricNames(`histogram_quantile(0.95, sum by (service, le) (rate(a_bucket{x=~"5.."}[5m]))) / b or vector(0) and on (x) c`), ",")
	if got != "a_bucket,b,c" {
		t.Errorf("metricNames = %s", got)
	}
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
		for _, name := range metricNames(e) {
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
