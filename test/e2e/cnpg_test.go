//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// CloudNativePG's operator image (test/cmd/images, built from the module
// at the version hack/cluster/cnpg.sh pins) and its namespace.
const (
	cnpgImage     = "siteplane.local/cnpg:1.29.1"
	cnpgNamespace = "cnpg-system"
)

// TestCNPG runs Sites whose database CloudNativePG runs. One managed Site
// of three instances (a primary, two replicas), backed up from its start,
// serves the read-pool, delayed-replica, backup and failover steps in turn
// (one Cluster's start instead of one per step: docs/operator.md has the
// arithmetic); two Sites on one shared Cluster, started meanwhile, cannot
// read each other's tables. It needs the CloudNativePG image (E2E_IMAGES=1
// E2E_CNPG=1 make images, imported into the cluster), which `make test-e2e`
// builds by default; E2E_CNPG=0 skips it.
func TestCNPG(t *testing.T) {
	if os.Getenv("E2E_CNPG") == "0" {
		t.Skip("E2E_CNPG=0")
	}
	t0 := time.Now()
	installCNPG(t)
	t.Logf("CloudNativePG ready in %.1fs", time.Since(t0).Seconds())
	ns := namespace(t, "e2e-cnpg")
	cnpgVolumes(t, 10)
	store := objectStore(t, ns)                   // before the Site: its first base backup runs at once
	const site, cluster = "managed", "managed-db" // the managed Cluster is "<site>-db"

	if !t.Run("a Site with a managed database becomes Ready", func(t *testing.T) {
		mediaVolume(t, ns, site)
		// A WAL segment is archived at the latest 10 s after a write (the
		// default is 5 min), for the restore's point in time.
		db := &sitev1.ManagedDatabase{Instances: 3, ImageName: postgresImage,
			Parameters: map[string]string{"fsync": "off", "archive_timeout": "10s"},
			Backup:     &sitev1.ManagedDatabaseBackup{ObjectStore: store.spec(""), Schedule: "0 0 0 * * *"}}
		t0 := time.Now()
		if err := env.c.Create(context.Background(), cnpgSite(ns, site, sitev1.DatabaseSpec{Managed: db})); err != nil {
			t.Fatal(err)
		}
		waitReady(t, ns, site, 5*time.Minute)
		t.Logf("managed Site (3 instances) Ready %.1fs after create", time.Since(t0).Seconds())
	}) {
		t.FailNow()
	}
	// The shared Cluster and its two Sites start now; the last step checks them.
	t1 := time.Now()
	startShared(t, ns, "shared", "alpha", "beta")
	auth := adminAuth(t, ns, site)

	t.Run("anonymous reads are served by a replica", func(t *testing.T) {
		// The Site backs up from its create: its first base backup reads
		// every data file on the primary, CPU the table below would count
		// as the reads' (2.25 ms a read on the primary with the read pool,
		// more than without it).
		completedBackup(t, ns, cluster)
		readsOnReplicas(t, ns, site, cluster, auth)
	})
	t.Run("scheduled backups and a Site restored to a point in time", func(t *testing.T) {
		backupAndRestore(t, ns, site, cluster, store, auth)
	})
	t.Run("replicas behind the primary: their answers are served, never kept", func(t *testing.T) {
		laggingReplicas(t, ns, site, cluster, auth)
	})
	t.Run("failover under load", func(t *testing.T) {
		failoverUnderLoad(t, ns, site, cluster, auth)
	})
	t.Run("two Sites on a shared Cluster cannot read each other's tables", func(t *testing.T) {
		for _, name := range []string{"alpha", "beta"} {
			waitReady(t, ns, name, 3*time.Minute)
		}
		t.Logf("alpha and beta Ready (checked %.1fs after their create)", time.Since(t1).Seconds())
		// alpha's credentials on beta's database: the connection opens
		// (PUBLIC may connect), the content schema is closed to it.
		alpha := secretValue(t, ns, "alpha-database", "dsn")
		cross := strings.Replace(alpha, "/siteplane_alpha?", "/siteplane_beta?", 1)
		out, err := psqlJob(t, ns, cross, "SELECT count(*) FROM content.posts")
		if err == nil || !strings.Contains(out, "permission denied") {
			t.Fatalf("alpha reading beta's posts: err %v, output %q; want permission denied", err, out)
		}
		if out, err := psqlJob(t, ns, alpha, "SELECT count(*) FROM content.posts"); err != nil {
			t.Fatalf("alpha reading its own posts: %v: %s", err, out)
		}
	})
}

// cnpgVolumes adds n volumes to a default StorageClass without a
// provisioner (the local provider's "local": hack/cluster/up.sh pre-makes 8,
// retained and not reused, and the suite's other Sites have taken some).
// TestCNPG's claims are 9: 3 instances and the media of the managed Site, 1
// and 1 of the restored one, the shared Cluster's instance, alpha's and
// beta's media. Where a provisioner makes volumes this does nothing.
func cnpgVolumes(t *testing.T, n int) {
	t.Helper()
	ctx := context.Background()
	scs, err := env.kube.StorageV1().StorageClasses().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	class := ""
	for _, sc := range scs.Items {
		if sc.Annotations["storageclass.kubernetes.io/is-default-class"] == "true" && sc.Provisioner == "kubernetes.io/no-provisioner" {
			class = sc.Name
		}
	}
	if class == "" {
		return
	}
	for i := range n {
		pv := &corev1.PersistentVolume{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("e2e-cnpg-vol%d", i)},
			Spec: corev1.PersistentVolumeSpec{
				StorageClassName:              class,
				Capacity:                      corev1.ResourceList{corev1.ResourceStorage: mustQuantity("10Gi")},
				AccessModes:                   []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce, corev1.ReadWriteMany},
				PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimRetain,
				PersistentVolumeSource: corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{
					Path: pvDir(t, fmt.Sprintf("cnpg-vol%d", i)), Type: ptr.To(corev1.HostPathDirectory)}},
			},
		}
		_ = env.kube.CoreV1().PersistentVolumes().Delete(ctx, pv.Name, metav1.DeleteOptions{})
		if _, err := env.kube.CoreV1().PersistentVolumes().Create(ctx, pv, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = env.kube.CoreV1().PersistentVolumes().Delete(context.Background(), pv.Name, metav1.DeleteOptions{})
		})
	}
}

