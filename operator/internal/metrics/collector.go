// Package metrics exports the state of every Site at scrape time, in the
// style of cert-manager's collectors: nothing is updated in the reconcile
// loop, so the series can never drift from the Sites' status.
package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

var (
	siteReadyDesc = prometheus.NewDesc("siteplane_site_ready",
		"Whether the Site's Ready condition is True (1) or not (0).",
		[]string{"namespace", "site"}, nil)
	componentReadyDesc = prometheus.NewDesc("siteplane_site_component_ready",
		"Whether a component of the Site is ready (1) or not (0).",
		[]string{"namespace", "site", "component"}, nil)
	apiKeyAgeDesc = prometheus.NewDesc("siteplane_apikey_age_seconds",
		"Seconds since the current marketplace API key of the Site was generated.",
		[]string{"namespace", "site", "key"}, nil)
)

// SiteLister lists the Sites to report (the manager's cached client).
type SiteLister func(ctx context.Context) ([]sitev1.Site, error)

// Collector is a prometheus.Collector over the Sites.
type Collector struct {
	list SiteLister
	now  func() time.Time
	// listErrors counts scrapes whose listing failed: a failed list yields
	// no site series at all, which alone would look like "no Sites".
	listErrors prometheus.Counter
}

// NewCollector returns a collector listing Sites with list; now defaults to
// time.Now.
func NewCollector(list SiteLister, now func() time.Time) *Collector {
	if now == nil {
		now = time.Now
	}
	return &Collector{list: list, now: now, listErrors: prometheus.NewCounter(prometheus.CounterOpts{
		Name: "siteplane_site_collector_errors_total",
		Help: "Scrapes during which the Sites could not be listed.",
	})}
}

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- siteReadyDesc
	ch <- componentReadyDesc
	ch <- apiKeyAgeDesc
	c.listErrors.Describe(ch)
}

// Collect implements prometheus.Collector.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	sites, err := c.list(ctx)
	if err != nil {
		c.listErrors.Inc()
	}
	c.listErrors.Collect(ch)
	now := c.now()
	for i := range sites {
		s := &sites[i]
		ch <- prometheus.MustNewConstMetric(siteReadyDesc, prometheus.GaugeValue,
			conditionValue(s.Status.Conditions, sitev1.ConditionReady), s.Namespace, s.Name)
		for _, comp := range contract.Services {
			ch <- prometheus.MustNewConstMetric(componentReadyDesc, prometheus.GaugeValue,
				conditionValue(s.Status.Conditions, sitev1.ComponentConditionType(comp)), s.Namespace, s.Name, comp)
		}
		for _, k := range s.Status.Secrets.APIKeys {
			if k.CreatedAt == nil {
				continue
			}
			ch <- prometheus.MustNewConstMetric(apiKeyAgeDesc, prometheus.GaugeValue,
				now.Sub(k.CreatedAt.Time).Seconds(), s.Namespace, s.Name, k.Name)
		}
	}
}

func conditionValue(conds []metav1.Condition, t string) float64 {
	if meta.IsStatusConditionTrue(conds, t) {
		return 1
	}
	return 0
}
