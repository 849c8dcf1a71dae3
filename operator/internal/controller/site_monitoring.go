package controller

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
)

// reconcileMonitoring writes the site's ServiceMonitor when the Prometheus
// Operator's CRD is served and monitoring is enabled, and removes it when
// monitoring is switched off.
func (r *SiteReconciler) reconcileMonitoring(ctx context.Context, site *sitev1.Site, _ *pass) error {
	served, err := r.served.isServed(r.RESTMapper(), resources.ServiceMonitorGVK, r.Clock.Now())
	if err != nil || !served {
		return err
	}
	if sitev1.BoolOr(site.Spec.Monitoring.ServiceMonitor.Enabled, true) {
		if err := r.apply(ctx, client.ApplyConfigurationFromUnstructured(resources.ServiceMonitor(site))); err != nil {
			return fmt.Errorf("apply ServiceMonitor: %w", err)
		}
		return nil
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(resources.ServiceMonitorGVK)
	if err := r.deleteIfOwned(ctx, site, u, resources.ExposureName(site.Name)); err != nil {
		return fmt.Errorf("delete ServiceMonitor: %w", err)
	}
	return nil
}
