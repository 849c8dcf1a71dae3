package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MarketplaceSpec lists the API keys to issue.
type MarketplaceSpec struct {
	// APIKeys to issue, each into its own Secret mounted into the
	// marketplace service's key directory.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=32
	// +optional
	APIKeys []APIKeySpec `json:"apiKeys,omitempty"`
}

// APIKeySpec is one marketplace API key.
//
// +kubebuilder:validation:XValidation:rule="!has(self.rotation) || !has(self.rotation.gracePeriod) || duration(self.rotation.gracePeriod) < duration(self.rotation.period)",message="rotation.gracePeriod must be shorter than rotation.period"
type APIKeySpec struct {
	// Name of the key: a DNS label, the key's directory name.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=40
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +kubebuilder:validation:XValidation:rule="!self.endsWith('-previous')",message="key names ending in -previous are reserved for rotated keys"
	Name string `json:"name"`

	// Account is the username of the marketplace account owning the key.
	// The marketplace creates the account when it does not exist (empty:
	// no balance, no profile; an import can fill it later) and never
	// changes an existing one, so the key works without an import.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=100
	Account string `json:"account"`

	// AccountEmail is the email address of the account when the marketplace
	// creates it; defaults to <account>@<the site's host>.
	// +kubebuilder:validation:MaxLength=100
	// +kubebuilder:validation:Pattern=`^[^@\s]+@[^@\s]+\.[^@\s]+$`
	// +optional
	AccountEmail string `json:"accountEmail,omitempty"`

	// Rotation replaces the key periodically; unset means never.
	// +optional
	Rotation *KeyRotation `json:"rotation,omitempty"`
}

// KeyRotation is a rotation schedule with a grace window.
type KeyRotation struct {
	// Period between rotations, e.g. 720h.
	// +required
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('1m')",message="rotation.period must be at least 1m"
	Period metav1.Duration `json:"period"`

	// GracePeriod during which the previous key keeps working after a
	// rotation.
	// +kubebuilder:default="24h"
	// +optional
	GracePeriod *metav1.Duration `json:"gracePeriod,omitempty"`
}
