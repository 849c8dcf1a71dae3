package v1alpha1

import corev1 "k8s.io/api/core/v1"

// ThemeSpec chooses the site's block theme: the built-in one, or a
// WordPress block theme directory (theme.json, style.css, templates/,
// parts/, patterns/, styles/, assets) shipped as an OCI image or artifact
// and mounted read-only into the content pods as an image volume
// (docs/website.md#themes).
//
// +kubebuilder:validation:XValidation:rule="!has(self.name) || self.name == 'siteplane' || has(self.image)",message="a theme other than the built-in siteplane needs image"
// +kubebuilder:validation:XValidation:rule="!has(self.image) || (has(self.name) && self.name != 'siteplane')",message="image needs the name of the theme it holds (not siteplane)"
type ThemeSpec struct {
	// Name is the theme's stylesheet, its directory name as WordPress knows
	// it (twentytwentythree); "siteplane", the default, is the built-in theme.
	// +kubebuilder:default=siteplane
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=100
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-][A-Za-z0-9._-]*$`
	// +optional
	Name string `json:"name,omitempty"`

	// Image holds the theme: an OCI image or artifact whose root is the
	// theme directory (style.css, theme.json, templates/ at the top).
	// +optional
	Image *ThemeImageSpec `json:"image,omitempty"`
}

// ThemeImageSpec is the OCI object holding a theme.
type ThemeImageSpec struct {
	// Reference is the image or artifact reference, pinned by digest or tag
	// (registry.example.com/themes/twentytwentythree:1.6). A new reference
	// rolls the content pods.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	Reference string `json:"reference"`

	// PullPolicy is the image volume's pull policy.
	// +kubebuilder:validation:Enum=Always;IfNotPresent;Never
	// +kubebuilder:default=IfNotPresent
	// +optional
	PullPolicy corev1.PullPolicy `json:"pullPolicy,omitempty"`
}
