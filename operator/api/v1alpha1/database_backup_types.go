package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// DatabaseObjectStore is a folder of an S3-compatible bucket where
// CloudNativePG keeps a Cluster's base backups and archived WAL (Barman's
// layout: <destinationPath>/<serverName>/base and .../wals).
type DatabaseObjectStore struct {
	// DestinationPath is the bucket and folder, s3://bucket/folder.
	// +required
	// +kubebuilder:validation:MinLength=6
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^s3://[a-z0-9][a-z0-9.-]*[a-z0-9](/.*)?$`
	DestinationPath string `json:"destinationPath"`

	// Endpoint is the S3 API's base URL of a server other than AWS S3
	// (MinIO, Ceph RGW, versitygw...), e.g. http://s3.storage:7070.
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="isURL(self) && url(self).getScheme() in ['http', 'https'] && url(self).getHostname() != ''",message="the object store's endpoint must be an absolute http or https URL"
	// +optional
	Endpoint string `json:"endpoint,omitempty"`

	// ServerName is the folder of one Cluster's backups under
	// destinationPath. For backups it defaults to the Cluster's name
	// ("<site>-db"); for a restore it names the Cluster whose backups are
	// read.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +optional
	ServerName string `json:"serverName,omitempty"`

	// CredentialsSecretRef names the Secret (in the Site's namespace) with
	// the access key id and secret access key.
	// +required
	CredentialsSecretRef S3CredentialsSecretRef `json:"credentialsSecretRef"`
}

// ManagedDatabaseBackup turns on CloudNativePG's backups of the managed
// Cluster: continuous WAL archiving and scheduled base backups to an
// object store, which a later Site can restore to any point in time
// within the retention.
type ManagedDatabaseBackup struct {
	// ObjectStore receives the base backups and the WAL. Its serverName
	// defaults to the Cluster's name; it must be a folder no other Cluster
	// archives to (CloudNativePG refuses a non-empty WAL archive).
	// +required
	ObjectStore DatabaseObjectStore `json:"objectStore"`

	// Schedule of the base backups, a cron expression with seconds
	// (CloudNativePG's ScheduledBackup: "0 0 2 * * *" is every day at
	// 02:00). The first one runs when the ScheduledBackup is created.
	// +kubebuilder:default="0 0 2 * * *"
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^\S+( \S+){5}$`
	// +optional
	Schedule string `json:"schedule,omitempty"`

	// RetentionPolicy is how long backups and WAL are kept: days, weeks or
	// months, e.g. 30d.
	// +kubebuilder:default="30d"
	// +kubebuilder:validation:Pattern=`^[1-9][0-9]*[dwm]$`
	// +kubebuilder:validation:MaxLength=8
	// +optional
	RetentionPolicy string `json:"retentionPolicy,omitempty"`
}

// ManagedDatabaseRestore creates the managed Cluster from another
// Cluster's backups instead of an empty database (CloudNativePG's
// bootstrap.recovery from an external cluster's object store): the newest
// base backup before the target, then its WAL replayed up to the target.
// +kubebuilder:validation:XValidation:rule="has(self.objectStore.serverName)",message="database.managed.restore.objectStore.serverName names the Cluster whose backups are restored"
type ManagedDatabaseRestore struct {
	// ObjectStore holds the backups to restore; serverName is required.
	// +required
	ObjectStore DatabaseObjectStore `json:"objectStore"`

	// TargetTime is the point in time (RFC 3339) to recover to: every
	// transaction committed at or before it, none after. Empty: the end of
	// the archived WAL.
	// +optional
	TargetTime *metav1.Time `json:"targetTime,omitempty"`
}
