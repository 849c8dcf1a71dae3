package resources

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// TestManagedClusterBackupAndRestore: spec.database.managed.backup becomes
// the Cluster's barmanObjectStore (serverName defaulting to the Cluster's
// name, the credentials' default keys) and a ScheduledBackup; restore
// becomes bootstrap.recovery from an external cluster with the target
// time in RFC 3339; neither set leaves the Cluster without them.
func TestManagedClusterBackupAndRestore(t *testing.T) {
	store := sitev1.DatabaseObjectStore{DestinationPath: "s3://backups/pg", Endpoint: "http://s3.storage:7070",
		CredentialsSecretRef: sitev1.S3CredentialsSecretRef{Name: "s3"}}
	target := metav1.NewTime(time.Date(2026, 11, 28, 23, 5, 7, 0, time.FixedZone("x", 3600)))
	from := store
	from.ServerName = "old-db"
	for _, tc := range []struct {
		name         string
		managed      sitev1.ManagedDatabase
		wantCluster  []string // JSON fragments of the Cluster's spec
		absent       []string
		wantSchedule string // "" for no ScheduledBackup
	}{
		{"neither", sitev1.ManagedDatabase{Instances: 1}, nil,
			[]string{`"backup"`, `"bootstrap"`, `"externalClusters"`}, ""},
		{"backup with defaults", sitev1.ManagedDatabase{Backup: &sitev1.ManagedDatabaseBackup{ObjectStore: store}},
			[]string{`"destinationPath":"s3://backups/pg"`, `"endpointURL":"http://s3.storage:7070"`, `"serverName":"my-blog-db"`,
				`"accessKeyId":{"key":"access-key-id","name":"s3"}`, `"secretAccessKey":{"key":"secret-access-key","name":"s3"}`,
				`"retentionPolicy":"30d"`},
			[]string{`"bootstrap"`}, "0 0 2 * * *"},
		{"backup as asked", sitev1.ManagedDatabase{Backup: &sitev1.ManagedDatabaseBackup{ObjectStore: from,
			Schedule: "0 */5 * * * *", RetentionPolicy: "2w"}},
			[]string{`"serverName":"old-db"`, `"retentionPolicy":"2w"`}, nil, "0 */5 * * * *"},
		{"restore to a point in time", sitev1.ManagedDatabase{Restore: &sitev1.ManagedDatabaseRestore{ObjectStore: from, TargetTime: &target}},
			[]string{`"bootstrap":{"recovery":{"database":"app","owner":"app","recoveryTarget":{"targetTime":"2026-11-28T22:05:07Z"},"source":"origin"}}`,
				`"externalClusters":[{"barmanObjectStore":{`, `"serverName":"old-db"`, `"name":"origin"`},
			[]string{`"backup"`}, ""},
		{"restore to the end of the WAL", sitev1.ManagedDatabase{Restore: &sitev1.ManagedDatabaseRestore{ObjectStore: from}},
			[]string{`"recovery":{"database":"app","owner":"app","source":"origin"}`}, []string{`recoveryTarget`}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := cnpgTestSite(sitev1.DatabaseSpec{Managed: &tc.managed})
			spec, err := json.Marshal(ManagedCluster(site).Object["spec"])
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.wantCluster {
				if !strings.Contains(string(spec), w) {
					t.Errorf("Cluster spec %s\nlacks %s", spec, w)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(string(spec), a) {
					t.Errorf("Cluster spec %s\nhas %s", spec, a)
				}
			}
			sb := ManagedScheduledBackup(site)
			if (sb != nil) != (tc.wantSchedule != "") {
				t.Fatalf("ScheduledBackup %v, want schedule %q", sb, tc.wantSchedule)
			}
			if sb == nil {
				return
			}
			got, _ := json.Marshal(sb.Object["spec"])
			want := `{"backupOwnerReference":"self","cluster":{"name":"my-blog-db"},"immediate":true,"method":"barmanObjectStore","schedule":"` + tc.wantSchedule + `"}`
			if string(got) != want || sb.GetName() != "my-blog-db" || len(sb.GetOwnerReferences()) != 1 {
				t.Errorf("ScheduledBackup %s %s owners %v, want %s", sb.GetName(), got, sb.GetOwnerReferences(), want)
			}
		})
	}
}
