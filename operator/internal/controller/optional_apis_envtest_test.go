package controller

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// TestOptionalAPIsInstalledLater: the Gateway API and the Prometheus
// Operator are installed after the operator started. Within the re-check
// interval the waiting Site gets its HTTPRoute and ServiceMonitor, without
// a restart and without any change to the Site, and the new kinds are
// watched: a deleted ServiceMonitor of a Ready Site (which has no timer
// running) comes back at once. Its own API server, since the suite's
// serves both kinds from the start.
func TestOptionalAPIsInstalledLater(t *testing.T) {
	requireEnv(t)
	c, cfg := startOwnOperator(t, nil)

	ns := "later"
	bg := context.Background()
	for _, o := range []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "late-db", Namespace: ns}, Data: map[string][]byte{"dsn": []byte("postgres://x")}},
	} {
		if err := c.Create(bg, o); err != nil {
			t.Fatal(err)
		}
	}
	site := newSite(ns, "late")
	site.Spec.Exposure = sitev1.ExposureSpec{Type: sitev1.ExposureHTTPRoute, HTTPRoute: &sitev1.HTTPRouteSpec{
		ParentRefs: []sitev1.ParentReference{{Name: "public", Namespace: "infra"}}}}
	if err := c.Create(bg, site); err != nil {
		t.Fatal(err)
	}
	routes := func() *metav1.Condition {
		var s sitev1.Site
		if err := c.Get(bg, client.ObjectKeyFromObject(site), &s); err != nil {
			t.Fatal(err)
		}
		return meta.FindStatusCondition(s.Status.Conditions, sitev1.ConditionRoutesReady)
	}
	eventually(t, "RoutesReady=False GatewayAPIMissing", func() error {
		if cond := routes(); cond == nil || cond.Reason != sitev1.ReasonGatewayAPIMissing {
			return fmt.Errorf("RoutesReady %+v", cond)
		}
		return nil
	})
	// Every Deployment available: the Site is Ready but for its route, so
	// only the new kinds' discovery can bring it back (its own re-check of
	// the missing API is a minute away).
	for _, comp := range contract.Services {
		eventually(t, "Deployment "+comp+" available", func() error {
			var d appsv1.Deployment
			if err := c.Get(bg, client.ObjectKey{Namespace: ns, Name: resources.ComponentName("late", comp)}, &d); err != nil {
				return err
			}
			n := *d.Spec.Replicas
			d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: n, UpdatedReplicas: n, ReadyReplicas: n, AvailableReplicas: n}
			return c.Status().Update(bg, &d)
		})
	}

	if _, err := envtest.InstallCRDs(cfg, envtest.CRDInstallOptions{Paths: []string{filepath.Join("testdata", "crds")}}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the HTTPRoute and the ServiceMonitor", func() error {
		if cond := routes(); cond == nil || cond.Status != metav1.ConditionTrue {
			return fmt.Errorf("RoutesReady %+v", cond)
		}
		if err := c.Get(bg, client.ObjectKey{Namespace: ns, Name: "late"}, routeObject()); err != nil {
			return err
		}
		return c.Get(bg, client.ObjectKey{Namespace: ns, Name: "late"}, monitorObject())
	})
	// Admitted only once the Gateway's controller says so, and reachable
	// only with a ready gateway endpoint.
	writeGatewayEndpoints(t, c, ns, "late", true)
	eventually(t, "Exposed=False RouteNotAccepted", func() error {
		var s sitev1.Site
		_ = c.Get(bg, client.ObjectKeyFromObject(site), &s)
		if e := meta.FindStatusCondition(s.Status.Conditions, sitev1.ConditionExposed); e == nil || e.Reason != sitev1.ReasonRouteNotAccepted {
			return fmt.Errorf("Exposed %+v", e)
		}
		return nil
	})
	acceptRoute(t, c, ns, "late")
	eventually(t, "the Site Ready", func() error {
		var s sitev1.Site
		_ = c.Get(bg, client.ObjectKeyFromObject(site), &s)
		if s.Status.Phase != sitev1.PhaseReady {
			return fmt.Errorf("phase %s", s.Status.Phase)
		}
		return nil
	})

	// The ServiceMonitor is watched now: its deletion is repaired at once.
	sm := monitorObject()
	if err := c.Get(bg, client.ObjectKey{Namespace: ns, Name: "late"}, sm); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(bg, sm); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	eventually(t, "the deleted ServiceMonitor to come back", func() error {
		got := monitorObject()
		if err := c.Get(bg, client.ObjectKey{Namespace: ns, Name: "late"}, got); err != nil {
			return err
		}
		if got.GetUID() == sm.GetUID() {
			return fmt.Errorf("still the old one")
		}
		return nil
	})
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the ServiceMonitor came back after %s: not through a watch", d)
	}
}

// startOwnOperator starts an API server with no optional kinds served and
// an operator on it that re-checks them every 200 ms, for the tests of
// kinds installed later; both stop with the test. onReconcile, when set,
// counts its passes.
func startOwnOperator(t *testing.T, onReconcile func(types.NamespacedName)) (client.Client, *rest.Config) {
	t.Helper()
	assets, _ := assetsDir()
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "..", "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	scheme := k8s.Scheme()
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0",
		Cache: CacheOptions(""),
		// The suite's manager runs a controller named "site" in this process too.
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := &SiteReconciler{Client: mgr.GetClient(), Scheme: scheme, Clock: clock.RealClock{}, OnReconcile: onReconcile,
		Images: resources.PodDefaults{Registry: "example.test"}, OptionalAPIInterval: 200 * time.Millisecond}
	if err := r.SetupWithManager(mgr); err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { defer close(stopped); _ = mgr.Start(runCtx) }()
	// Registered after env.Stop, so it runs first: the manager stops
	// before its API server.
	t.Cleanup(func() { cancel(); <-stopped })
	return c, cfg
}
