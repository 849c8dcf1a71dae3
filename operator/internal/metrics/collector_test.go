package metrics

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

func TestCollector(t *testing.T) {
	now := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	created := metav1.NewTime(now.Add(-90 * time.Minute))
	sites := []sitev1.Site{
		{
			ObjectMeta: metav1.ObjectMeta{Namespace: "web", Name: "blog"},
			Status: sitev1.SiteStatus{
				Conditions: []metav1.Condition{
					{Type: "Ready", Status: metav1.ConditionTrue},
					{Type: "GatewayReady", Status: metav1.ConditionTrue},
					{Type: "ContentReady", Status: metav1.ConditionTrue},
					{Type: "MediaReady", Status: metav1.ConditionTrue},
					{Type: "MarketplaceReady", Status: metav1.ConditionTrue},
				},
				Secrets: sitev1.SecretsStatus{APIKeys: []sitev1.APIKeyStatus{
					{Name: "shop", SecretName: "blog-apikey-shop", CreatedAt: &created},
					{Name: "pending", SecretName: "blog-apikey-pending"}, // no timestamp yet: no series
				}},
			},
		},
		{
			ObjectMeta: metav1.ObjectMeta{Namespace: "web", Name: "news"},
			Status: sitev1.SiteStatus{Conditions: []metav1.Condition{
				{Type: "Ready", Status: metav1.ConditionFalse},
				{Type: "GatewayReady", Status: metav1.ConditionTrue},
				{Type: "ContentReady", Status: metav1.ConditionFalse},
			}},
		},
	}
	c := NewCollector(func(context.Context) ([]sitev1.Site, error) { return sites, nil }, func() time.Time { return now })
	want := `
# HELP siteplane_apikey_age_seconds Seconds since the current marketplace API key of the Site was generated.
# TYPE siteplane_apikey_age_seconds gauge
siteplane_apikey_age_seconds{key="shop",namespace="web",site="blog"} 5400
# HELP siteplane_site_component_ready Whether a component of the Site is ready (1) or not (0).
# TYPE siteplane_site_component_ready gauge
siteplane_site_component_ready{component="content",namespace="web",site="blog"} 1
siteplane_site_component_ready{component="content",namespace="web",site="news"} 0
siteplane_site_component_ready{component="gateway",namespace="web",site="blog"} 1
siteplane_site_component_ready{component="gateway",namespace="web",site="news"} 1
siteplane_site_component_ready{component="marketplace",namespace="web",site="blog"} 1
siteplane_site_component_ready{component="marketplace",namespace="web",site="news"} 0
siteplane_site_component_ready{component="media",namespace="web",site="blog"} 1
siteplane_site_component_ready{component="media",namespace="web",site="news"} 0
# HELP siteplane_site_ready Whether the Site's Ready condition is True (1) or not (0).
# TYPE siteplane_site_ready gauge
siteplane_site_ready{namespace="web",site="blog"} 1
siteplane_site_ready{namespace="web",site="news"} 0
`
	if err := testutil.CollectAndCompare(c, strings.NewReader(want),
		"siteplane_site_ready", "siteplane_site_component_ready", "siteplane_apikey_age_seconds"); err != nil {
		t.Error(err)
	}
	if problems, err := testutil.CollectAndLint(c); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

func TestCollectorListError(t *testing.T) {
	c := NewCollector(func(context.Context) ([]sitev1.Site, error) { return nil, errors.New("cache not started") }, nil)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(c)
	if _, err := reg.Gather(); err != nil {
		t.Fatal(err)
	}
	if got := testutil.ToFloat64(c.listErrors); got != 1 {
		t.Errorf("list errors %v, want 1", got)
	}
}
