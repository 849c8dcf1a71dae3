package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
)

// reconcileConfig renders the site settings and the route file with the
// contract's types and writes the site ConfigMap. It returns false when the
// spec cannot be rendered (for example an unknown time zone, which CEL
// cannot check): RoutesReady then says why and nothing else is written.
func (r *SiteReconciler) reconcileConfig(ctx context.Context, site *sitev1.Site, p *pass) (bool, error) {
	data, err := resources.ConfigData(site)
	if err != nil {
		prev := findCondition(site, sitev1.ConditionRoutesReady)
		setCondition(site, metav1.Condition{Type: sitev1.ConditionRoutesReady, Status: metav1.ConditionFalse,
			Reason: sitev1.ReasonInvalidSettings, Message: err.Error()})
		if prev == nil || prev.Reason != sitev1.ReasonInvalidSettings {
			r.event(site, nil, corev1.EventTypeWarning, sitev1.ReasonInvalidSettings, "Render", "%v", err)
		}
		return false, nil
	}
	if err := r.applyMemoized(ctx, resources.ConfigMap(site, data)); err != nil {
		return false, fmt.Errorf("apply ConfigMap: %w", err)
	}
	p.mounted.Config = data
	return true, nil
}
