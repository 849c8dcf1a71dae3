package controller

import (
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

func TestKeyRotationKeepsPreviousKeyForGracePeriod(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "mkt-db")
	site := newSite(ns, "mkt")
	site.Spec.Marketplace.APIKeys = []sitev1.APIKeySpec{{Name: "author", Account: "acme", Rotation: &sitev1.KeyRotation{
		Period: metav1.Duration{Duration: time.Hour}, GracePeriod: &metav1.Duration{Duration: 30 * time.Minute}}}}
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	var first string
	eventually(t, "the first key", func() error {
		var s corev1.Secret
		if err := k8s.Get(ctx, key(ns, "mkt-apikey-author"), &s); err != nil {
			return err
		}
		first = string(s.Data[contract.KeyDirAPIKeyFile])
		return nil
	})
	secretHash := func() string {
		var d appsv1.Deployment
		_ = get(t, ns, "mkt-marketplace", &d)
		return d.Spec.Template.Annotations[resources.AnnotationSecretHash]
	}
	var hash1 string
	eventually(t, "the marketplace Deployment", func() error {
		if hash1 = secretHash(); hash1 == "" {
			return fmt.Errorf("no hash yet")
		}
		return nil
	})
	keyVolume := func() corev1.Volume {
		var d appsv1.Deployment
		_ = get(t, ns, "mkt-marketplace", &d)
		for _, v := range d.Spec.Template.Spec.Volumes {
			if v.Projected != nil {
				return v
			}
		}
		t.Fatal("no projected key volume")
		return corev1.Volume{}
	}
	// The previous key's (optional) source is projected before any rotation,
	// so a rotation changes Secret contents, not the volume: a running pod
	// gets both keys in one kubelet update instead of the new key alone.
	volume1 := keyVolume()
	var d0 appsv1.Deployment
	_ = get(t, ns, "mkt-marketplace", &d0)
	if !projects(d0, "mkt-apikey-author", "author/api-key") || !projects(d0, "mkt-apikey-author-previous", "author-previous/api-key") {
		t.Errorf("key volume before rotation %+v", volume1)
	}

	// Re-applying does not regenerate: a pass before the period ends keeps
	// the key.
	fakeClock.Step(59 * time.Minute)
	settle(t, ns, "mkt")
	var cur corev1.Secret
	_ = get(t, ns, "mkt-apikey-author", &cur)
	if string(cur.Data[contract.KeyDirAPIKeyFile]) != first {
		t.Fatal("the key changed before its rotation period")
	}

	// Rotation: the new key is current, the old one is kept as previous.
	fakeClock.Step(2 * time.Minute)
	poke(t, ns, "mkt")
	var prev corev1.Secret
	eventually(t, "rotation", func() error {
		_ = get(t, ns, "mkt-apikey-author", &cur)
		if string(cur.Data[contract.KeyDirAPIKeyFile]) == first {
			return fmt.Errorf("not rotated")
		}
		if err := k8s.Get(ctx, key(ns, "mkt-apikey-author-previous"), &prev); err != nil {
			return err
		}
		return nil
	})
	if string(prev.Data[contract.KeyDirAPIKeyFile]) != first || string(prev.Data[contract.KeyDirAccountFile]) != "acme" {
		t.Errorf("previous Secret %q", prev.Data)
	}
	if !metav1.IsControlledBy(&prev, getSite(t, ns, "mkt")) {
		t.Error("previous key Secret not owned by the Site")
	}
	eventually(t, "both keys mounted", func() error {
		var d appsv1.Deployment
		_ = get(t, ns, "mkt-marketplace", &d)
		if !projects(d, "mkt-apikey-author", "author/api-key") || !projects(d, "mkt-apikey-author-previous", "author-previous/api-key") {
			return fmt.Errorf("volumes %+v", d.Spec.Template.Spec.Volumes)
		}
		return nil
	})
	// Rotation changes Secret contents only: the pod template, and so the
	// running pods, stay as they are (the marketplace re-reads its key
	// directory, which the kubelet refreshes in place).
	template := func() corev1.PodTemplateSpec {
		var d appsv1.Deployment
		_ = get(t, ns, "mkt-marketplace", &d)
		return d.Spec.Template
	}
	if tmpl := template(); !equality.Semantic.DeepEqual(tmpl, d0.Spec.Template) || secretHash() != hash1 {
		t.Errorf("rotation changed the marketplace pod template (a restart of every pod):\n%+v\n%+v", d0.Spec.Template, tmpl)
	}
	if v := keyVolume(); !equality.Semantic.DeepEqual(v, volume1) {
		t.Errorf("rotation changed the key volume:\n%+v\n%+v", volume1, v)
	}
	eventually(t, "the APIKeyRotated event", func() error {
		if n := countEvents(t, ns, "mkt", "APIKeyRotated"); n != 1 {
			return fmt.Errorf("%d APIKeyRotated events", n)
		}
		return nil
	})
	eventually(t, "the previous key in the status", func() error {
		ks := getSite(t, ns, "mkt").Status.Secrets.APIKeys
		if len(ks) != 1 || ks[0].PreviousSecretName != "mkt-apikey-author-previous" || ks[0].PreviousExpiresAt == nil {
			return fmt.Errorf("status keys %+v", ks)
		}
		return nil
	})

	// Inside the grace period the previous key stays.
	fakeClock.Step(20 * time.Minute)
	settle(t, ns, "mkt")
	if err := get(t, ns, "mkt-apikey-author-previous", &corev1.Secret{}); err != nil {
		t.Fatalf("previous key removed inside its grace period: %v", err)
	}

	// After it, the previous key goes: its Secret is deleted (the optional
	// source stays, empty), and again the pods are not restarted: the
	// kubelet empties the key's directory and the marketplace drops it.
	fakeClock.Step(11 * time.Minute)
	poke(t, ns, "mkt")
	eventually(t, "expiry of the previous key", func() error {
		if err := get(t, ns, "mkt-apikey-author-previous", &corev1.Secret{}); err == nil {
			return fmt.Errorf("previous key still there")
		}
		return nil
	})
	settle(t, ns, "mkt")
	if tmpl := template(); !equality.Semantic.DeepEqual(tmpl, d0.Spec.Template) {
		t.Errorf("expiry changed the marketplace pod template:\n%+v\n%+v", d0.Spec.Template, tmpl)
	}
	_ = get(t, ns, "mkt-apikey-author", &cur)
	if string(cur.Data[contract.KeyDirAPIKeyFile]) == first {
		t.Error("the current key went back to the first one")
	}

	// Removing the key from the spec revokes it.
	updateSite(t, ns, "mkt", func(s *sitev1.Site) { s.Spec.Marketplace.APIKeys = nil })
	eventually(t, "revocation", func() error {
		if err := get(t, ns, "mkt-apikey-author", &corev1.Secret{}); err == nil {
			return fmt.Errorf("key Secret still there")
		}
		return nil
	})
	// Each deletion is reported once: later passes (whose cache may still
	// list a deleted Secret) add no event.
	settle(t, ns, "mkt")
	for reason, want := range map[string]int{"APIKeyIssued": 1, "APIKeyRotated": 1, "APIKeyExpired": 1, "APIKeyRevoked": 1} {
		if n := countEvents(t, ns, "mkt", reason); n != want {
			t.Errorf("%d %s events, want %d", n, reason, want)
		}
	}
}
