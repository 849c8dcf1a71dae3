package controller

import (
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// backupStore is an object store of the tests (nothing reads it: no
// CloudNativePG runs here, and CloudNativePG's CRD validates the fields).
func backupStore(server string) sitev1.DatabaseObjectStore {
	return sitev1.DatabaseObjectStore{DestinationPath: "s3://backups/sites", Endpoint: "http://s3.storage:7070",
		ServerName: server, CredentialsSecretRef: sitev1.S3CredentialsSecretRef{Name: "s3"}}
}

// TestCNPGManagedBackupAndRestore: a managed database restored from
// another Cluster's backups, itself backed up, is a Cluster that
// CloudNativePG's CRD accepts with bootstrap.recovery, the external
// cluster and spec.backup; its ScheduledBackup is written once the
// Cluster is Ready, not before.
func TestCNPGManagedBackupAndRestore(t *testing.T) {
	requireCNPG(t)
	ns := newNamespace(t)
	target := metav1.NewTime(time.Date(2026, 11, 28, 23, 0, 0, 0, time.UTC))
	site := cnpgSite(ns, "copy", func(d *sitev1.DatabaseSpec) {
		d.Managed = &sitev1.ManagedDatabase{Instances: 1,
			Backup:  &sitev1.ManagedDatabaseBackup{ObjectStore: backupStore("")},
			Restore: &sitev1.ManagedDatabaseRestore{ObjectStore: backupStore("blog-db"), TargetTime: &target}}
	})
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	cluster := cnpgObject("Cluster")
	eventually(t, "the managed Cluster", func() error { return k8s.Get(ctx, key(ns, "copy-db"), cluster) })
	for _, tc := range []struct {
		path []string
		want string
	}{
		{[]string{"spec", "bootstrap", "recovery", "source"}, "origin"},
		{[]string{"spec", "bootstrap", "recovery", "recoveryTarget", "targetTime"}, "2026-11-28T23:00:00Z"},
		{[]string{"spec", "backup", "barmanObjectStore", "serverName"}, "copy-db"},
		{[]string{"spec", "backup", "barmanObjectStore", "endpointURL"}, "http://s3.storage:7070"},
		{[]string{"spec", "backup", "retentionPolicy"}, "30d"},
	} {
		got, _, _ := unstructured.NestedFieldNoCopy(cluster.Object, tc.path...)
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%s = %v, want %s", strings.Join(tc.path, "."), got, tc.want)
		}
	}
	external, _, _ := unstructured.NestedSlice(cluster.Object, "spec", "externalClusters")
	if len(external) != 1 || fmt.Sprint(external[0].(map[string]any)["barmanObjectStore"].(map[string]any)["serverName"]) != "blog-db" {
		t.Errorf("externalClusters %v", external)
	}

	waitDatabaseReason(t, ns, "copy", sitev1.ReasonDatabaseClusterNotReady)
	if err := k8s.Get(ctx, key(ns, "copy-db"), cnpgObject("ScheduledBackup")); !apierrors.IsNotFound(err) {
		t.Errorf("ScheduledBackup before the Cluster is Ready: %v", err)
	}
	createAppSecret(t, ns, "copy-db")
	setClusterStatus(t, ns, "copy-db", true)
	sb := cnpgObject("ScheduledBackup")
	eventually(t, "the ScheduledBackup", func() error { return k8s.Get(ctx, key(ns, "copy-db"), sb) })
	if s, _, _ := unstructured.NestedString(sb.Object, "spec", "schedule"); s != "0 0 2 * * *" {
		t.Errorf("schedule %q", s)
	}
	if owner := metav1.GetControllerOf(sb); owner == nil || owner.Kind != "Site" || owner.Name != "copy" {
		t.Errorf("controller of the ScheduledBackup: %+v", owner)
	}
}

// TestCNPGBackupSpecRules: the CRD refuses a restore without the Cluster
// whose backups it reads, a destination that is not s3://, a schedule
// without seconds, and any change of restore once the Site exists.
func TestCNPGBackupSpecRules(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	bad := backupStore("")
	bad.DestinationPath = "https://backups/sites"
	for _, tc := range []struct {
		name    string
		managed sitev1.ManagedDatabase
		want    string
	}{
		{"restore without serverName", sitev1.ManagedDatabase{Restore: &sitev1.ManagedDatabaseRestore{ObjectStore: backupStore("")}},
			"serverName names the Cluster whose backups are restored"},
		{"destination not s3", sitev1.ManagedDatabase{Backup: &sitev1.ManagedDatabaseBackup{ObjectStore: bad}}, "destinationPath"},
		{"five-field schedule", sitev1.ManagedDatabase{Backup: &sitev1.ManagedDatabaseBackup{ObjectStore: backupStore(""), Schedule: "0 2 * * *"}},
			"schedule"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := k8s.Create(ctx, cnpgSite(ns, "rules", func(d *sitev1.DatabaseSpec) { d.Managed = &tc.managed }))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
	if err := k8s.Create(ctx, cnpgSite(ns, "restored", func(d *sitev1.DatabaseSpec) {
		d.Managed = &sitev1.ManagedDatabase{Restore: &sitev1.ManagedDatabaseRestore{ObjectStore: backupStore("blog-db")}}
	})); err != nil {
		t.Fatal(err)
	}
	const immutable = "database.managed.restore is immutable"
	for _, tc := range []struct {
		name   string
		mutate func(*sitev1.Site)
	}{
		{"other source", func(s *sitev1.Site) { s.Spec.Database.Managed.Restore.ObjectStore.ServerName = "shop-db" }},
		{"target added", func(s *sitev1.Site) { s.Spec.Database.Managed.Restore.TargetTime = &metav1.Time{Time: time.Now()} }},
		{"restore removed", func(s *sitev1.Site) { s.Spec.Database.Managed.Restore = nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tryUpdate(t, ns, "restored", tc.mutate); err == nil || !strings.Contains(err.Error(), immutable) {
				t.Errorf("got %v, want an error with %q", err, immutable)
			}
		})
	}
}
