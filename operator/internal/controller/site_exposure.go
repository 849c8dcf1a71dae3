package controller

import (
	"context"
	"fmt"
	"time"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
)

// requeueMissingAPI re-checks for the Gateway API when a Site asks for an
// HTTPRoute in a cluster that does not serve it.
const requeueMissingAPI = time.Minute

// reconcileExposure writes the Ingress or the HTTPRoute the spec asks for,
// removes the other, and sets RoutesReady.
func (r *SiteReconciler) reconcileExposure(ctx context.Context, site *sitev1.Site, p *pass) error {
	name := resources.ExposureName(site.Name)
	typ := site.Spec.Exposure.Type
	cond := metav1.Condition{Type: sitev1.ConditionRoutesReady, Status: metav1.ConditionTrue}

	if typ == sitev1.ExposureIngress {
		if err := r.applyMemoized(ctx, resources.Ingress(site)); err != nil {
			return fmt.Errorf("apply Ingress: %w", err)
		}
		cond.Reason, cond.Message = sitev1.ReasonRoutesConfigured, "route file rendered; Ingress "+name+" routes to the gateway"
	} else if err := r.deleteIfOwned(ctx, site, &networkingv1.Ingress{}, name); err != nil {
		return fmt.Errorf("delete Ingress: %w", err)
	}

	served, err := r.served.isServed(r.RESTMapper(), resources.HTTPRouteGVK, r.Clock.Now())
	if err != nil {
		return fmt.Errorf("discover HTTPRoute: %w", err)
	}
	switch {
	case typ == sitev1.ExposureHTTPRoute && served:
		if err := r.apply(ctx, client.ApplyConfigurationFromUnstructured(resources.HTTPRoute(site))); err != nil {
			return fmt.Errorf("apply HTTPRoute: %w", err)
		}
		cond.Reason, cond.Message = sitev1.ReasonRoutesConfigured, "route file rendered; HTTPRoute "+name+" routes to the gateway"
	case typ == sitev1.ExposureHTTPRoute:
		cond.Status, cond.Reason = metav1.ConditionFalse, sitev1.ReasonGatewayAPIMissing
		cond.Message = "exposure type HTTPRoute needs the Gateway API (gateway.networking.k8s.io/v1 HTTPRoute), which the cluster does not serve"
		p.waitFor(requeueMissingAPI)
	case served:
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(resources.HTTPRouteGVK)
		if err := r.deleteIfOwned(ctx, site, u, name); err != nil {
			return fmt.Errorf("delete HTTPRoute: %w", err)
		}
	}
	if typ == sitev1.ExposureNone || typ == "" {
		cond.Reason, cond.Message = sitev1.ReasonNotExposed, "route file rendered; the gateway is reachable inside the cluster only"
	}
	setCondition(site, cond)
	return nil
}
