package controller

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"siteplane.dev/operator/internal/resources"
)

// TestCacheHoldsOnlyOwnChildren: the manager's cache keeps the child kinds
// of the operator's own objects only (by label), but every Secret but
// Helm's, since the user's database Secret carries no label of ours.
func TestCacheHoldsOnlyOwnChildren(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	own := map[string]string{resources.LabelManagedBy: resources.FieldManager}
	for _, o := range []client.Object{
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "ours", Namespace: ns, Labels: own}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "theirs", Namespace: ns}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "user-db", Namespace: ns}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "sh.helm.release.v1.x.v1", Namespace: ns}, Type: "helm.sh/release.v1"},
	} {
		if err := k8s.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	c, err := cache.New(operatorCfg, func() cache.Options {
		o := CacheOptions(ns)
		o.Scheme = k8s.Scheme()
		return o
	}())
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { _ = c.Start(runCtx) }()
	if !c.WaitForCacheSync(ctx) {
		t.Fatal("cache did not sync")
	}
	var cms corev1.ConfigMapList
	if err := c.List(ctx, &cms, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	var secrets corev1.SecretList
	if err := c.List(ctx, &secrets, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	names := func(items []string) map[string]bool {
		m := map[string]bool{}
		for _, n := range items {
			m[n] = true
		}
		return m
	}
	var cmNames, secretNames []string
	for _, o := range cms.Items {
		cmNames = append(cmNames, o.Name)
	}
	for _, o := range secrets.Items {
		secretNames = append(secretNames, o.Name)
	}
	if got := names(cmNames); !got["ours"] || got["theirs"] {
		t.Errorf("cached ConfigMaps %v, want ours only", cmNames)
	}
	if got := names(secretNames); !got["user-db"] || got["sh.helm.release.v1.x.v1"] {
		t.Errorf("cached Secrets %v, want the user's and no Helm release", secretNames)
	}
}
