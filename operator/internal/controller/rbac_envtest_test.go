package controller

import (
	"context"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestManagerRunsWithGeneratedRoleOnly proves the suite's reconciler runs
// with the generated role and nothing more (so every other test in the
// suite doubles as an RBAC test), and pins the least-privilege shape of
// that role: server-side apply needs create and patch, never update.
func TestManagerRunsWithGeneratedRoleOnly(t *testing.T) {
	requireEnv(t)
	c, err := client.New(operatorCfg, client.Options{Scheme: k8s.Scheme()})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		group, resource, subresource, verb string
		allowed                            bool
	}{
		{"apps", "deployments", "", "patch", true},
		{"apps", "deployments", "", "create", true},
		{"", "secrets", "", "delete", true},
		{"siteplane.dev", "sites", "status", "patch", true},
		{"siteplane.dev", "sites", "finalizers", "update", true},
		{"events.k8s.io", "events", "", "create", true},
		// Not needed: every write is an apply (PATCH) or a delete.
		{"apps", "deployments", "", "update", false},
		{"", "secrets", "", "update", false},
		{"siteplane.dev", "sites", "status", "update", false},
		// The operator never changes a Site's spec, nor touches pods.
		{"siteplane.dev", "sites", "", "patch", false},
		// Children that only go with the Site go through the garbage
		// collector, never an operator delete.
		{"apps", "deployments", "", "delete", false},
		{"", "services", "", "delete", false},
		{"", "configmaps", "", "delete", false},
		{"", "persistentvolumeclaims", "", "delete", false},
		{"networking.k8s.io", "ingresses", "", "delete", true},
		// Pods are listed (uncached) to say why a component is not available.
		{"", "pods", "", "list", true},
		{"", "pods", "", "get", false},
		{"", "pods", "", "delete", false},
		{"rbac.authorization.k8s.io", "clusterroles", "", "create", false},
	}
	for _, tt := range tests {
		review := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{
				Namespace: "default", Group: tt.group, Resource: tt.resource, Subresource: tt.subresource, Verb: tt.verb,
			}}}
		if err := c.Create(context.Background(), review); err != nil {
			t.Fatal(err)
		}
		if review.Status.Allowed != tt.allowed {
			t.Errorf("%s %s.%s/%s: allowed=%t, want %t", tt.verb, tt.resource, tt.group, tt.subresource, review.Status.Allowed, tt.allowed)
		}
	}
}
