package controller

import (
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// TestReadyFollowsDeployments also proves there is no hot loop: once the
// site is Ready, passes stop.
func TestReadyFollowsDeployments(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "shop-db")
	if err := k8s.Create(ctx, newSite(ns, "shop")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "Deployments", func() error {
		return k8s.Get(ctx, key(ns, "shop-gateway"), &appsv1.Deployment{})
	})
	waitCondition(t, ns, "shop", sitev1.ConditionReady, metav1.ConditionFalse)
	setAllAvailable(t, ns, "shop")
	s := waitCondition(t, ns, "shop", sitev1.ConditionReady, metav1.ConditionTrue)
	if s.Status.Phase != sitev1.PhaseReady || s.Status.ObservedGeneration != s.Generation {
		t.Errorf("phase %q observedGeneration %d/%d", s.Status.Phase, s.Status.ObservedGeneration, s.Generation)
	}
	// A Site with default settings runs all four components, media on its
	// default claim (10Gi, ReadWriteOnce).
	for _, c := range contract.Services {
		if cond := meta.FindStatusCondition(s.Status.Conditions, sitev1.ComponentConditionType(c)); cond == nil ||
			cond.Status != metav1.ConditionTrue || cond.Reason != sitev1.ReasonAvailable {
			t.Errorf("%s condition %+v", c, cond)
		}
	}
	var claim corev1.PersistentVolumeClaim
	if err := get(t, ns, "shop-media", &claim); err != nil || claim.Spec.Resources.Requests.Storage().String() != "10Gi" ||
		claim.Spec.AccessModes[0] != corev1.ReadWriteOnce {
		t.Errorf("default media claim %+v: %v", claim.Spec, err)
	}

	eventually(t, "the Ready event", func() error {
		if n := countEvents(t, ns, "shop", "Ready"); n != 1 {
			return fmt.Errorf("%d Ready events", n)
		}
		return nil
	})

	// Steady state: one pass that finds nothing to do (triggered by an
	// annotation) writes nothing, records no event and triggers no other pass.
	k := types.NamespacedName{Namespace: ns, Name: "shop"}
	before := passesQuiet(t, k)
	events := countEvents(t, ns, "shop", "")
	rv := poke(t, ns, "shop")
	time.Sleep(3 * time.Second)
	if after := passes.get(k); after != before+1 {
		t.Errorf("hot loop: %d passes in 3s of steady state after one poke", after-before)
	}
	if n := countEvents(t, ns, "shop", ""); n != events {
		t.Errorf("%d events recorded by a pass that changed nothing", n-events)
	}
	if now := getSite(t, ns, "shop").ResourceVersion; now != rv {
		t.Errorf("the Site was written during steady state (resourceVersion %s → %s)", rv, now)
	}

	// One component losing its pods makes the Site not Ready.
	setDeploymentAvailable(t, ns, "shop-content", false)
	s = waitCondition(t, ns, "shop", sitev1.ConditionReady, metav1.ConditionFalse)
	if c := meta.FindStatusCondition(s.Status.Conditions, "ContentReady"); c == nil || c.Status != metav1.ConditionFalse {
		t.Errorf("ContentReady %+v", c)
	}
	if c := meta.FindStatusCondition(s.Status.Conditions, "GatewayReady"); c == nil || c.Status != metav1.ConditionTrue {
		t.Errorf("GatewayReady %+v", c)
	}
	setDeploymentAvailable(t, ns, "shop-content", true)
	waitCondition(t, ns, "shop", sitev1.ConditionReady, metav1.ConditionTrue)
}

