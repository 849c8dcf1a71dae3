//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// versitygwImage is the S3-compatible server of the media tests as an
// image (test/cmd/images, E2E_CNPG=1).
const versitygwImage = "siteplane.local/versitygw:1.8.0"

// objectStore runs versitygw in ns (posix backend on an emptyDir, bucket
// "backups") with its credentials in the Secret "s3", and returns its
// endpoint inside the cluster.
func objectStore(t *testing.T, ns string) string {
	t.Helper()
	ctx := context.Background()
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s3", Namespace: ns},
		StringData: map[string]string{"access-key-id": "e2e-backups", "secret-access-key": randomHex(20)}}
	if _, err := env.kube.CoreV1().Secrets(ns).Create(ctx, secret, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{"app": "s3"}
	fromSecret := func(key string) *corev1.EnvVarSource {
		return &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "s3"}, Key: key}}
	}
	dep := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "s3", Namespace: ns},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					SecurityContext: &corev1.PodSecurityContext{RunAsUser: ptr.To[int64](65532), FSGroup: ptr.To[int64](65532)},
					Containers: []corev1.Container{{
						Name: "versitygw", Image: versitygwImage, ImagePullPolicy: corev1.PullIfNotPresent,
						// A bucket of the posix backend is a directory.
						Command: []string{"/bin/sh", "-c", "mkdir -p /data/backups && exec versitygw --port :7070 posix /data"},
						Env: []corev1.EnvVar{{Name: "ROOT_ACCESS_KEY_ID", ValueFrom: fromSecret("access-key-id")},
							{Name: "ROOT_SECRET_ACCESS_KEY", ValueFrom: fromSecret("secret-access-key")}},
						Ports:          []corev1.ContainerPort{{ContainerPort: 7070}},
						ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(7070)}}},
						VolumeMounts:   []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
					}},
					Volumes: []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
				},
			},
		},
	}
	if _, err := env.kube.AppsV1().Deployments(ns).Create(ctx, dep, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "s3", Namespace: ns},
		Spec: corev1.ServiceSpec{Selector: labels, Ports: []corev1.ServicePort{{Port: 7070, TargetPort: intstr.FromInt32(7070)}}}}
	if _, err := env.kube.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "versitygw ready", 2*time.Minute, func() (bool, string) {
		d := deployment(t, ns, "s3")
		return d.Status.ReadyReplicas == 1, fmt.Sprintf("%d ready", d.Status.ReadyReplicas)
	})
	return fmt.Sprintf("http://s3.%s.svc:7070", ns)
}

// backupStoreSpec is the object store of the backup step.
func backupStoreSpec(endpoint, server string) sitev1.DatabaseObjectStore {
	return sitev1.DatabaseObjectStore{DestinationPath: "s3://backups/e2e", Endpoint: endpoint, ServerName: server,
		CredentialsSecretRef: sitev1.S3CredentialsSecretRef{Name: "s3"}}
}

// cnpgStatus reads one string of a CloudNativePG object's status.
func cnpgStatus(t *testing.T, ns, kind, name string, field ...string) string {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("postgresql.cnpg.io/v1")
	u.SetKind(kind)
	if err := env.c.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, u); err != nil {
		return err.Error()
	}
	v, _, _ := unstructured.NestedString(u.Object, append([]string{"status"}, field...)...)
	return v
}

// completedBackup waits for a Backup of cluster whose phase is completed.
func completedBackup(t *testing.T, ns, cluster string) {
	t.Helper()
	eventually(t, "a completed Backup of "+cluster, 5*time.Minute, func() (bool, string) {
		list := &unstructured.UnstructuredList{}
		list.SetAPIVersion("postgresql.cnpg.io/v1")
		list.SetKind("BackupList")
		if err := env.c.List(context.Background(), list, client.InNamespace(ns)); err != nil {
			return false, err.Error()
		}
		var phases []string
		for _, b := range list.Items {
			c, _, _ := unstructured.NestedString(b.Object, "spec", "cluster", "name")
			phase, _, _ := unstructured.NestedString(b.Object, "status", "phase")
			msg, _, _ := unstructured.NestedString(b.Object, "status", "error")
			if c == cluster && phase == "completed" {
				return true, ""
			}
			phases = append(phases, b.GetName()+"="+phase+" "+msg)
		}
		return false, fmt.Sprintf("backups %v; last failed archive: %s", phases, cnpgStatus(t, ns, "Cluster", cluster, "lastFailedArchiveTime"))
	})
}

