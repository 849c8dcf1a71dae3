package resources

import (
	"maps"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// ServiceMonitorGVK is the Prometheus Operator kind written when served.
var ServiceMonitorGVK = schema.GroupVersionKind{Group: "monitoring.coreos.com", Version: "v1", Kind: "ServiceMonitor"}

// ServiceMonitor scrapes the metrics port of every component Service of the
// site. The spec's labels are added so a Prometheus can select it.
func ServiceMonitor(site *sitev1.Site) *unstructured.Unstructured {
	u := newUnstructured(site, ServiceMonitorGVK, ExposureName(site.Name), "monitoring")
	labels := map[string]string{}
	maps.Copy(labels, site.Spec.Monitoring.ServiceMonitor.Labels)
	maps.Copy(labels, u.GetLabels()) // the operator's own labels win
	u.SetLabels(labels)
	endpoint := map[string]any{"port": PortMetrics, "path": contract.MetricsPath}
	if iv := site.Spec.Monitoring.ServiceMonitor.Interval; iv != "" {
		endpoint["interval"] = iv
	}
	sel := map[string]any{}
	for k, v := range SiteSelectorLabels(site) {
		sel[k] = v
	}
	u.Object["spec"] = map[string]any{
		"selector":  map[string]any{"matchLabels": sel},
		"endpoints": []any{endpoint},
		// Carry the component onto every scraped series.
		"targetLabels": []any{LabelComponent},
	}
	return u
}
