package resources

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// CNPGScheduledBackupGVK is CloudNativePG's kind of a backup schedule.
var CNPGScheduledBackupGVK = schema.GroupVersionKind{Group: "postgresql.cnpg.io", Version: "v1", Kind: "ScheduledBackup"}

// restoreSource is the name of the external cluster a restored Cluster
// reads its backups from (a name inside the Cluster's spec only).
const restoreSource = "origin"

// Defaults of spec.database.managed.backup, as the CRD's (a Site written
// before the fields existed has them empty).
const (
	defaultBackupSchedule  = "0 0 2 * * *"
	defaultBackupRetention = "30d"
)

// barmanObjectStore is CloudNativePG's barmanObjectStore section for an
// object store: the in-tree Barman Cloud support, which runs
// barman-cloud-wal-archive and barman-cloud-backup inside the PostgreSQL
// image (docs/operator.md says why not the Barman Cloud plugin).
// serverName is the folder of one Cluster's backups.
func barmanObjectStore(s sitev1.DatabaseObjectStore, serverName string) map[string]any {
	creds := s.CredentialsSecretRef
	idKey, secretKey := creds.AccessKeyIDKey, creds.SecretAccessKeyKey
	if idKey == "" {
		idKey = "access-key-id"
	}
	if secretKey == "" {
		secretKey = "secret-access-key"
	}
	out := map[string]any{
		"destinationPath": s.DestinationPath,
		"serverName":      serverName,
		"s3Credentials": map[string]any{
			"accessKeyId":     map[string]any{"name": creds.Name, "key": idKey},
			"secretAccessKey": map[string]any{"name": creds.Name, "key": secretKey},
		},
		// gzip: barman-cli-cloud needs no extra Python module for it.
		"wal":  map[string]any{"compression": "gzip"},
		"data": map[string]any{"compression": "gzip"},
	}
	if s.Endpoint != "" {
		out["endpointURL"] = s.Endpoint
	}
	return out
}

// managedBackupSpec adds spec.backup (WAL archiving and the retention of
// base backups) and, for a restore, spec.bootstrap.recovery and the
// external cluster it reads, to the spec of a managed Cluster.
func managedBackupSpec(site *sitev1.Site, spec map[string]any) {
	m := site.Spec.Database.Managed
	if b := m.Backup; b != nil {
		server := b.ObjectStore.ServerName
		if server == "" {
			server = ManagedClusterName(site.Name)
		}
		retention := b.RetentionPolicy
		if retention == "" {
			retention = defaultBackupRetention
		}
		spec["backup"] = map[string]any{
			"barmanObjectStore": barmanObjectStore(b.ObjectStore, server),
			"retentionPolicy":   retention,
		}
	}
	if r := m.Restore; r != nil {
		recovery := map[string]any{
			"source": restoreSource,
			// The application database and user of CloudNativePG's
			// default bootstrap, which the origin Cluster has: the
			// operator gives the user a new password (<cluster>-app).
			"database": "app",
			"owner":    "app",
		}
		if r.TargetTime != nil {
			recovery["recoveryTarget"] = map[string]any{"targetTime": r.TargetTime.UTC().Format(time.RFC3339)}
		}
		spec["bootstrap"] = map[string]any{"recovery": recovery}
		spec["externalClusters"] = []any{map[string]any{
			"name":              restoreSource,
			"barmanObjectStore": barmanObjectStore(r.ObjectStore, r.ObjectStore.ServerName),
		}}
	}
}

// ManagedScheduledBackup is the schedule of base backups of the managed
// Cluster ("<site>-db"), or nil when spec.database.managed.backup is not
// set. The first backup runs at once (immediate), so a point in time after
// the Site is Ready can be restored without waiting for the schedule. The
// Backups it makes belong to the ScheduledBackup, which belongs to the
// Site; the files in the object store stay (the retention policy prunes
// them).
func ManagedScheduledBackup(site *sitev1.Site) *unstructured.Unstructured {
	m := site.Spec.Database.Managed
	if m == nil || m.Backup == nil {
		return nil
	}
	schedule := m.Backup.Schedule
	if schedule == "" {
		schedule = defaultBackupSchedule
	}
	u := newUnstructured(site, CNPGScheduledBackupGVK, ManagedClusterName(site.Name), ComponentDatabase)
	u.Object["spec"] = map[string]any{
		"cluster":              map[string]any{"name": ManagedClusterName(site.Name)},
		"schedule":             schedule,
		"method":               "barmanObjectStore",
		"immediate":            true,
		"backupOwnerReference": "self",
	}
	return u
}