// postTitles lists a site's published posts anonymously.
func postTitles(t *testing.T, gw string) string {
	t.Helper()
	r := request("GET", fmt.Sprintf("%s/cms-json/cms/v2/posts?per_page=100&_fields=title&m=%d", gw, time.Now().UnixNano()), nil, nil)
	if r.Status != 200 {
		t.Fatalf("list posts: %s", r)
	}
	return string(r.Body)
}

// backupAndRestore backs up a managed Site's Cluster to versitygw in the
// cluster (WAL archiving and a ScheduledBackup), writes one post before a
// target time and one after, and restores a new Site to that time: it
// serves the first post and not the second.
func backupAndRestore(t *testing.T, ns string) {
	t0 := time.Now()
	endpoint := objectStore(t, ns)
	// A segment is archived at the latest 10 s after a write (the
	// default is 5 min); each barman-cloud-wal-archive takes seconds.
	params := map[string]string{"fsync": "off", "archive_timeout": "10s"}
	mediaVolume(t, ns, "origin")
	if err := env.c.Create(context.Background(), cnpgSite(ns, "origin", sitev1.DatabaseSpec{Managed: &sitev1.ManagedDatabase{
		Instances: 1, ImageName: postgresImage, Parameters: params,
		Backup: &sitev1.ManagedDatabaseBackup{ObjectStore: backupStoreSpec(endpoint, ""), Schedule: "0 0 0 * * *"}}})); err != nil {
		t.Fatal(err)
	}
	waitReady(t, ns, "origin", 6*time.Minute)
	completedBackup(t, ns, "origin-db")
	t.Logf("origin Ready and its first base backup completed %.1fs after versitygw was applied", time.Since(t0).Seconds())

	gw := serviceURL(t, ns, componentName("origin", contract.ServiceGateway), contract.DefaultAPIPort)
	auth := adminAuth(t, ns, "origin")
	create := func(title string) {
		body := fmt.Appendf(nil, `{"title":%q,"status":"publish"}`, title)
		if r := request("POST", gw+"/cms-json/cms/v2/posts", body, auth(http.Header{"Content-Type": {"application/json"}})); r.Status != 201 {
			t.Fatalf("create %q: %s", title, r)
		}
	}
	create("before the target")
	target := time.Now().Add(2 * time.Second).Truncate(time.Second)
	time.Sleep(time.Until(target) + 2*time.Second)
	create("after the target")
	// The segment holding the second post must be archived: recovery stops
	// at the first commit past the target, and fails if the WAL ends first.
	// (CloudNativePG 1.29 leaves status.lastArchivedWALTime empty: the
	// server's own pg_stat_archiver says it.)
	dsn := secretValue(t, ns, "origin-database", "dsn")
	segment, err := psqlJob(t, ns, dsn, "SELECT pg_walfile_name(pg_current_wal_lsn())")
	if err != nil {
		t.Fatalf("current WAL segment: %v: %s", err, segment)
	}
	segment = strings.TrimSpace(segment)
	eventually(t, "WAL segment "+segment+" archived", 2*time.Minute, func() (bool, string) {
		out, err := psqlJob(t, ns, dsn, "SELECT coalesce(last_archived_wal, '') FROM pg_stat_archiver")
		last := strings.TrimSpace(out)
		return err == nil && last >= segment, "last archived " + last
	})

	t1 := time.Now()
	mediaVolume(t, ns, "restored")
	if err := env.c.Create(context.Background(), cnpgSite(ns, "restored", sitev1.DatabaseSpec{Managed: &sitev1.ManagedDatabase{
		Instances: 1, ImageName: postgresImage, Parameters: map[string]string{"fsync": "off"},
		Restore: &sitev1.ManagedDatabaseRestore{ObjectStore: backupStoreSpec(endpoint, "origin-db"),
			TargetTime: &metav1.Time{Time: target}}}})); err != nil {
		t.Fatal(err)
	}
	waitReady(t, ns, "restored", 6*time.Minute)
	t.Logf("restored Site Ready %.1fs after create (target %s)", time.Since(t1).Seconds(), target.UTC().Format(time.RFC3339))
	titles := postTitles(t, serviceURL(t, ns, componentName("restored", contract.ServiceGateway), contract.DefaultAPIPort))
	if !strings.Contains(titles, "before the target") || strings.Contains(titles, "after the target") {
		t.Errorf("restored Site's posts %s: want the post written before the target and not the one after", titles)
	}
}
