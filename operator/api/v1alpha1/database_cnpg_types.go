package v1alpha1

import "k8s.io/apimachinery/pkg/api/resource"

// CNPGClusterRef names a CloudNativePG Cluster in the Site's namespace.
type CNPGClusterRef struct {
	// Name of the Cluster.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="database.cluster.name is immutable"
	Name string `json:"name"`
}

// ManagedDatabase is the CloudNativePG Cluster the operator runs for one
// site.
// +kubebuilder:validation:XValidation:rule="has(self.restore) == has(oldSelf.restore) && (!has(self.restore) || self.restore == oldSelf.restore)",message="database.managed.restore is immutable: it only says how the Cluster was created"
type ManagedDatabase struct {
	// Instances is the number of PostgreSQL instances: one primary, the
	// rest streaming replicas that serve the read pool and take over on
	// failover.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=9
	// +optional
	Instances int32 `json:"instances,omitempty"`

	// Storage of each instance.
	// +kubebuilder:default={}
	// +optional
	Storage ManagedDatabaseStorage `json:"storage,omitzero"`

	// Parameters are PostgreSQL settings (postgresql.conf), passed to the
	// Cluster as they are; CloudNativePG refuses the ones it manages.
	// +kubebuilder:validation:MaxProperties=64
	// +optional
	Parameters map[string]string `json:"parameters,omitempty"`

	// ImageName is the PostgreSQL image; empty: CloudNativePG's default.
	// +kubebuilder:validation:MaxLength=512
	// +optional
	ImageName string `json:"imageName,omitempty"`

	// Backup archives the Cluster's WAL continuously and takes scheduled
	// base backups to an S3-compatible object store (CloudNativePG's own
	// mechanism: Barman Cloud). The image must hold barman-cli-cloud.
	// +optional
	Backup *ManagedDatabaseBackup `json:"backup,omitempty"`

	// Restore creates the Cluster from another Cluster's backups, to a
	// point in time, instead of an empty database. It is read once, when
	// the Cluster is created, and cannot change afterwards.
	// +optional
	Restore *ManagedDatabaseRestore `json:"restore,omitempty"`
}

// ManagedDatabaseStorage is the volume of each PostgreSQL instance.
type ManagedDatabaseStorage struct {
	// Size of each instance's volume; it may grow, never shrink.
	// +kubebuilder:default="1Gi"
	// +optional
	Size resource.Quantity `json:"size,omitzero"`

	// StorageClass of the volumes; empty: the cluster's default class.
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="database.managed.storage.storageClass is immutable"
	// +optional
	StorageClass string `json:"storageClass,omitempty"`
}

// SharedDatabase is a database of the site's own on a shared
// CloudNativePG Cluster.
type SharedDatabase struct {
	// Cluster is the name of the shared Cluster, in the Site's namespace
	// (a CNPG Database and the roles of a Cluster live beside it).
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="database.shared.cluster is immutable"
	Cluster string `json:"cluster"`
}

// UsesCNPG reports whether the site's database is run by CloudNativePG
// (any mode but a DSN Secret).
func (d *DatabaseSpec) UsesCNPG() bool {
	return d.Cluster != nil || d.Managed != nil || d.Shared != nil
}
