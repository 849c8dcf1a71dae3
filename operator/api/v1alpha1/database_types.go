package v1alpha1

// DatabaseSpec references the database DSN.
type DatabaseSpec struct {
	// SecretRef is the Secret (in the Site's namespace) holding the DSN.
	// Its name cannot change: pointing a running site at another database
	// is a migration, not an edit.
	// +required
	SecretRef DatabaseSecretRef `json:"secretRef"`
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
