// Longer than 500 lines on purpose: the Site's schema, every field with its
// validation markers, reads as one document in the order of the generated
// CRD (config/crd/bases), which is what reviewers compare it with.

package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SiteSpec describes one site: its settings, the database it uses, the four
// service components, how it is exposed, the marketplace keys to issue and the
// extension switches.
//
// +kubebuilder:validation:XValidation:rule="!has(self.components) || !has(self.components.media) || !has(self.components.media.replicas) || self.components.media.replicas <= 1 || (has(self.media) && (has(self.media.s3) || (has(self.media.storage) && self.media.storage.accessMode == 'ReadWriteMany')))",message="components.media.replicas > 1 needs media.s3 or media.storage.accessMode ReadWriteMany"
// +kubebuilder:validation:XValidation:rule="!has(self.components) || !has(self.components.media) || !has(self.components.media.autoscaling) || self.components.media.autoscaling.maxReplicas <= 1 || (has(self.media) && (has(self.media.s3) || (has(self.media.storage) && self.media.storage.accessMode == 'ReadWriteMany')))",message="components.media.autoscaling.maxReplicas > 1 needs media.s3 or media.storage.accessMode ReadWriteMany"
type SiteSpec struct {
	// Title is the site title (the index's "name").
	// +kubebuilder:default="Siteplane"
	// +kubebuilder:validation:MaxLength=200
	// +optional
	Title string `json:"title,omitempty"`

	// Description is the site tagline.
	// +kubebuilder:validation:MaxLength=1000
	// +optional
	Description string `json:"description,omitempty"`

	// URL is the public address of the site, e.g. https://blog.example.com.
	// Links, oEmbed and the index are built from it.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="isURL(self) && url(self).getScheme() in ['http', 'https'] && url(self).getHostname() != ''",message="url must be an absolute http or https URL"
	// +kubebuilder:validation:XValidation:rule="!self.contains('?') && !self.contains('#')",message="url must not have a query or fragment"
	URL string `json:"url"`

	// Timezone is an IANA time zone name, e.g. Europe/Paris.
	// +kubebuilder:default="UTC"
	// +kubebuilder:validation:MaxLength=64
	// +optional
	Timezone string `json:"timezone,omitempty"`

	// FrontPage says what the site's front page shows.
	// +kubebuilder:default={}
	// +optional
	FrontPage FrontPageSpec `json:"frontPage,omitzero"`

	// Database names the Secret holding the DSN of an existing PostgreSQL
	// database (for example one run by CloudNativePG).
	// +required
	Database DatabaseSpec `json:"database"`

	// Admin is the bootstrap administrator. Its application password is
	// generated into a Secret (status.secrets.admin).
	// +kubebuilder:default={}
	// +optional
	Admin AdminSpec `json:"admin,omitzero"`

	// Components configures the four services.
	// +kubebuilder:default={}
	// +optional
	Components ComponentsSpec `json:"components,omitzero"`

	// Media configures the storage of uploaded files.
	// +kubebuilder:default={}
	// +optional
	Media MediaSpec `json:"media,omitzero"`

	// Exposure says how the gateway is reached from outside the cluster.
	// +kubebuilder:default={}
	// +optional
	Exposure ExposureSpec `json:"exposure,omitzero"`

	// Marketplace lists the marketplace API keys the operator issues.
	// +kubebuilder:default={}
	// +optional
	Marketplace MarketplaceSpec `json:"marketplace,omitzero"`

	// Extensions switches the optional extension namespaces.
	// +kubebuilder:default={}
	// +optional
	Extensions ExtensionsSpec `json:"extensions,omitzero"`

	// NetworkPolicy controls the NetworkPolicies written for the site.
	// +kubebuilder:default={}
	// +optional
	NetworkPolicy NetworkPolicySpec `json:"networkPolicy,omitzero"`

	// Monitoring controls the ServiceMonitor written when the Prometheus
	// Operator's CRD is served.
	// +kubebuilder:default={}
	// +optional
	Monitoring MonitoringSpec `json:"monitoring,omitzero"`

	// Suspend stops the operator from changing any child object of this
	// site. Running workloads keep running; status shows phase Suspended.
	// +optional
	Suspend bool `json:"suspend,omitempty"`
}

