package controller

import (
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// The internal key rotates on request with a grace window, without
// restarting a pod; the gateway secret of a Site made before it existed is
// the internal key as it was, so stored password hashes stay valid.
func TestInternalKeyRotation(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "ik-db")
	// A Site from before the gateway secret: its internal key exists.
	legacy := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: resources.InternalKeySecretName("ik")},
		Data: map[string][]byte{contract.InternalKeySecretKey: []byte("legacy-key")}}
	if err := k8s.Create(ctx, legacy); err != nil {
		t.Fatal(err)
	}
	site := newSite(ns, "ik")
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	var internal, gw corev1.Secret
	eventually(t, "the gateway secret", func() error {
		return get(t, ns, resources.GatewaySecretName("ik"), &gw)
	})
	if string(gw.Data[contract.GatewaySecretKey]) != "legacy-key" {
		t.Fatalf("gateway secret %q, want the legacy internal key carried over", gw.Data[contract.GatewaySecretKey])
	}
	secretHash := func(component string) string {
		var d appsv1.Deployment
		_ = get(t, ns, "ik-"+component, &d)
		return d.Spec.Template.Annotations[resources.AnnotationSecretHash]
	}
	var hash string
	eventually(t, "the content Deployment", func() error {
		if hash = secretHash(contract.ServiceContent); hash == "" {
			return fmt.Errorf("no hash yet")
		}
		return nil
	})

	updateSite(t, ns, "ik", func(s *sitev1.Site) {
		if s.Annotations == nil {
			s.Annotations = map[string]string{}
		}
		s.Annotations[resources.AnnotationRotateInternalKey] = "2026-11-23"
	})
	eventually(t, "rotation", func() error {
		_ = get(t, ns, resources.InternalKeySecretName("ik"), &internal)
		if string(internal.Data[contract.InternalKeyPreviousSecretKey]) != "legacy-key" || string(internal.Data[contract.InternalKeySecretKey]) == "legacy-key" {
			return fmt.Errorf("secret %q", internal.Data)
		}
		return nil
	})
	if len(internal.Data[contract.InternalKeyRotatedAtSecretKey]) == 0 {
		t.Error("no rotation time")
	}
	settle(t, ns, "ik")
	if h := secretHash(contract.ServiceContent); h != hash {
		t.Error("the rotation changed the pod template (a restart)")
	}
	_ = get(t, ns, resources.GatewaySecretName("ik"), &gw)
	if string(gw.Data[contract.GatewaySecretKey]) != "legacy-key" {
		t.Error("the rotation changed the gateway secret")
	}
	eventually(t, "the InternalKeyRotated event", func() error {
		if n := countEvents(t, ns, "ik", "InternalKeyRotated"); n != 1 {
			return fmt.Errorf("%d events", n)
		}
		return nil
	})
	current := string(internal.Data[contract.InternalKeySecretKey])

	// After the grace window the previous key is dropped.
	fakeClock.Step(resources.InternalKeyGrace + time.Minute)
	poke(t, ns, "ik")
	eventually(t, "expiry of the previous key", func() error {
		_ = get(t, ns, resources.InternalKeySecretName("ik"), &internal)
		if len(internal.Data[contract.InternalKeyPreviousSecretKey]) != 0 {
			return fmt.Errorf("previous key still there")
		}
		return nil
	})
	if string(internal.Data[contract.InternalKeySecretKey]) != current {
		t.Error("the current key changed at expiry")
	}
	var mp appsv1.Deployment
	_ = get(t, ns, "ik-marketplace", &mp)
	for _, v := range mp.Spec.Template.Spec.Volumes {
		if v.Secret != nil && v.Secret.SecretName == resources.InternalKeySecretName("ik") {
			t.Error("the marketplace mounts the internal key")
		}
	}
}
