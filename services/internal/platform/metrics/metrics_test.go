package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestObserveBoundsTheMethodLabel(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := NewHTTP(reg)
	for _, method := range []string{"GET", "POST", "BREW", "X-RANDOM-1", "get"} {
		m.Observe("svc", "/r", method, 200, time.Millisecond)
	}
	want := `
# HELP siteplane_http_requests_total HTTP requests served, by service, route template, method and status code.
# TYPE siteplane_http_requests_total counter
siteplane_http_requests_total{code="200",method="GET",route="/r",service="svc"} 1
siteplane_http_requests_total{code="200",method="POST",route="/r",service="svc"} 1
siteplane_http_requests_total{code="200",method="other",route="/r",service="svc"} 3
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "siteplane_http_requests_total"); err != nil {
		t.Fatal(err)
	}
}
