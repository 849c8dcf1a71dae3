package resources

import (
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	autoscalingv2ac "k8s.io/client-go/applyconfigurations/autoscaling/v2"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	networkingv1ac "k8s.io/client-go/applyconfigurations/networking/v1"
	policyv1ac "k8s.io/client-go/applyconfigurations/policy/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// NeedsPDB reports whether component gets a PodDisruptionBudget: only when
// it can run more than one replica (fixed, or the autoscaler's maximum). A
// budget of maxUnavailable 1 never blocks a drain while an autoscaled
// component happens to run a single pod.
func NeedsPDB(site *sitev1.Site, component string) bool {
	c := site.Component(component)
	if c.Autoscaling != nil {
		return c.Autoscaling.MaxReplicas > 1
	}
	return c.ReplicaCount() > 1
}

// HorizontalPodAutoscaler scales component's Deployment on CPU use between
// spec.components.<component>.autoscaling's bounds.
func HorizontalPodAutoscaler(site *sitev1.Site, component string) *autoscalingv2ac.HorizontalPodAutoscalerApplyConfiguration {
	as := site.Component(component).Autoscaling
	minReplicas, target := int32(1), int32(80)
	if as.MinReplicas != nil {
		minReplicas = *as.MinReplicas
	}
	if as.TargetCPUUtilization != nil {
		target = *as.TargetCPUUtilization
	}
	name := ComponentName(site.Name, component)
	spec := autoscalingv2ac.HorizontalPodAutoscalerSpec().
		WithScaleTargetRef(autoscalingv2ac.CrossVersionObjectReference().
			WithAPIVersion(appsv1.SchemeGroupVersion.String()).WithKind("Deployment").WithName(name)).
		WithMinReplicas(minReplicas).
		WithMaxReplicas(as.MaxReplicas).
		WithMetrics(autoscalingv2ac.MetricSpec().
			WithType(autoscalingv2.ResourceMetricSourceType).
			WithResource(autoscalingv2ac.ResourceMetricSource().
				WithName(corev1.ResourceCPU).
				WithTarget(autoscalingv2ac.MetricTarget().
					WithType(autoscalingv2.UtilizationMetricType).
					WithAverageUtilization(target))))
	if as.ScaleDownStabilizationSeconds != nil {
		// Only the window: the scale-down policies and the whole scale-up
		// behaviour stay Kubernetes' defaults.
		spec.WithBehavior(autoscalingv2ac.HorizontalPodAutoscalerBehavior().
			WithScaleDown(autoscalingv2ac.HPAScalingRules().
				WithStabilizationWindowSeconds(*as.ScaleDownStabilizationSeconds)))
	}
	return autoscalingv2ac.HorizontalPodAutoscaler(name, site.Namespace).
		WithLabels(Labels(site, component)).
		WithOwnerReferences(OwnerReference(site)).
		WithSpec(spec)
}

// PodDisruptionBudget lets at most one pod of the component be evicted at a time.
func PodDisruptionBudget(site *sitev1.Site, component string) *policyv1ac.PodDisruptionBudgetApplyConfiguration {
	return policyv1ac.PodDisruptionBudget(ComponentName(site.Name, component), site.Namespace).
		WithLabels(Labels(site, component)).
		WithOwnerReferences(OwnerReference(site)).
		WithSpec(policyv1ac.PodDisruptionBudgetSpec().
			WithMaxUnavailable(intstr.FromInt32(1)).
			WithSelector(metav1ac.LabelSelector().WithMatchLabels(SelectorLabels(site, component))))
}

// NetworkPolicyEnabled reports whether the site's NetworkPolicies are written.
func NetworkPolicyEnabled(site *sitev1.Site) bool {
	return sitev1.BoolOr(site.Spec.NetworkPolicy.Enabled, true)
}

// NetworkPolicy isolates one component's pods. Ingress: the API port from the
// outside world (or spec.networkPolicy.gatewayFrom) for the gateway, from the
// site's gateway only for the other services; the gateway's internal port
// from the site's pods only; the metrics port from
// spec.networkPolicy.metricsFrom (every namespace when empty). Egress: DNS,
// the database port, the other pods of the site (the gateway calls the
// services; content calls the gateway's user lookup), for media with S3 the
// endpoint's port, and spec.networkPolicy.extraEgress.
func NetworkPolicy(site *sitev1.Site, component string) *networkingv1ac.NetworkPolicyApplyConfiguration {
	np := site.Spec.NetworkPolicy
	tcp, udp := corev1.ProtocolTCP, corev1.ProtocolUDP
	port := func(proto corev1.Protocol, p intstr.IntOrString) *networkingv1ac.NetworkPolicyPortApplyConfiguration {
		return networkingv1ac.NetworkPolicyPort().WithProtocol(proto).WithPort(p)
	}
	peers := func(list []networkingv1.NetworkPolicyPeer) []*networkingv1ac.NetworkPolicyPeerApplyConfiguration {
		out := make([]*networkingv1ac.NetworkPolicyPeerApplyConfiguration, 0, len(list))
		for _, p := range list {
			out = append(out, Convert[networkingv1ac.NetworkPolicyPeerApplyConfiguration](p))
		}
		return out
	}
	sitePods := networkingv1ac.NetworkPolicyPeer().WithPodSelector(
		metav1ac.LabelSelector().WithMatchLabels(SiteSelectorLabels(site)))
	gatewayPods := networkingv1ac.NetworkPolicyPeer().WithPodSelector(
		metav1ac.LabelSelector().WithMatchLabels(SelectorLabels(site, contract.ServiceGateway)))

	api := networkingv1ac.NetworkPolicyIngressRule().WithPorts(port(tcp, intstr.FromString(PortHTTP)))
	if component == contract.ServiceGateway {
		if len(np.GatewayFrom) > 0 {
			api.WithFrom(peers(np.GatewayFrom)...)
		} // else no peers: from everywhere
	} else {
		api.WithFrom(gatewayPods)
	}
	if component == contract.ServiceContent {
		// media asks content about attachments' parent posts
		api.WithFrom(networkingv1ac.NetworkPolicyPeer().WithPodSelector(
			metav1ac.LabelSelector().WithMatchLabels(SelectorLabels(site, contract.ServiceMedia))))
	}
	metrics := networkingv1ac.NetworkPolicyIngressRule().WithPorts(port(tcp, intstr.FromString(PortMetrics)))
	if len(np.MetricsFrom) > 0 {
		metrics.WithFrom(peers(np.MetricsFrom)...)
	} else {
		metrics.WithFrom(networkingv1ac.NetworkPolicyPeer().WithNamespaceSelector(metav1ac.LabelSelector()))
	}
	ingress := []*networkingv1ac.NetworkPolicyIngressRuleApplyConfiguration{api, metrics}
	if component == contract.ServiceGateway {
		// The internal listener (user lookups) from the site's own pods only.
		ingress = append(ingress, networkingv1ac.NetworkPolicyIngressRule().
			WithPorts(port(tcp, intstr.FromString(PortInternal))).WithFrom(sitePods))
	}

	dbPort := np.DatabasePort
	if dbPort == 0 {
		dbPort = 5432
	}
	// A NetworkPolicy sees the DNS pods' own port after the Service has
	// translated 53: that is 5353 on OpenShift, whose DNS would otherwise be
	// cut off.
	dns := networkingv1ac.NetworkPolicyEgressRule().WithPorts(
		port(udp, intstr.FromInt32(53)), port(tcp, intstr.FromInt32(53)),
		port(udp, intstr.FromInt32(5353)), port(tcp, intstr.FromInt32(5353)))
	db := networkingv1ac.NetworkPolicyEgressRule().WithPorts(port(tcp, intstr.FromInt32(dbPort))).
		WithTo(peers(np.DatabaseTo)...)
	internal := networkingv1ac.NetworkPolicyEgressRule().WithPorts(port(tcp, intstr.FromInt32(contract.DefaultAPIPort)),
		port(tcp, intstr.FromInt32(contract.DefaultInternalPort))).
		WithTo(sitePods)

	egress := []*networkingv1ac.NetworkPolicyEgressRuleApplyConfiguration{dns, db, internal}
	if p := S3EndpointPort(site); p != 0 && component == contract.ServiceMedia {
		// The bucket's address is a host name, which a NetworkPolicy cannot
		// name: media may reach the endpoint's port anywhere.
		egress = append(egress, networkingv1ac.NetworkPolicyEgressRule().WithPorts(port(tcp, intstr.FromInt32(p))))
	}
	for _, e := range np.ExtraEgress {
		egress = append(egress, Convert[networkingv1ac.NetworkPolicyEgressRuleApplyConfiguration](e))
	}

	return networkingv1ac.NetworkPolicy(ComponentName(site.Name, component), site.Namespace).
		WithLabels(Labels(site, component)).
		WithOwnerReferences(OwnerReference(site)).
		WithSpec(networkingv1ac.NetworkPolicySpec().
			WithPodSelector(metav1ac.LabelSelector().WithMatchLabels(SelectorLabels(site, component))).
			WithPolicyTypes(networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress).
			WithIngress(ingress...).
			WithEgress(egress...))
}
