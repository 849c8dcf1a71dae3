package controller

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// TestRejectedChildIsReportedInStatus: when the API server refuses a child
// (here a ResourceQuota forbids the media claim), the Site says so in Ready
// and its phase instead of only in the operator's log, with one Warning
// event; once the obstacle is gone the site provisions.
func TestRejectedChildIsReportedInStatus(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "quota-db")
	quota := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "no-claims", Namespace: ns},
		Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{corev1.ResourcePersistentVolumeClaims: resource.MustParse("0")}}}
	if err := k8s.Create(ctx, quota); err != nil {
		t.Fatal(err)
	}
	// envtest runs no quota controller: write the usage it would.
	quota.Status = corev1.ResourceQuotaStatus{Hard: quota.Spec.Hard,
		Used: corev1.ResourceList{corev1.ResourcePersistentVolumeClaims: resource.MustParse("0")}}
	if err := k8s.Status().Update(ctx, quota); err != nil {
		t.Fatal(err)
	}
	if err := k8s.Create(ctx, newSite(ns, "quota")); err != nil {
		t.Fatal(err)
	}

	s := waitCondition(t, ns, "quota", sitev1.ConditionReady, metav1.ConditionFalse)
	eventually(t, "the rejection in status", func() error {
		s = getSite(t, ns, "quota")
		c := meta.FindStatusCondition(s.Status.Conditions, sitev1.ConditionReady)
		if c.Reason != sitev1.ReasonApplyRejected || !strings.Contains(c.Message, "exceeded quota") {
			return fmt.Errorf("Ready %+v", c)
		}
		if s.Status.Phase != sitev1.PhaseDegraded {
			return fmt.Errorf("phase %s", s.Status.Phase)
		}
		return nil
	})
	eventually(t, "one Degraded event", func() error {
		if n := countEvents(t, ns, "quota", string(sitev1.PhaseDegraded)); n != 1 {
			return fmt.Errorf("%d Degraded events", n)
		}
		return nil
	})

	if err := k8s.Delete(ctx, quota); err != nil {
		t.Fatal(err)
	}
	poke(t, ns, "quota") // skip the error back-off
	eventually(t, "provisioning after the quota is gone", func() error {
		s = getSite(t, ns, "quota")
		if err := k8s.Get(ctx, key(ns, "quota-media"), &corev1.PersistentVolumeClaim{}); err != nil {
			return err
		}
		c := meta.FindStatusCondition(s.Status.Conditions, sitev1.ConditionReady)
		if c.Reason == sitev1.ReasonApplyRejected || s.Status.Phase != sitev1.PhaseProvisioning || s.Status.ObservedGeneration != s.Generation {
			return fmt.Errorf("Ready %+v phase %s", c, s.Status.Phase)
		}
		return nil
	})
}
