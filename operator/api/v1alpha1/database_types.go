package v1alpha1

// DatabaseSpec says where the site's PostgreSQL database is. Exactly one
// mode is set; the mode cannot change, since moving a running site to
// another database is a migration, not an edit.
// +kubebuilder:validation:XValidation:rule="[has(self.secretRef), has(self.cluster), has(self.managed), has(self.shared)].filter(x, x).size() == 1",message="set exactly one of database.secretRef, database.cluster, database.managed and database.shared"
// +kubebuilder:validation:XValidation:rule="has(self.secretRef) == has(oldSelf.secretRef) && has(self.cluster) == has(oldSelf.cluster) && has(self.managed) == has(oldSelf.managed) && has(self.shared) == has(oldSelf.shared)",message="the database mode is immutable"
type DatabaseSpec struct {
	// SecretRef is the Secret (in the Site's namespace) holding the DSN of
	// a PostgreSQL database the user runs.
	// +optional
	SecretRef *DatabaseSecretRef `json:"secretRef,omitempty"`

	// Cluster names an existing CloudNativePG Cluster; the site uses its
	// application database and user (the Cluster's "<name>-app" Secret),
	// writes on its -rw Service and anonymous reads on its -ro Service.
	// +optional
	Cluster *CNPGClusterRef `json:"cluster,omitempty"`

	// Managed asks for a CloudNativePG Cluster of the site's own,
	// "<site>-db", which the operator creates and which goes with the Site.
	// +optional
	Managed *ManagedDatabase `json:"managed,omitempty"`

	// Shared asks for a database of the site's own on a CloudNativePG
	// Cluster that several Sites share: a CNPG Database "<site>" owned by a
	// role of the site's own, which cannot read other sites' tables.
	// +optional
	Shared *SharedDatabase `json:"shared,omitempty"`
}

// DatabaseSecretRef selects a key of a Secret.
type DatabaseSecretRef struct {
	// Name of the Secret.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="database.secretRef.name is immutable"
	Name string `json:"name"`

	// Key of the DSN inside the Secret.
	// +kubebuilder:default=dsn
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +optional
	Key string `json:"key,omitempty"`
}
