package controller

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
)

func monitorObject() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(resources.ServiceMonitorGVK)
	return u
}

func routeObject() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(resources.HTTPRouteGVK)
	return u
}

func TestHTTPRouteAndServiceMonitor(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "gw-db")
	site := newSite(ns, "gw")
	site.Spec.Exposure = sitev1.ExposureSpec{Type: sitev1.ExposureHTTPRoute, HTTPRoute: &sitev1.HTTPRouteSpec{
		ParentRefs: []sitev1.ParentReference{{Name: "public", Namespace: "infra"}}, Hostnames: []string{"gw.example.com"}}}
	site.Spec.Monitoring.ServiceMonitor.Labels = map[string]string{"release": "kps"}
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	s := waitCondition(t, ns, "gw", sitev1.ConditionRoutesReady, metav1.ConditionTrue)
	route := routeObject()
	if err := get(t, ns, "gw", route); err != nil {
		t.Fatalf("HTTPRoute: %v", err)
	}
	if !metav1.IsControlledBy(route, s) {
		t.Errorf("HTTPRoute owners %+v", route.GetOwnerReferences())
	}
	refs, _, _ := unstructured.NestedSlice(route.Object, "spec", "rules")
	backend := refs[0].(map[string]any)["backendRefs"].([]any)[0].(map[string]any)
	if backend["name"] != "gw-gateway" {
		t.Errorf("backend %v", backend)
	}
	mon := monitorObject()
	if err := get(t, ns, "gw", mon); err != nil || mon.GetLabels()["release"] != "kps" {
		t.Errorf("ServiceMonitor %v labels %v", err, mon.GetLabels())
	}

	updateSite(t, ns, "gw", func(s *sitev1.Site) {
		s.Spec.Exposure = sitev1.ExposureSpec{Type: sitev1.ExposureNone}
		s.Spec.Monitoring.ServiceMonitor.Enabled = ptr.To(false)
	})
	eventually(t, "HTTPRoute and ServiceMonitor removal", func() error {
		if err := get(t, ns, "gw", routeObject()); err == nil {
			return fmt.Errorf("HTTPRoute still there")
		}
		if err := get(t, ns, "gw", monitorObject()); err == nil {
			return fmt.Errorf("ServiceMonitor still there")
		}
		return nil
	})
}