func TestSpecChangeConverges(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "news-db")
	site := newSite(ns, "news")
	site.Spec.Components.Content.Replicas = ptr.To[int32](3)
	site.Spec.Exposure = sitev1.ExposureSpec{Type: sitev1.ExposureIngress, Ingress: &sitev1.IngressSpec{Host: "news.example.com"}}
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	waitCondition(t, ns, "news", sitev1.ConditionRoutesReady, metav1.ConditionTrue)
	var content appsv1.Deployment
	if err := get(t, ns, "news-content", &content); err != nil {
		t.Fatal(err)
	}
	oldHash := content.Spec.Template.Annotations[resources.AnnotationConfigHash]
	var admin corev1.Secret
	if err := get(t, ns, "news-admin", &admin); err != nil {
		t.Fatal(err)
	}
	oldPassword := string(admin.Data[contract.AdminPasswordKey])
	if oldHash == "" || oldPassword == "" {
		t.Fatalf("config hash %q, password set %t: nothing to compare with", oldHash, oldPassword != "")
	}
	if err := get(t, ns, "news-content", &policyv1.PodDisruptionBudget{}); err != nil {
		t.Fatalf("PDB for 3 content replicas: %v", err)
	}

	updateSite(t, ns, "news", func(s *sitev1.Site) {
		s.Spec.Title = "Daily News"
		s.Spec.Timezone = "Europe/Paris"
		s.Spec.Components.Content.Replicas = ptr.To[int32](1)
		s.Spec.Exposure = sitev1.ExposureSpec{Type: sitev1.ExposureNone}
	})
	eventually(t, "the new config hash", func() error {
		var d appsv1.Deployment
		_ = get(t, ns, "news-content", &d)
		if h := d.Spec.Template.Annotations[resources.AnnotationConfigHash]; h == oldHash {
			return fmt.Errorf("config hash still %s", h)
		}
		if *d.Spec.Replicas != 1 {
			return fmt.Errorf("replicas %d", *d.Spec.Replicas)
		}
		return nil
	})
	var cm corev1.ConfigMap
	_ = get(t, ns, "news-config", &cm)
	if !strings.Contains(cm.Data[contract.SiteFileName], `"Daily News"`) || !strings.Contains(cm.Data[contract.SiteFileName], "Europe/Paris") {
		t.Errorf("site file not updated: %s", cm.Data[contract.SiteFileName])
	}
	eventually(t, "the PDB and the Ingress to go", func() error {
		if err := get(t, ns, "news-content", &policyv1.PodDisruptionBudget{}); err == nil {
			return fmt.Errorf("PDB still there with one replica")
		}
		if err := get(t, ns, "news", &networkingv1.Ingress{}); err == nil {
			return fmt.Errorf("Ingress still there with exposure None")
		}
		return nil
	})
	s := waitCondition(t, ns, "news", sitev1.ConditionRoutesReady, metav1.ConditionTrue)
	if s.Status.ObservedGeneration != s.Generation {
		t.Errorf("observedGeneration %d, generation %d", s.Status.ObservedGeneration, s.Generation)
	}
	_ = get(t, ns, "news-admin", &admin)
	if string(admin.Data[contract.AdminPasswordKey]) != oldPassword {
		t.Error("a spec change replaced the generated administrator password")
	}

	// An unknown time zone passes CEL but not the contract: reported, not applied.
	updateSite(t, ns, "news", func(s *sitev1.Site) { s.Spec.Timezone = "Mars/Olympus" })
	s = waitCondition(t, ns, "news", sitev1.ConditionRoutesReady, metav1.ConditionFalse)
	if c := meta.FindStatusCondition(s.Status.Conditions, sitev1.ConditionRoutesReady); c.Reason != sitev1.ReasonInvalidSettings {
		t.Errorf("reason %q", c.Reason)
	}
	if s.Status.Phase != sitev1.PhaseFailed {
		t.Errorf("phase %q", s.Status.Phase)
	}
	_ = get(t, ns, "news-config", &cm)
	if strings.Contains(cm.Data[contract.SiteFileName], "Mars") {
		t.Error("an invalid site file was written")
	}
}

func TestSuspendStopsChanges(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "calm-db")
	if err := k8s.Create(ctx, newSite(ns, "calm")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the content Service", func() error {
		return k8s.Get(ctx, key(ns, "calm-content"), &corev1.Service{})
	})
	updateSite(t, ns, "calm", func(s *sitev1.Site) { s.Spec.Suspend = true })
	eventually(t, "phase Suspended", func() error {
		s := getSite(t, ns, "calm")
		if s.Status.Phase != sitev1.PhaseSuspended || s.Status.ObservedGeneration != s.Generation {
			return fmt.Errorf("phase %q", s.Status.Phase)
		}
		return nil
	})
	var cm corev1.ConfigMap
	_ = get(t, ns, "calm-config", &cm)
	before := cm.Data[contract.SiteFileName]
	var svc corev1.Service
	_ = get(t, ns, "calm-content", &svc)
	if err := k8s.Delete(ctx, &svc); err != nil {
		t.Fatal(err)
	}
	updateSite(t, ns, "calm", func(s *sitev1.Site) { s.Spec.Title = "Changed while suspended" })
	settle(t, ns, "calm")
	_ = get(t, ns, "calm-config", &cm)
	if cm.Data[contract.SiteFileName] != before {
		t.Error("ConfigMap changed while suspended")
	}
	if err := get(t, ns, "calm-content", &corev1.Service{}); err == nil {
		t.Error("a deleted Service was recreated while suspended")
	}

	updateSite(t, ns, "calm", func(s *sitev1.Site) { s.Spec.Suspend = false })
	eventually(t, "resumed reconciliation", func() error {
		if err := k8s.Get(ctx, key(ns, "calm-content"), &corev1.Service{}); err != nil {
			return err
		}
		_ = get(t, ns, "calm-config", &cm)
		if !strings.Contains(cm.Data[contract.SiteFileName], "Changed while suspended") {
			return fmt.Errorf("config not updated")
		}
		return nil
	})
}

