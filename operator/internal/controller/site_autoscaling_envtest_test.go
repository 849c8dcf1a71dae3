package controller

import (
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
)

// TestAutoscalingHandsReplicasToTheHPA: with autoscaling the operator writes
// a HorizontalPodAutoscaler and a PDB, never resets the replica count the
// autoscaler chose, and judges readiness against that count; switching
// autoscaling off removes the autoscaler and restores spec.replicas.
func TestAutoscalingHandsReplicasToTheHPA(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "auto-db")
	site := newSite(ns, "auto")
	site.Spec.Components.Content.Autoscaling = &sitev1.AutoscalingSpec{
		MinReplicas: ptr.To[int32](2), MaxReplicas: 5, TargetCPUUtilization: ptr.To[int32](70)}
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	s := waitCondition(t, ns, "auto", sitev1.ConditionRoutesReady, metav1.ConditionTrue)
	var hpa autoscalingv2.HorizontalPodAutoscaler
	eventually(t, "the HorizontalPodAutoscaler", func() error { return k8s.Get(ctx, key(ns, "auto-content"), &hpa) })
	if !metav1.IsControlledBy(&hpa, s) || *hpa.Spec.MinReplicas != 2 || hpa.Spec.MaxReplicas != 5 ||
		hpa.Spec.ScaleTargetRef.Name != "auto-content" {
		t.Errorf("HPA %+v owners %+v", hpa.Spec, hpa.OwnerReferences)
	}
	if err := get(t, ns, "auto-content", &policyv1.PodDisruptionBudget{}); err != nil {
		t.Errorf("PDB of an autoscaled component: %v", err)
	}
	for _, c := range []string{"gateway", "media", "marketplace"} {
		if err := get(t, ns, "auto-"+c, &autoscalingv2.HorizontalPodAutoscaler{}); err == nil {
			t.Errorf("%s has an HPA without autoscaling", c)
		}
	}

	// The autoscaler (here the test, as its field manager) picks 4 replicas.
	eventually(t, "the autoscaler's scale", func() error {
		var d appsv1.Deployment
		if err := k8s.Get(ctx, key(ns, "auto-content"), &d); err != nil {
			return err
		}
		d.Spec.Replicas = ptr.To[int32](4)
		return k8s.Update(ctx, &d, client.FieldOwner("horizontal-pod-autoscaler"))
	})
	setAllAvailable(t, ns, "auto")
	waitCondition(t, ns, "auto", sitev1.ConditionReady, metav1.ConditionTrue)

	// A later pass leaves the autoscaler's choice alone.
	settle(t, ns, "auto")
	var d appsv1.Deployment
	_ = get(t, ns, "auto-content", &d)
	if *d.Spec.Replicas != 4 {
		t.Errorf("the operator reset the autoscaled replicas to %d", *d.Spec.Replicas)
	}

	// The autoscaler's frequent status writes cause no passes.
	k := types.NamespacedName{Namespace: ns, Name: "auto"}
	before := passesQuiet(t, k)
	eventually(t, "an autoscaler status write", func() error {
		var h autoscalingv2.HorizontalPodAutoscaler
		if err := k8s.Get(ctx, key(ns, "auto-content"), &h); err != nil {
			return err
		}
		h.Status = autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: 4, DesiredReplicas: 4,
			LastScaleTime: &metav1.Time{Time: time.Now().Truncate(time.Second)}}
		return k8s.Status().Update(ctx, &h)
	})
	time.Sleep(2 * time.Second)
	if n := passes.get(k) - before; n != 0 {
		t.Errorf("%d passes after an autoscaler status write", n)
	}

	// Readiness is measured against the autoscaler's 4, not spec.replicas.
	eventually(t, "2 of 4 content pods available", func() error {
		var d appsv1.Deployment
		if err := k8s.Get(ctx, key(ns, "auto-content"), &d); err != nil {
			return err
		}
		d.Status.AvailableReplicas, d.Status.ReadyReplicas, d.Status.UnavailableReplicas = 2, 2, 2
		return k8s.Status().Update(ctx, &d)
	})
	s = waitCondition(t, ns, "auto", sitev1.ConditionReady, metav1.ConditionFalse)
	if c := meta.FindStatusCondition(s.Status.Conditions, "ContentReady"); c == nil || c.Status != metav1.ConditionFalse {
		t.Errorf("ContentReady %+v with 2 of 4 pods", c)
	}

	// Autoscaling off: the HPA and the PDB go, spec.replicas (1) is back.
	updateSite(t, ns, "auto", func(s *sitev1.Site) { s.Spec.Components.Content.Autoscaling = nil })
	eventually(t, "the HPA and PDB to go and replicas to return", func() error {
		if err := get(t, ns, "auto-content", &autoscalingv2.HorizontalPodAutoscaler{}); err == nil {
			return fmt.Errorf("HPA still there")
		}
		if err := get(t, ns, "auto-content", &policyv1.PodDisruptionBudget{}); err == nil {
			return fmt.Errorf("PDB still there")
		}
		var d appsv1.Deployment
		_ = get(t, ns, "auto-content", &d)
		if *d.Spec.Replicas != 1 {
			return fmt.Errorf("replicas %d", *d.Spec.Replicas)
		}
		return nil
	})
}

