package controller

import (
	"context"
	"fmt"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// reconcilePolicies writes a PodDisruptionBudget for each component that
// can run more than one replica (and removes it when it cannot), the
// HorizontalPodAutoscaler of each autoscaled component (removing it when
// autoscaling is switched off), and the NetworkPolicies when enabled.
func (r *SiteReconciler) reconcilePolicies(ctx context.Context, site *sitev1.Site, _ *pass) error {
	netpol := resources.NetworkPolicyEnabled(site)
	for _, component := range contract.Services {
		name := resources.ComponentName(site.Name, component)
		if resources.NeedsPDB(site, component) {
			if err := r.applyMemoized(ctx, resources.PodDisruptionBudget(site, component)); err != nil {
				return fmt.Errorf("apply PodDisruptionBudget %s: %w", name, err)
			}
		} else if err := r.deleteIfOwned(ctx, site, &policyv1.PodDisruptionBudget{}, name); err != nil {
			return fmt.Errorf("delete PodDisruptionBudget %s: %w", name, err)
		}
		if site.Component(component).Autoscaling != nil {
			if err := r.applyMemoized(ctx, resources.HorizontalPodAutoscaler(site, component)); err != nil {
				return fmt.Errorf("apply HorizontalPodAutoscaler %s: %w", name, err)
			}
		} else if err := r.deleteIfOwned(ctx, site, &autoscalingv2.HorizontalPodAutoscaler{}, name); err != nil {
			return fmt.Errorf("delete HorizontalPodAutoscaler %s: %w", name, err)
		}
		if netpol {
			if err := r.applyMemoized(ctx, resources.NetworkPolicy(site, component)); err != nil {
				return fmt.Errorf("apply NetworkPolicy %s: %w", name, err)
			}
		} else if err := r.deleteIfOwned(ctx, site, &networkingv1.NetworkPolicy{}, name); err != nil {
			return fmt.Errorf("delete NetworkPolicy %s: %w", name, err)
		}
	}
	return nil
}
