package v1alpha1

// Condition types of a Site. Each component has its own <Component>Ready
// condition (see ComponentConditionType); Ready aggregates them all.
const (
	ConditionReady        = "Ready"
	ConditionSecretsReady = "SecretsReady"
	ConditionRoutesReady  = "RoutesReady"
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
)

// ComponentConditionType is the condition type of a component, e.g.
// "gateway" → "GatewayReady".
func ComponentConditionType(component string) string {
	if component == "" {
		return "Ready"
	}
	return string(component[0]-'a'+'A') + component[1:] + "Ready"
}
