// The Site's schema is split by concern: this file holds the Site, its spec's
// top level and its status; database_types.go, components_types.go,
// media_types.go, exposure_types.go and marketplace_types.go the parts the
// spec names. The generated CRD (config/crd/bases) orders fields by name.

package v1alpha1

import (
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

	// Theme is the site's block theme: the built-in one unless it names a
	// theme supplied as an OCI image.
	// +kubebuilder:default={}
	// +optional
	Theme ThemeSpec `json:"theme,omitzero"`

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

	// WPAlias also serves the REST API under WordPress's names: the /wp-json/
	// root and the wp/v2 namespace, answered by the cms/v2 handlers with
	// links in the names the client used, so unmodified WordPress clients
	// work. Off by default: cms/v2 stays the primary namespace.
	// +kubebuilder:default=false
	// +optional
	WPAlias *bool `json:"wpAlias,omitempty"`

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
