package v1alpha1

// Condition types of a Site. Each component has its own <Component>Ready
// condition (see ComponentConditionType); Ready aggregates them all.
const (
	ConditionReady        = "Ready"
	ConditionSecretsReady = "SecretsReady"
	ConditionRoutesReady  = "RoutesReady"
	// ConditionExposed: the site answers where it is exposed (the gateway
	// Service has ready endpoints, the Ingress or HTTPRoute is admitted,
	// and a request through the Service answers the REST index).
	ConditionExposed = "Exposed"
)

// Condition reasons.
const (
	ReasonAvailable             = "Available"
	ReasonProgressing           = "Progressing"
	ReasonDeploymentFailed      = "DeploymentFailed"
	ReasonScaledToZero          = "ScaledToZero"
	ReasonSecretsGenerated      = "SecretsGenerated"
	ReasonDatabaseSecretMissing = "DatabaseSecretMissing"
	ReasonDatabaseKeyMissing    = "DatabaseKeyMissing"
	ReasonRoutesConfigured      = "RoutesConfigured"
	ReasonNotExposed            = "NotExposed"
	ReasonGatewayAPIMissing     = "GatewayAPINotInstalled"
	ReasonInvalidSettings       = "InvalidSettings"
	ReasonComponentsNotReady    = "ComponentsNotReady"
	ReasonAllReady              = "AllReady"
	// ReasonApplyRejected: the API server refused a child object (a quota,
	// an admission policy, missing permissions); the pass cannot finish
	// until someone changes that.
	ReasonApplyRejected = "ApplyRejected"
	// ReasonMediaCredentialsSecretMissing and ReasonMediaCredentialsKeyMissing:
	// the S3 credentials Secret named by spec.media.s3 is absent or lacks a
	// key; the media pods wait for it.
	ReasonMediaCredentialsSecretMissing = "MediaCredentialsSecretMissing"
	ReasonMediaCredentialsKeyMissing    = "MediaCredentialsKeyMissing"
	// ReasonAdminPasswordSecretMissing and ReasonAdminPasswordKeyMissing:
	// the Secret named by spec.admin.passwordSecretRef is absent or lacks
	// its key.
	ReasonAdminPasswordSecretMissing = "AdminPasswordSecretMissing"
	ReasonAdminPasswordKeyMissing    = "AdminPasswordKeyMissing"

	// Reasons of Exposed.
	ReasonReachable          = "Reachable"
	ReasonNoReadyEndpoints   = "NoReadyEndpoints"
	ReasonIngressNotAdmitted = "IngressNotAdmitted"
	ReasonRouteNotAccepted   = "RouteNotAccepted"
	ReasonProbeFailed        = "ProbeFailed"
	// ReasonStalled: Ready has been False longer than the stall timeout;
	// the phase turns Degraded and the message names what blocks.
	ReasonStalled = "Stalled"
)

// ComponentConditionType is the condition type of a component, e.g.
// "gateway" → "GatewayReady".
func ComponentConditionType(component string) string {
	if component == "" {
		return "Ready"
	}
	return string(component[0]-'a'+'A') + component[1:] + "Ready"
}
