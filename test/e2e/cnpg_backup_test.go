//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// backupStore is where a managed Cluster's backups go: the e2e's one
// versitygw (startS3, shared with the media tests), a bucket "backups" and
// a prefix of this run's own (CloudNativePG refuses to archive into a
// location that already holds a server's WAL, as a rerun on a kept cluster
// would find), with the credentials in the Secret "s3" of the Site's
// namespace (a Cluster reads its Secrets there).
type backupStore struct {
	endpoint, destination string
}

func objectStore(t *testing.T, ns string) backupStore {
	t.Helper()
	s := startS3(t)
	s.createBucket(t, "backups")
	s.credentialsSecret(t, ns, "s3")
	return backupStore{endpoint: s.clusterURL, destination: "s3://backups/e2e-" + randomHex(4)}
}

// spec is the object store of a Cluster whose server (the Barman Cloud
// folder under the destination) is server, or its own name when empty.
func (b backupStore) spec(server string) sitev1.DatabaseObjectStore {
	return sitev1.DatabaseObjectStore{DestinationPath: b.destination, Endpoint: b.endpoint, ServerName: server,
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

// backupAndRestore checks the backups of a managed Site's Cluster (WAL
// archiving and a ScheduledBackup to store, set when the Site was created):
// its first base backup completes; one post is written before a target
// time and one after, and a new Site restored to that time serves the
// first post and not the second. The restored Site is deleted afterwards.
func backupAndRestore(t *testing.T, ns, site, cluster string, store backupStore, auth func(http.Header) http.Header) {
	t0 := time.Now()
	completedBackup(t, ns, cluster)
	t.Logf("%s's first base backup completed %.1fs after this step began", cluster, time.Since(t0).Seconds())

	gw := serviceURL(t, ns, componentName(site, contract.ServiceGateway), contract.DefaultAPIPort)
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
	dsn := secretValue(t, ns, site+"-database", "dsn")
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
	restored := cnpgSite(ns, "restored", sitev1.DatabaseSpec{Managed: &sitev1.ManagedDatabase{
		Instances: 1, ImageName: postgresImage, Parameters: map[string]string{"fsync": "off"},
		Restore: &sitev1.ManagedDatabaseRestore{ObjectStore: store.spec(cluster), TargetTime: &metav1.Time{Time: target}}}})
	if err := env.c.Create(context.Background(), restored); err != nil {
		t.Fatal(err)
	}
	waitReady(t, ns, "restored", 5*time.Minute)
	t.Logf("restored Site Ready %.1fs after create (target %s)", time.Since(t1).Seconds(), target.UTC().Format(time.RFC3339))
	titles := postTitles(t, serviceURL(t, ns, componentName("restored", contract.ServiceGateway), contract.DefaultAPIPort))
	if !strings.Contains(titles, "before the target") || strings.Contains(titles, "after the target") {
		t.Errorf("restored Site's posts %s: want the post written before the target and not the one after", titles)
	}
	// Its pods and PostgreSQL would only take CPU from the steps after.
	if err := env.c.Delete(context.Background(), restored); err != nil {
		t.Error(err)
	}
}
