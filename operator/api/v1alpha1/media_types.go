package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// MediaSpec says where uploaded files are stored: on a PersistentVolumeClaim
// (storage; the default, a 10Gi ReadWriteOnce claim, when neither is set) or
// in an S3-compatible bucket (s3). The claim's class, access mode and size
// follow Kubernetes' rules for a claim while the site keeps using one; the
// rules do not apply across a switch between the two (the files are not
// moved: copy them first).
//
// +kubebuilder:validation:XValidation:rule="!(has(self.storage) && has(self.s3))",message="media.storage and media.s3 are mutually exclusive"
// +kubebuilder:validation:XValidation:rule="has(self.s3) || has(oldSelf.s3) || (has(self.storage) && has(self.storage.accessMode) ? self.storage.accessMode : 'ReadWriteOnce') == (has(oldSelf.storage) && has(oldSelf.storage.accessMode) ? oldSelf.storage.accessMode : 'ReadWriteOnce')",message="media.storage.accessMode is immutable"
// +kubebuilder:validation:XValidation:rule="has(self.s3) || has(oldSelf.s3) || (has(self.storage) && has(self.storage.storageClassName)) == (has(oldSelf.storage) && has(oldSelf.storage.storageClassName))",message="media.storage.storageClassName cannot be added or removed"
// +kubebuilder:validation:XValidation:rule="has(self.s3) || has(oldSelf.s3) || quantity(has(self.storage) && has(self.storage.size) ? string(self.storage.size) : '10Gi').compareTo(quantity(has(oldSelf.storage) && has(oldSelf.storage.size) ? string(oldSelf.storage.size) : '10Gi')) >= 0",message="media.storage.size cannot shrink"
type MediaSpec struct {
	// Storage is the PersistentVolumeClaim holding uploaded files. Unset
	// (and s3 unset): a 10Gi ReadWriteOnce claim of the default class.
	// +optional
	Storage MediaStorageSpec `json:"storage,omitzero"`

	// S3 stores the files in an S3-compatible bucket instead of a claim;
	// the media component may then run more than one replica.
	// +optional
	S3 *MediaS3Spec `json:"s3,omitempty"`
}

// MediaStorageSpec describes the media PersistentVolumeClaim, whose class
// and access mode Kubernetes does not let change after creation (the rules
// are on MediaSpec, so that they also see a claim left at its defaults).
type MediaStorageSpec struct {
	// Size requested for the volume. It can grow (when the storage class
	// allows expansion) but not shrink.
	// +kubebuilder:default="10Gi"
	// +optional
	Size *resource.Quantity `json:"size,omitempty"`

	// StorageClassName of the claim; the cluster default when empty.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="media.storage.storageClassName is immutable"
	// +optional
	StorageClassName *string `json:"storageClassName,omitempty"`

	// AccessMode of the claim. ReadWriteMany is needed for more than one
	// media replica.
	// +kubebuilder:validation:Enum=ReadWriteOnce;ReadWriteMany
	// +kubebuilder:default=ReadWriteOnce
	// +optional
	AccessMode corev1.PersistentVolumeAccessMode `json:"accessMode,omitempty"`

	// DeletionPolicy says whether the claim is deleted with the Site
	// (Delete: it is owned by the Site) or kept (Retain: no owner reference).
	// +kubebuilder:validation:Enum=Delete;Retain
	// +kubebuilder:default=Delete
	// +optional
	DeletionPolicy string `json:"deletionPolicy,omitempty"`
}

// MediaS3Spec points the media component at an S3-compatible bucket (AWS
// S3, MinIO, Ceph RGW, Garage, versitygw, ...). The bucket must exist; the
// operator creates no claim, injects these settings into the media pods
// and mounts the credentials Secret, whose content is hashed into the pod
// template like the other Secrets, so changing the keys rolls the pods.
type MediaS3Spec struct {
	// Endpoint is the S3 API's base URL, e.g.
	// https://s3.eu-west-1.amazonaws.com or http://minio.storage:9000. Its
	// port is opened for the media pods' egress when NetworkPolicies are on.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="isURL(self) && url(self).getScheme() in ['http', 'https'] && url(self).getHostname() != ''",message="media.s3.endpoint must be an absolute http or https URL"
	// +kubebuilder:validation:XValidation:rule="url(self).getEscapedPath() in ['', '/'] && !self.contains('?') && !self.contains('#')",message="media.s3.endpoint must have no path, query or fragment"
	Endpoint string `json:"endpoint"`

	// Bucket holding the files.
	// +required
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9][a-z0-9.-]*[a-z0-9]$`
	Bucket string `json:"bucket"`

	// Region of the bucket; us-east-1 when empty (what most self-hosted
	// servers expect).
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[a-z0-9-]*$`
	// +optional
	Region string `json:"region,omitempty"`

	// Prefix is a folder of the bucket holding this site's files, so several
	// sites can share a bucket: "blog" (or "blog/") stores
	// 2026/11/photo.jpg as blog/2026/11/photo.jpg.
	// Its folder names are letters, digits and "._-", not starting with a dot.
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-][A-Za-z0-9._-]*(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*/?$`
	// +optional
	Prefix string `json:"prefix,omitempty"`

	// PathStyle addresses the bucket in the URL path (endpoint/bucket/key)
	// instead of as a host name (bucket.endpoint/key); most self-hosted
	// servers need it.
	// +optional
	PathStyle bool `json:"pathStyle,omitempty"`

	// CredentialsSecretRef names the Secret (in the Site's namespace) with
	// the access key id and secret access key.
	// +required
	CredentialsSecretRef S3CredentialsSecretRef `json:"credentialsSecretRef"`
}

// S3CredentialsSecretRef selects the two keys of an S3 credentials Secret.
type S3CredentialsSecretRef struct {
	// Name of the Secret.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// AccessKeyIDKey is the key of the access key id in the Secret (a
	// Rook/OBC bucket Secret calls it AWS_ACCESS_KEY_ID).
	// +kubebuilder:default=access-key-id
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +optional
	AccessKeyIDKey string `json:"accessKeyIDKey,omitempty"`

	// SecretAccessKeyKey is the key of the secret access key in the Secret
	// (AWS_SECRET_ACCESS_KEY in a Rook/OBC bucket Secret).
	// +kubebuilder:default=secret-access-key
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +optional
	SecretAccessKeyKey string `json:"secretAccessKeyKey,omitempty"`
}