func TestDatabaseSecretArrivesLater(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	if err := k8s.Create(ctx, newSite(ns, "late")); err != nil {
		t.Fatal(err)
	}
	s := waitCondition(t, ns, "late", sitev1.ConditionSecretsReady, metav1.ConditionFalse)
	if c := meta.FindStatusCondition(s.Status.Conditions, sitev1.ConditionSecretsReady); c.Reason != sitev1.ReasonDatabaseSecretMissing {
		t.Errorf("reason %q", c.Reason)
	}
	if s.Status.Phase != sitev1.PhasePending {
		t.Errorf("phase %q", s.Status.Phase)
	}
	var d appsv1.Deployment
	if err := get(t, ns, "late-content", &d); err != nil {
		t.Fatalf("the Deployment is written while the database Secret is missing: %v", err)
	}
	missingHash := d.Spec.Template.Annotations[resources.AnnotationSecretHash]
	if missingHash == "" {
		t.Fatal("no secret hash on the pod template")
	}

	// The watch on referenced Secrets brings the Site back without waiting
	// for the requeue.
	createDatabaseSecret(t, ns, "late-db")
	waitCondition(t, ns, "late", sitev1.ConditionSecretsReady, metav1.ConditionTrue)
	eventually(t, "the DSN in the pod hash", func() error {
		_ = get(t, ns, "late-content", &d)
		if d.Spec.Template.Annotations[resources.AnnotationSecretHash] == missingHash {
			return fmt.Errorf("secret hash unchanged")
		}
		return nil
	})
}

// TestDriftIsCorrected: a child changed behind the operator's back (here a
// Deployment scaled and a ConfigMap edited by another client) returns to the
// spec, because the operator owns those fields through server-side apply.
func TestDriftIsCorrected(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "drift-db")
	if err := k8s.Create(ctx, newSite(ns, "drift")); err != nil {
		t.Fatal(err)
	}
	var original corev1.ConfigMap
	eventually(t, "the content Deployment and the ConfigMap", func() error {
		if err := k8s.Get(ctx, key(ns, "drift-content"), &appsv1.Deployment{}); err != nil {
			return err
		}
		return k8s.Get(ctx, key(ns, "drift-config"), &original)
	})
	eventually(t, "a manual scale and edit", func() error {
		var d appsv1.Deployment
		if err := k8s.Get(ctx, key(ns, "drift-content"), &d); err != nil {
			return err
		}
		d.Spec.Replicas = ptr.To[int32](5)
		if err := k8s.Update(ctx, &d, client.FieldOwner("someone-else")); err != nil {
			return err
		}
		var cm corev1.ConfigMap
		if err := k8s.Get(ctx, key(ns, "drift-config"), &cm); err != nil {
			return err
		}
		cm.Data[contract.RoutesFileName] = "{}"
		return k8s.Update(ctx, &cm, client.FieldOwner("someone-else"))
	})
	eventually(t, "the spec to win again", func() error {
		var d appsv1.Deployment
		_ = get(t, ns, "drift-content", &d)
		if *d.Spec.Replicas != 1 {
			return fmt.Errorf("replicas %d", *d.Spec.Replicas)
		}
		var cm corev1.ConfigMap
		_ = get(t, ns, "drift-config", &cm)
		if cm.Data[contract.RoutesFileName] != original.Data[contract.RoutesFileName] {
			return fmt.Errorf("route file not restored: %q", cm.Data[contract.RoutesFileName])
		}
		return nil
	})
}