// TestAutoscalingOnKeepsTheReplicaCount: turning autoscaling on for a
// running component must not scale it down first. Were the operator the
// only owner of spec.replicas when its apply stops carrying the field,
// server-side apply would drop it and the API server default it to 1,
// until the autoscaler (here none runs) scaled back up.
func TestAutoscalingOnKeepsTheReplicaCount(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "busy-db")
	site := newSite(ns, "busy")
	site.Spec.Components.Content.Replicas = ptr.To[int32](3)
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	eventually(t, "3 content replicas", func() error {
		var d appsv1.Deployment
		if err := k8s.Get(ctx, key(ns, "busy-content"), &d); err != nil {
			return err
		}
		if d.Spec.Replicas == nil || *d.Spec.Replicas != 3 {
			return fmt.Errorf("replicas %v", d.Spec.Replicas)
		}
		return nil
	})

	updateSite(t, ns, "busy", func(s *sitev1.Site) {
		s.Spec.Components.Content.Autoscaling = &sitev1.AutoscalingSpec{MinReplicas: ptr.To[int32](1), MaxReplicas: 6}
	})
	eventually(t, "the HorizontalPodAutoscaler", func() error {
		return k8s.Get(ctx, key(ns, "busy-content"), &autoscalingv2.HorizontalPodAutoscaler{})
	})
	settle(t, ns, "busy")
	var d appsv1.Deployment
	if err := k8s.Get(ctx, key(ns, "busy-content"), &d); err != nil {
		t.Fatal(err)
	}
	if *d.Spec.Replicas != 3 {
		t.Errorf("turning autoscaling on changed the replicas to %d, want 3 until the autoscaler decides", *d.Spec.Replicas)
	}
	if ownsReplicas(d.ManagedFields, resources.FieldManager) {
		t.Error("the operator still owns spec.replicas: the autoscaler's changes would be reverted")
	}

	// The autoscaler scales; later passes leave its choice alone.
	d.Spec.Replicas = ptr.To[int32](5)
	if err := k8s.Update(ctx, &d, client.FieldOwner("horizontal-pod-autoscaler")); err != nil {
		t.Fatal(err)
	}
	settle(t, ns, "busy")
	_ = get(t, ns, "busy-content", &d)
	if *d.Spec.Replicas != 5 {
		t.Errorf("the operator reset the autoscaler's 5 replicas to %d", *d.Spec.Replicas)
	}
}

// TestAutoscalingScaleDownWindow: spec.components.<c>.autoscaling's
// scaleDownStabilizationSeconds reaches the HorizontalPodAutoscaler's
// behavior (only that field: the scale-up and the policies stay
// Kubernetes'), follows a change, and goes when it is unset.
func TestAutoscalingScaleDownWindow(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "calm-db")
	site := newSite(ns, "calm")
	site.Spec.Components.Gateway.Autoscaling = &sitev1.AutoscalingSpec{MaxReplicas: 3, ScaleDownStabilizationSeconds: ptr.To[int32](15)}
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name   string
		window *int32 // nil: unset
	}{
		{"created with 15 s", ptr.To[int32](15)},
		{"changed to 0 s", ptr.To[int32](0)},
		{"unset", nil},
	}
	for _, st := range steps {
		updateSite(t, ns, "calm", func(s *sitev1.Site) { s.Spec.Components.Gateway.Autoscaling.ScaleDownStabilizationSeconds = st.window })
		eventually(t, st.name, func() error {
			var hpa autoscalingv2.HorizontalPodAutoscaler
			if err := k8s.Get(ctx, key(ns, "calm-gateway"), &hpa); err != nil {
				return err
			}
			b := hpa.Spec.Behavior
			if st.window == nil {
				if b != nil && b.ScaleDown != nil && b.ScaleDown.StabilizationWindowSeconds != nil {
					return fmt.Errorf("scale-down window %d after it was unset", *b.ScaleDown.StabilizationWindowSeconds)
				}
				return nil
			}
			if b == nil || b.ScaleDown == nil || b.ScaleDown.StabilizationWindowSeconds == nil {
				return fmt.Errorf("behavior %+v", b)
			}
			if got := *b.ScaleDown.StabilizationWindowSeconds; got != *st.window {
				return fmt.Errorf("scale-down window %d, want %d", got, *st.window)
			}
			return nil
		})
	}
}
