package resources

import (
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// Recommended labels on every child. The selector labels are the subset that
// never changes for the life of an object (Deployment selectors are immutable).
const (
	LabelName      = "app.kubernetes.io/name"
	LabelInstance  = "app.kubernetes.io/instance"
	LabelComponent = "app.kubernetes.io/component"
	LabelManagedBy = "app.kubernetes.io/managed-by"
	LabelPartOf    = "app.kubernetes.io/part-of"

	// LabelAPIKey marks an API-key Secret with the key's name.
	LabelAPIKey = "siteplane.dev/api-key"

	appName = "siteplane"

	// ComponentSecrets, ComponentConfig and ComponentAPIKey label the
	// children that belong to no service.
	ComponentSecrets = "secrets"
	ComponentConfig  = "config"
	ComponentAPIKey  = "apikey"
)

// Annotations written by the operator.
const (
	// AnnotationConfigHash and AnnotationSecretHash sit in a pod template;
	// they change exactly when the mounted ConfigMap items or Secret data
	// change, which rolls the pods.
	AnnotationConfigHash = "siteplane.dev/config-hash"
	AnnotationSecretHash = "siteplane.dev/secret-hash"
	// AnnotationCreatedAt records when a generated key was made (RFC 3339).
	AnnotationCreatedAt = "siteplane.dev/created-at"
	// AnnotationExpiresAt records when a rotated-out key stops working.
	AnnotationExpiresAt = "siteplane.dev/expires-at"
)

// Labels returns the labels of a child of site for component.
func Labels(site *sitev1.Site, component string) map[string]string {
	return map[string]string{
		LabelName:      appName,
		LabelInstance:  site.Name,
		LabelComponent: component,
		LabelManagedBy: FieldManager,
		LabelPartOf:    appName,
	}
}

// SelectorLabels selects the pods of one component of one site.
func SelectorLabels(site *sitev1.Site, component string) map[string]string {
	return map[string]string{
		LabelName:      appName,
		LabelInstance:  site.Name,
		LabelComponent: component,
	}
}

// SiteSelectorLabels selects every pod of one site.
func SiteSelectorLabels(site *sitev1.Site) map[string]string {
	return map[string]string{LabelName: appName, LabelInstance: site.Name}
}

// OwnerReference makes site the controlling owner, so deleting the Site
// garbage-collects the child.
func OwnerReference(site *sitev1.Site) *metav1ac.OwnerReferenceApplyConfiguration {
	return metav1ac.OwnerReference().
		WithAPIVersion(sitev1.GroupVersion.String()).
		WithKind("Site").
		WithName(site.Name).
		WithUID(site.UID).
		WithController(true).
		WithBlockOwnerDeletion(true)
}