// FrontPageSpec is WordPress's show_on_front, page_on_front and page_for_posts.
//
// +kubebuilder:validation:XValidation:rule="!has(self.show) || self.show != 'page' || (has(self.pageOnFront) && self.pageOnFront > 0)",message="show: page needs pageOnFront"
type FrontPageSpec struct {
	// Show is "posts" (latest posts) or "page" (a static page).
	// +kubebuilder:validation:Enum=posts;page
	// +kubebuilder:default=posts
	// +optional
	Show string `json:"show,omitempty"`

	// PageOnFront is the id of the page shown on the front page.
	// +kubebuilder:validation:Minimum=0
	// +optional
	PageOnFront int64 `json:"pageOnFront,omitempty"`

	// PageForPosts is the id of the page that lists the posts.
	// +kubebuilder:validation:Minimum=0
	// +optional
	PageForPosts int64 `json:"pageForPosts,omitempty"`
}

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

// AdminSpec is the bootstrap administrator.
type AdminSpec struct {
	// Username of the administrator.
	// +kubebuilder:default=admin
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=60
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9_.@-]+$`
	// +optional
	Username string `json:"username,omitempty"`

	// Email of the administrator; admin@<site host> when empty (or
	// admin@<host>.invalid when the host has no dot). The gateway refuses to
	// start with an address it would not accept from a user: at most 100
	// characters, a dot in the domain.
	// +kubebuilder:validation:MaxLength=100
	// +kubebuilder:validation:Pattern=`^[^@\s]+@[^@\s]+\.[^@\s]+$`
	// +optional
	Email string `json:"email,omitempty"`

	// PasswordSecretRef names a Secret of yours holding the administrator's
	// sign-in password (cms-login.php). When empty, the operator generates
	// one into the admin Secret (key login-password), and a new value of the
	// Site annotation siteplane.dev/rotate-admin-password replaces it.
	// +optional
	PasswordSecretRef *AdminPasswordSecretRef `json:"passwordSecretRef,omitempty"`
}

// AdminPasswordSecretRef selects the key of a Secret holding the
// administrator's sign-in password.
type AdminPasswordSecretRef struct {
	// Name of the Secret, in the Site's namespace.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// Key of the password inside the Secret.
	// +kubebuilder:default=password
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +optional
	Key string `json:"key,omitempty"`
}

// ComponentsSpec configures each service.
type ComponentsSpec struct {
	// Gateway is the public entry point.
	// +kubebuilder:default={}
	// +optional
	Gateway ComponentSpec `json:"gateway,omitzero"`
	// Content serves cms/v2 except media.
	// +kubebuilder:default={}
	// +optional
	Content ComponentSpec `json:"content,omitzero"`
	// Media serves cms/v2/media and the upload files.
	// +kubebuilder:default={}
	// +optional
	Media ComponentSpec `json:"media,omitzero"`
	// Marketplace serves the marketplace author API.
	// +kubebuilder:default={}
	// +optional
	Marketplace ComponentSpec `json:"marketplace,omitzero"`
}

// ComponentSpec configures one service's Deployment.
type ComponentSpec struct {
	// Replicas of the Deployment. A PodDisruptionBudget is written when it is
	// above one. Ignored when autoscaling is set.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	// Autoscaling hands the replica count to a HorizontalPodAutoscaler the
	// operator writes; the operator then stops setting the Deployment's
	// replicas, so the two never fight over them. Scaling on CPU needs a CPU
	// request (the default resources have one).
	// +optional
	Autoscaling *AutoscalingSpec `json:"autoscaling,omitempty"`

	// Image of the service; the operator's default image for this component
	// when empty.
	// +kubebuilder:validation:MaxLength=512
	// +optional
	Image string `json:"image,omitempty"`

	// ImagePullPolicy of the container.
	// +kubebuilder:validation:Enum=Always;IfNotPresent;Never
	// +optional
	ImagePullPolicy corev1.PullPolicy `json:"imagePullPolicy,omitempty"`

	// Resources of the container; modest defaults when unset.
	// +optional
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`

	// Env is added to the container's environment; an entry with the name of
	// an operator-set variable replaces it (SITEPLANE_DATABASE_URL and
	// SITEPLANE_INTERNAL_KEY also replace their _FILE variants).
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=64
	// +optional
	Env []corev1.EnvVar `json:"env,omitempty"`
}

