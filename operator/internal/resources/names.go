package resources

import (
	"strconv"

	"siteplane.dev/services/pkg/contract"
)

// FieldManager is the one server-side apply field manager of the operator.
const FieldManager = "siteplane-operator"

// ReplicasHandoverManager co-owns a Deployment's spec.replicas while the
// operator hands the field over to a HorizontalPodAutoscaler.
const ReplicasHandoverManager = "siteplane-operator-replicas-handover"

// Names of the children of a Site. Every name is prefixed with the Site name
// (at most 40 characters, enforced by the CRD) so two Sites in a namespace
// never collide.

// ComponentName names a component's Deployment, Service, PDB and
// NetworkPolicy. The route file reaches the component at
// http://<ComponentName>:8080.
func ComponentName(site, component string) string { return site + "-" + component }

// ConfigMapName names the ConfigMap with the site and route files.
func ConfigMapName(site string) string { return site + "-config" }

// InternalKeySecretName names the Secret of the identity-signing key.
func InternalKeySecretName(site string) string { return site + "-internal-key" }

// GatewaySecretName names the Secret of the gateway's non-rotating secret.
func GatewaySecretName(site string) string { return site + "-gateway-secret" }

// InternalServiceURL is the gateway's internal listener inside the cluster
// (the user lookup content calls).
func InternalServiceURL(site string) string {
	return "http://" + ComponentName(site, contract.ServiceGateway) + ":" + strconv.Itoa(contract.DefaultInternalPort)
}

// AdminSecretName names the bootstrap administrator's Secret.
func AdminSecretName(site string) string { return site + "-admin" }

// APIKeySecretName names the Secret of a marketplace key.
func APIKeySecretName(site, key string) string { return site + "-apikey-" + key }

// PreviousAPIKeySecretName names the Secret keeping a rotated-out key during
// its grace period.
func PreviousAPIKeySecretName(site, key string) string {
	return APIKeySecretName(site, key) + "-previous"
}

// PreviousKeyDir is the key directory entry of a rotated-out key: a distinct
// key name, so the marketplace service accepts both keys for the same account.
func PreviousKeyDir(key string) string { return key + "-previous" }

// MediaPVCName names the media files claim.
func MediaPVCName(site string) string { return site + "-media" }

// ExposureName names the Ingress, HTTPRoute and ServiceMonitor.
func ExposureName(site string) string { return site }

// ServiceURL is the in-cluster base URL of a component.
func ServiceURL(site, component string) string {
	return "http://" + ComponentName(site, component) + ":" + strconv.Itoa(contract.DefaultAPIPort)
}
