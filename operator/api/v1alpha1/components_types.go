package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
)

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

	// ScaleDownStabilizationSeconds is how long the load must stay low
	// before the autoscaler removes pods: it scales down only to the highest
	// count it recommended within that window, so a short lull does not
	// drop pods a returning load needs. Kubernetes' default (300 s) when
	// unset; 0 scales down at once.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=3600
	// +optional
	ScaleDownStabilizationSeconds *int32 `json:"scaleDownStabilizationSeconds,omitempty"`
}
