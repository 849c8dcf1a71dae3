package v1alpha1

import "strings"

// PublicURL is spec.url without a trailing slash, as the services expect it.
func (s *Site) PublicURL() string {
	return strings.TrimRight(s.Spec.URL, "/")
}

// Component returns the spec of a component by its contract service name.
func (s *Site) Component(name string) ComponentSpec {
	switch name {
	case "gateway":
		return s.Spec.Components.Gateway
	case "content":
		return s.Spec.Components.Content
	case "media":
		return s.Spec.Components.Media
	case "marketplace":
		return s.Spec.Components.Marketplace
	}
	return ComponentSpec{}
}

// ReplicaCount is spec.replicas, or one when unset: the CRD's default, kept
// here for Sites that never went through the API server (unit tests).
func (c ComponentSpec) ReplicaCount() int32 {
	if c.Replicas == nil {
		return 1
	}
	return *c.Replicas
}

// BoolOr returns *b, or def when b is nil (an unset defaulted switch).
func BoolOr(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}
