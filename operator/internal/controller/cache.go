package controller

import (
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"siteplane.dev/operator/internal/resources"
)

// CacheOptions are the manager's cache options: Sites and children of one
// namespace (all when empty). The child kinds are cached only for objects
// the operator wrote (label app.kubernetes.io/managed-by=siteplane-operator,
// which every builder sets), so the operator's memory and its initial
// lists grow with its own Sites, not with every Deployment, Service and
// ConfigMap of the cluster. Secrets are the exception: the operator reads
// the user's database and S3 credentials Secrets, which carry no label of
// ours, so every Secret is cached except Helm's release Secrets, which can
// be large and are never needed here.
func CacheOptions(namespace string) cache.Options {
	own := cache.ByObject{Label: labels.SelectorFromSet(labels.Set{resources.LabelManagedBy: resources.FieldManager})}
	opts := cache.Options{
		ByObject: map[client.Object]cache.ByObject{
			&corev1.Secret{}:                         {Field: fields.OneTermNotEqualSelector("type", "helm.sh/release.v1")},
			&appsv1.Deployment{}:                     own,
			&corev1.Service{}:                        own,
			&corev1.ConfigMap{}:                      own,
			&corev1.PersistentVolumeClaim{}:          own,
			&policyv1.PodDisruptionBudget{}:          own,
			&autoscalingv2.HorizontalPodAutoscaler{}: own,
			&networkingv1.NetworkPolicy{}:            own,
			&networkingv1.Ingress{}:                  own,
			// The endpoint slice controller copies a Service's labels onto
			// its slices, so the gateway's slices carry ours.
			&discoveryv1.EndpointSlice{}: own,
		},
	}
	if namespace != "" {
		opts.DefaultNamespaces = map[string]cache.Config{namespace: {}}
	}
	return opts
}
