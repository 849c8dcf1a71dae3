package v1alpha1

import (
	networkingv1 "k8s.io/api/networking/v1"
)

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