// cnpgSite is a Site of the e2e namespace with the given database.
func cnpgSite(ns, name string, db sitev1.DatabaseSpec) *sitev1.Site {
	return &sitev1.Site{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: sitev1.SiteSpec{Title: "CNPG " + name, URL: "http://" + name + ".e2e.test", Database: db,
			Admin: sitev1.AdminSpec{Username: "admin", Email: "admin@e2e.test"}},
	}
}

// installCNPG applies CloudNativePG's manifests (hack/cluster/cnpg.sh) with
// server-side apply and waits for its operator, whose webhooks must answer
// before a Cluster can be created.
func installCNPG(t *testing.T) {
	t.Helper()
	cmd := exec.Command(filepath.Join(env.root, "hack", "cluster", "cnpg.sh"), "manifests", cnpgImage)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	manifests, err := cmd.Output()
	if err != nil {
		t.Fatalf("cnpg.sh manifests: %v\n%s", err, stderr.String())
	}
	ctx := context.Background()
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(manifests), 4096)
	var objs []*unstructured.Unstructured
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if len(u.Object) > 0 {
			objs = append(objs, u)
		}
	}
	// CRDs and the namespace first; the rest once they are served.
	for _, first := range []bool{true, false} {
		for _, u := range objs {
			if k := u.GetKind(); (k == "CustomResourceDefinition" || k == "Namespace") != first {
				continue
			}
			eventually(t, "apply "+u.GetKind()+" "+u.GetName(), time.Minute, func() (bool, string) {
				err := env.c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("e2e"), client.ForceOwnership)
				return err == nil, fmt.Sprint(err)
			})
		}
	}
	eventually(t, "CloudNativePG's operator ready", 3*time.Minute, func() (bool, string) {
		d, err := env.kube.AppsV1().Deployments(cnpgNamespace).Get(ctx, "cnpg-controller-manager", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return d.Status.ReadyReplicas >= 1, fmt.Sprintf("%d ready", d.Status.ReadyReplicas)
	})
}

// startShared creates the platform's shared Cluster of one instance and a
// Site with a database on it for each of sites, without waiting for them.
func startShared(t *testing.T, ns, name string, sites ...string) {
	t.Helper()
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "postgresql.cnpg.io/v1", "kind": "Cluster",
		"metadata": map[string]any{"name": name, "namespace": ns},
		"spec": map[string]any{"instances": int64(1), "imageName": postgresImage,
			"storage":    map[string]any{"size": "1Gi"},
			"postgresql": map[string]any{"parameters": map[string]any{"fsync": "off"}}},
	}}
	// The webhook may still be starting: retry for a while.
	eventually(t, "create the shared Cluster", time.Minute, func() (bool, string) {
		err := env.c.Create(context.Background(), u.DeepCopy())
		return err == nil, fmt.Sprint(err)
	})
	for _, site := range sites {
		mediaVolume(t, ns, site)
		if err := env.c.Create(context.Background(), cnpgSite(ns, site,
			sitev1.DatabaseSpec{Shared: &sitev1.SharedDatabase{Cluster: name}})); err != nil {
			t.Fatal(err)
		}
	}
}

// psqlJob runs one statement with psql against dsn in a Job and returns
// its output, and an error when psql failed.
func psqlJob(t *testing.T, ns, dsn, sql string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "psql-", Namespace: ns},
		Spec: batchv1.JobSpec{
			BackoffLimit: ptr.To[int32](0),
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy:   corev1.RestartPolicyNever,
				SecurityContext: &corev1.PodSecurityContext{RunAsUser: ptr.To[int64](999), RunAsGroup: ptr.To[int64](999)},
				Containers: []corev1.Container{{
					Name: "psql", Image: postgresImage, ImagePullPolicy: corev1.PullIfNotPresent,
					Command: []string{"psql", "-v", "ON_ERROR_STOP=1", "-tA", dsn, "-c", sql},
				}},
			}},
		},
	}
	created, err := env.kube.BatchV1().Jobs(ns).Create(ctx, job, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var failed bool
	err = wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		j, err := env.kube.BatchV1().Jobs(ns).Get(ctx, created.Name, metav1.GetOptions{})
		if err != nil {
			return false, nil //nolint:nilerr // a failed read while polling is retried
		}
		failed = j.Status.Failed > 0
		return failed || j.Status.Succeeded > 0, nil
	})
	if err != nil {
		t.Fatalf("psql job %s: %v", created.Name, err)
	}
	pods, err := env.kube.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "job-name=" + created.Name})
	if err != nil || len(pods.Items) == 0 {
		t.Fatalf("pods of job %s: %v", created.Name, err)
	}
	out, _ := env.kube.CoreV1().Pods(ns).GetLogs(pods.Items[0].Name, &corev1.PodLogOptions{}).DoRaw(ctx)
	if failed {
		return string(out), fmt.Errorf("psql failed")
	}
	return string(out), nil
}