// AutoscalingSpec configures a component's HorizontalPodAutoscaler.
//
// +kubebuilder:validation:XValidation:rule="!has(self.minReplicas) || self.minReplicas <= self.maxReplicas",message="autoscaling.minReplicas must not exceed maxReplicas"
type AutoscalingSpec struct {
	// MinReplicas is the fewest pods the autoscaler keeps.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +optional
	MinReplicas *int32 `json:"minReplicas,omitempty"`

	// MaxReplicas is the most pods the autoscaler runs. A PodDisruptionBudget
	// is written when it is above one.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	MaxReplicas int32 `json:"maxReplicas"`

	// TargetCPUUtilization is the average CPU use the autoscaler aims for, in
	// percent of the container's CPU request.
	// +kubebuilder:default=80
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +optional
	TargetCPUUtilization *int32 `json:"targetCPUUtilization,omitempty"`
}

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

// ExposureType says how the gateway is exposed.
// +kubebuilder:validation:Enum=None;Ingress;HTTPRoute
type ExposureType string

// Exposure types.
const (
	ExposureNone      ExposureType = "None"
	ExposureIngress   ExposureType = "Ingress"
	ExposureHTTPRoute ExposureType = "HTTPRoute"
)

// ExposureSpec selects and configures one way of exposing the gateway.
//
// +kubebuilder:validation:XValidation:rule="(has(self.type) && self.type == 'Ingress') == has(self.ingress)",message="ingress must be set exactly when type is Ingress"
// +kubebuilder:validation:XValidation:rule="(has(self.type) && self.type == 'HTTPRoute') == has(self.httpRoute)",message="httpRoute must be set exactly when type is HTTPRoute"
type ExposureSpec struct {
	// Type is None (cluster-internal only), Ingress or HTTPRoute.
	// +kubebuilder:default=None
	// +optional
	Type ExposureType `json:"type,omitempty"`

	// Ingress configures the Ingress when type is Ingress.
	// +optional
	Ingress *IngressSpec `json:"ingress,omitempty"`

	// HTTPRoute configures the Gateway API HTTPRoute when type is HTTPRoute.
	// +optional
	HTTPRoute *HTTPRouteSpec `json:"httpRoute,omitempty"`

	// TrustedProxies are the address ranges (CIDRs or single addresses) of
	// the proxies in front of the gateway (the ingress controller's pods,
	// a load balancer) whose X-Forwarded-For the gateway believes, so
	// sign-in throttling and sessions see the client's address. Empty: the
	// operator's default (its --trusted-proxies flag, chart value
	// trustedProxies, or else the cluster's pod network when the nodes
	// report it).
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:items:MaxLength=43
	// +kubebuilder:validation:items:Pattern=`^([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-fA-F:]*:[0-9a-fA-F:.]*)(/[0-9]{1,3})?$`
	// +listType=atomic
	// +optional
	TrustedProxies []string `json:"trustedProxies,omitempty"`
}

