// Package v1alpha1 holds the Site API of the siteplane.dev group.
//
// +kubebuilder:object:generate=true
// +groupName=siteplane.dev
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of every type in this package.
	GroupVersion = schema.GroupVersion{Group: "siteplane.dev", Version: "v1alpha1"}

	// SchemeBuilder registers the types of this package with a scheme. It is
	// apimachinery's builder, not controller-runtime's (deprecated), so the
	// API package does not pull in controller-runtime.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)

	// AddToScheme adds the types of this package to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Site{}, &SiteList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
