package resources

import (
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	networkingv1ac "k8s.io/client-go/applyconfigurations/networking/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// HTTPRouteGVK is the Gateway API kind written for exposure type HTTPRoute.
// It is written as unstructured so the operator does not depend on the
// Gateway API module, and only when the cluster serves it.
var HTTPRouteGVK = schema.GroupVersionKind{Group: "gateway.networking.k8s.io", Version: "v1", Kind: "HTTPRoute"}

// Ingress routes every path of the host to the gateway Service.
func Ingress(site *sitev1.Site) *networkingv1ac.IngressApplyConfiguration {
	spec := site.Spec.Exposure.Ingress
	backend := networkingv1ac.IngressBackend().WithService(networkingv1ac.IngressServiceBackend().
		WithName(ComponentName(site.Name, contract.ServiceGateway)).
		WithPort(networkingv1ac.ServiceBackendPort().WithName(PortHTTP)))
	is := networkingv1ac.IngressSpec().WithRules(networkingv1ac.IngressRule().
		WithHost(spec.Host).
		WithHTTP(networkingv1ac.HTTPIngressRuleValue().WithPaths(networkingv1ac.HTTPIngressPath().
			WithPath("/").WithPathType(networkingv1.PathTypePrefix).WithBackend(backend))))
	if spec.ClassName != nil {
		is.WithIngressClassName(*spec.ClassName)
	}
	if spec.TLSSecretName != "" {
		is.WithTLS(networkingv1ac.IngressTLS().WithHosts(spec.Host).WithSecretName(spec.TLSSecretName))
	}
	ing := networkingv1ac.Ingress(ExposureName(site.Name), site.Namespace).
		WithLabels(Labels(site, contract.ServiceGateway)).
		WithOwnerReferences(OwnerReference(site)).
		WithSpec(is)
	if len(spec.Annotations) > 0 {
		ing.WithAnnotations(spec.Annotations)
	}
	return ing
}

// HTTPRoute attaches the gateway Service to the spec's Gateways.
func HTTPRoute(site *sitev1.Site) *unstructured.Unstructured {
	spec := site.Spec.Exposure.HTTPRoute
	parents := make([]any, 0, len(spec.ParentRefs))
	for _, p := range spec.ParentRefs {
		ref := map[string]any{"name": p.Name}
		if p.Namespace != "" {
			ref["namespace"] = p.Namespace
		}
		if p.SectionName != "" {
			ref["sectionName"] = p.SectionName
		}
		parents = append(parents, ref)
	}
	routeSpec := map[string]any{
		"parentRefs": parents,
		"rules": []any{map[string]any{
			"matches": []any{map[string]any{"path": map[string]any{"type": "PathPrefix", "value": "/"}}},
			"backendRefs": []any{map[string]any{
				"name": ComponentName(site.Name, contract.ServiceGateway),
				"port": int64(contract.DefaultAPIPort),
			}},
		}},
	}
	if len(spec.Hostnames) > 0 {
		hosts := make([]any, 0, len(spec.Hostnames))
		for _, h := range spec.Hostnames {
			hosts = append(hosts, h)
		}
		routeSpec["hostnames"] = hosts
	}
	u := newUnstructured(site, HTTPRouteGVK, ExposureName(site.Name), contract.ServiceGateway)
	if len(spec.Annotations) > 0 {
		u.SetAnnotations(spec.Annotations)
	}
	u.Object["spec"] = routeSpec
	return u
}

// newUnstructured starts an unstructured child with labels and owner.
func newUnstructured(site *sitev1.Site, gvk schema.GroupVersionKind, name, component string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(gvk)
	u.SetName(name)
	u.SetNamespace(site.Namespace)
	u.SetLabels(Labels(site, component))
	u.Object["metadata"].(map[string]any)["ownerReferences"] = []any{map[string]any{
		"apiVersion":         sitev1.GroupVersion.String(),
		"kind":               "Site",
		"name":               site.Name,
		"uid":                string(site.UID),
		"controller":         true,
		"blockOwnerDeletion": true,
	}}
	return u
}