// IngressSpec configures the site's Ingress.
type IngressSpec struct {
	// Host served by the Ingress.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	Host string `json:"host"`

	// ClassName is the IngressClass; the cluster default when empty.
	// +optional
	ClassName *string `json:"className,omitempty"`

	// TLSSecretName names the Secret with the certificate for Host; plain
	// HTTP when empty.
	// +kubebuilder:validation:MaxLength=253
	// +optional
	TLSSecretName string `json:"tlsSecretName,omitempty"`

	// Annotations are copied onto the Ingress (cert-manager, controller knobs).
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
}

// HTTPRouteSpec configures the site's Gateway API HTTPRoute.
type HTTPRouteSpec struct {
	// ParentRefs are the Gateways the route attaches to.
	// +required
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	ParentRefs []ParentReference `json:"parentRefs"`

	// Hostnames matched by the route; every hostname when empty.
	// +kubebuilder:validation:MaxItems=16
	// +optional
	Hostnames []string `json:"hostnames,omitempty"`

	// Annotations are copied onto the HTTPRoute.
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
}

// ParentReference names a Gateway (a subset of Gateway API's ParentReference).
type ParentReference struct {
	// Name of the Gateway.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
	// Namespace of the Gateway; the Site's namespace when empty.
	// +kubebuilder:validation:MaxLength=63
	// +optional
	Namespace string `json:"namespace,omitempty"`
	// SectionName selects one listener of the Gateway.
	// +kubebuilder:validation:MaxLength=253
	// +optional
	SectionName string `json:"sectionName,omitempty"`
}

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

// ExtensionsSpec switches the extension namespaces served by the gateway.
type ExtensionsSpec struct {
	// CachePlugin serves the cache-plugin/* routes.
	// +kubebuilder:default=true
	// +optional
	CachePlugin *bool `json:"cachePlugin,omitempty"`
	// HostTools serves the host-tools/* routes.
	// +kubebuilder:default=true
	// +optional
	HostTools *bool `json:"hostTools,omitempty"`
}

// NetworkPolicySpec configures the site's NetworkPolicies: only the gateway
// is reachable from outside; the other services only from the gateway and
// from Prometheus; egress only to the database, DNS and the site itself.
type NetworkPolicySpec struct {
	// Enabled writes the NetworkPolicies.
	// +kubebuilder:default=true
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// GatewayFrom restricts who reaches the gateway's API port (for example
	// the ingress controller's namespace); everyone when empty. The site's
	// own pods are always allowed.
	// +optional
	GatewayFrom []networkingv1.NetworkPolicyPeer `json:"gatewayFrom,omitempty"`

	// MetricsFrom restricts who scrapes the metrics port; every namespace
	// when empty.
	// +optional
	MetricsFrom []networkingv1.NetworkPolicyPeer `json:"metricsFrom,omitempty"`

	// DatabaseTo restricts where the database is; everywhere when empty.
	// +optional
	DatabaseTo []networkingv1.NetworkPolicyPeer `json:"databaseTo,omitempty"`

	// ExtraEgress is added to every component's egress rules, for example to
	// let the gateway fetch oEmbed providers on the internet.
	// +kubebuilder:validation:MaxItems=16
	// +optional
	ExtraEgress []networkingv1.NetworkPolicyEgressRule `json:"extraEgress,omitempty"`

	// DatabasePort is the PostgreSQL port allowed for egress: the port the
	// database pods listen on (a NetworkPolicy sees the destination after the
	// Service has translated it).
	// +kubebuilder:default=5432
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	// +optional
	DatabasePort int32 `json:"databasePort,omitempty"`
}

// MonitoringSpec configures the site's ServiceMonitor.
type MonitoringSpec struct {
	// ServiceMonitor is written when enabled and the CRD is served.
	// +kubebuilder:default={}
	// +optional
	ServiceMonitor ServiceMonitorSpec `json:"serviceMonitor,omitzero"`
}

