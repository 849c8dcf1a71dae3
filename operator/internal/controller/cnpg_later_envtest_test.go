package controller

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// TestCNPGInstalledLater: a Site asking for a managed database on a
// cluster without CloudNativePG is refused with a clear condition (phase
// Pending), the operator neither crashes nor loops, and once the CRDs are
// installed the Site gets its Cluster without any change to it. Its own
// API server, since the suite's serves CloudNativePG from the start.
func TestCNPGInstalledLater(t *testing.T) {
	requireCNPG(t)
	counter := &passCounter{n: map[types.NamespacedName]int{}}
	c, cfg := startOwnOperator(t, counter.inc)
	bg := context.Background()
	ns := "nocnpg"
	if err := c.Create(bg, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		t.Fatal(err)
	}
	site := cnpgSite(ns, "early", func(d *sitev1.DatabaseSpec) { d.Managed = &sitev1.ManagedDatabase{Instances: 1} })
	if err := c.Create(bg, site); err != nil {
		t.Fatal(err)
	}
	read := func() *sitev1.Site {
		var s sitev1.Site
		if err := c.Get(bg, client.ObjectKeyFromObject(site), &s); err != nil {
			t.Fatal(err)
		}
		return &s
	}
	eventually(t, "DatabaseReady=False CNPGNotInstalled", func() error {
		s := read()
		cond := meta.FindStatusCondition(s.Status.Conditions, sitev1.ConditionDatabaseReady)
		if cond == nil || cond.Reason != sitev1.ReasonCNPGNotInstalled || s.Status.Phase != sitev1.PhasePending {
			return fmt.Errorf("DatabaseReady %+v, phase %s", cond, s.Status.Phase)
		}
		return nil
	})
	// No hot loop: over three seconds at most a pass or two (the Site's
	// own children settling), not one per re-check of the API.
	k := types.NamespacedName{Namespace: ns, Name: "early"}
	before := counter.get(k)
	time.Sleep(3 * time.Second)
	if n := counter.get(k) - before; n > 2 {
		t.Errorf("%d passes in 3 s while CloudNativePG is missing", n)
	}

	if _, err := envtest.InstallCRDs(cfg, envtest.CRDInstallOptions{Paths: []string{cnpgCRDs}}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the managed Cluster", func() error {
		u := cnpgObject("Cluster")
		if err := c.Get(bg, client.ObjectKey{Namespace: ns, Name: "early-db"}, u); err != nil {
			return err
		}
		cond := meta.FindStatusCondition(read().Status.Conditions, sitev1.ConditionDatabaseReady)
		if cond == nil || cond.Reason != sitev1.ReasonDatabaseClusterNotReady {
			return fmt.Errorf("DatabaseReady %+v", cond)
		}
		return nil
	})
}