// ServiceMonitorSpec configures the ServiceMonitor.
type ServiceMonitorSpec struct {
	// Enabled writes the ServiceMonitor when the CRD is served.
	// +kubebuilder:default=true
	// +optional
	Enabled *bool `json:"enabled,omitempty"`
	// Labels are added to the ServiceMonitor so that a Prometheus selects it.
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// Interval between scrapes, e.g. 30s.
	// +kubebuilder:validation:Pattern=`^([0-9]+(ms|s|m|h))+$`
	// +optional
	Interval string `json:"interval,omitempty"`
}

// SitePhase is a one-word summary of the site; conditions are the truth.
// +kubebuilder:validation:Enum=Pending;Provisioning;Ready;Degraded;Suspended;Failed
type SitePhase string

// Phases.
const (
	PhasePending      SitePhase = "Pending"
	PhaseProvisioning SitePhase = "Provisioning"
	PhaseReady        SitePhase = "Ready"
	PhaseDegraded     SitePhase = "Degraded"
	PhaseSuspended    SitePhase = "Suspended"
	PhaseFailed       SitePhase = "Failed"
)

// SiteStatus is the observed state of a Site.
type SiteStatus struct {
	// ObservedGeneration is the generation the last complete pass acted on.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Conditions: GatewayReady, ContentReady, MediaReady, MarketplaceReady,
	// SecretsReady, RoutesReady, Exposed and the aggregated Ready.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// Phase summarises the conditions.
	// +optional
	Phase SitePhase `json:"phase,omitempty"`

	// URL is the public site address.
	// +optional
	URL string `json:"url,omitempty"`

	// Endpoint is where the site answers inside the cluster: the gateway
	// Service's address (several Sites may share a public URL while being
	// tried through port-forwards; this tells them apart).
	// +optional
	Endpoint string `json:"endpoint,omitempty"`

	// Components counts the available components, e.g. "3/4".
	// +optional
	Components string `json:"components,omitempty"`

	// Secrets names the generated Secrets.
	// +optional
	Secrets SecretsStatus `json:"secrets,omitzero"`
}

// SecretsStatus names the Secrets the operator generated.
type SecretsStatus struct {
	// InternalKey is the Secret of the identity-signing key.
	// +optional
	InternalKey string `json:"internalKey,omitempty"`
	// Admin is the Secret of the bootstrap administrator.
	// +optional
	Admin string `json:"admin,omitempty"`
	// APIKeys are the marketplace key Secrets.
	// +listType=map
	// +listMapKey=name
	// +optional
	APIKeys []APIKeyStatus `json:"apiKeys,omitempty"`
}

// APIKeyStatus describes one issued marketplace key.
type APIKeyStatus struct {
	// Name of the key.
	Name string `json:"name"`
	// SecretName holds the current key.
	SecretName string `json:"secretName"`
	// CreatedAt is when the current key was generated.
	// +optional
	CreatedAt *metav1.Time `json:"createdAt,omitempty"`
	// PreviousSecretName holds the previous key during its grace period.
	// +optional
	PreviousSecretName string `json:"previousSecretName,omitempty"`
	// PreviousExpiresAt is when the previous key stops working.
	// +optional
	PreviousExpiresAt *metav1.Time `json:"previousExpiresAt,omitempty"`
}

// Site is one Siteplane site: a gateway, content, media and marketplace
// service sharing a PostgreSQL database, reachable at spec.url.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=site
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Components",type=string,JSONPath=`.status.components`
// +kubebuilder:printcolumn:name="URL",type=string,JSONPath=`.status.url`
// +kubebuilder:printcolumn:name="Endpoint",type=string,JSONPath=`.status.endpoint`,priority=1
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.size() <= 40 && self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",message="metadata.name must be a DNS label of at most 40 characters starting with a letter (it prefixes Service names)"
type Site struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// +required
	Spec SiteSpec `json:"spec"`

	// +optional
	Status SiteStatus `json:"status,omitzero"`
}

// SiteList is a list of Sites.
//
// +kubebuilder:object:root=true
type SiteList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Site `json:"items"`
}
