package resources

import (
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	sitev1 "siteplane.dev/operator/api/v1alpha1"

	"siteplane.dev/services/pkg/contract"
)

func TestNeedsPDB(t *testing.T) {
	tests := []struct {
		replicas    *int32
		autoscaling *sitev1.AutoscalingSpec
		want        bool
	}{
		{nil, nil, false},
		{ptr.To[int32](0), nil, false},
		{ptr.To[int32](1), nil, false},
		{ptr.To[int32](2), nil, true},
		// The autoscaler's maximum decides; the ignored replicas do not.
		{ptr.To[int32](1), &sitev1.AutoscalingSpec{MaxReplicas: 3}, true},
		{ptr.To[int32](5), &sitev1.AutoscalingSpec{MaxReplicas: 1}, false},
	}
	for _, tt := range tests {
		site := testSite()
		site.Spec.Components.Content.Replicas = tt.replicas
		site.Spec.Components.Content.Autoscaling = tt.autoscaling
		if got := NeedsPDB(site, contract.ServiceContent); got != tt.want {
			t.Errorf("replicas %v autoscaling %+v: got %v", tt.replicas, tt.autoscaling, got)
		}
	}
	pdb := typed[policyv1.PodDisruptionBudget](t, PodDisruptionBudget(testSite(), contract.ServiceGateway))
	if pdb.Spec.MaxUnavailable.IntValue() != 1 || pdb.Spec.Selector.MatchLabels[LabelComponent] != "gateway" {
		t.Errorf("pdb %+v", pdb.Spec)
	}
}

func TestNetworkPolicy(t *testing.T) {
	site := testSite()
	site.Spec.NetworkPolicy.DatabasePort = 6432
	site.Spec.NetworkPolicy.MetricsFrom = []networkingv1.NetworkPolicyPeer{{NamespaceSelector: &metav1.LabelSelector{
		MatchLabels: map[string]string{"kubernetes.io/metadata.name": "monitoring"}}}}

	gw := typed[networkingv1.NetworkPolicy](t, NetworkPolicy(site, contract.ServiceGateway))
	content := typed[networkingv1.NetworkPolicy](t, NetworkPolicy(site, contract.ServiceContent))

	if len(gw.Spec.PolicyTypes) != 2 {
		t.Errorf("policy types %v: both directions must be isolated", gw.Spec.PolicyTypes)
	}
	apiRule := func(np *networkingv1.NetworkPolicy) networkingv1.NetworkPolicyIngressRule {
		for _, r := range np.Spec.Ingress {
			if r.Ports[0].Port.StrVal == PortHTTP {
				return r
			}
		}
		t.Fatalf("%s: no API ingress rule", np.Name)
		return networkingv1.NetworkPolicyIngressRule{}
	}
	if r := apiRule(gw); len(r.From) != 0 {
		t.Errorf("gateway API port must be open to all by default, got from %v", r.From)
	}
	r := apiRule(content)
	if len(r.From) != 2 || r.From[0].PodSelector.MatchLabels[LabelComponent] != contract.ServiceGateway ||
		r.From[0].PodSelector.MatchLabels[LabelInstance] != "blog" ||
		r.From[1].PodSelector.MatchLabels[LabelComponent] != contract.ServiceMedia || r.From[1].PodSelector.MatchLabels[LabelInstance] != "blog" {
		t.Errorf("content must accept the API port from this site's gateway and media only (media asks about parent posts), got %+v", r.From)
	}
	for _, rule := range content.Spec.Ingress {
		if rule.Ports[0].Port.StrVal == PortMetrics &&
			(len(rule.From) != 1 || rule.From[0].NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"] != "monitoring") {
			t.Errorf("metrics rule %+v", rule.From)
		}
	}

	egressPorts := map[string]bool{}
	for _, e := range content.Spec.Egress {
		for _, p := range e.Ports {
			egressPorts[string(*p.Protocol)+"/"+p.Port.String()] = true
		}
	}
	for _, want := range []string{"UDP/53", "TCP/53", "UDP/5353", "TCP/5353", "TCP/6432", "TCP/8080", "TCP/8081"} {
		if !egressPorts[want] {
			t.Errorf("egress %s missing (have %v)", want, egressPorts)
		}
	}
	if len(egressPorts) != 7 {
		t.Errorf("egress allows more than DNS, the database and the site: %v", egressPorts)
	}
	if *content.Spec.Egress[0].Ports[0].Protocol != corev1.ProtocolUDP {
		t.Errorf("first egress rule should be DNS")
	}

	// Restricting the gateway to an ingress namespace restricts its public
	// port; its internal port stays open to the site's own pods only
	// (user lookups); extra egress is added to every component.
	site.Spec.NetworkPolicy.GatewayFrom = []networkingv1.NetworkPolicyPeer{{NamespaceSelector: &metav1.LabelSelector{
		MatchLabels: map[string]string{"kubernetes.io/metadata.name": "ingress-nginx"}}}}
	https := intstr.FromInt32(443)
	site.Spec.NetworkPolicy.ExtraEgress = []networkingv1.NetworkPolicyEgressRule{{Ports: []networkingv1.NetworkPolicyPort{{Port: &https}}}}
	gw = typed[networkingv1.NetworkPolicy](t, NetworkPolicy(site, contract.ServiceGateway))
	from := apiRule(gw).From
	if len(from) != 1 || from[0].NamespaceSelector == nil {
		t.Errorf("gateway from %+v, want the ingress namespace", from)
	}
	var internal *networkingv1.NetworkPolicyIngressRule
	for i, r := range gw.Spec.Ingress {
		if len(r.Ports) == 1 && r.Ports[0].Port.String() == PortInternal {
			internal = &gw.Spec.Ingress[i]
		}
	}
	if internal == nil || len(internal.From) != 1 || internal.From[0].PodSelector.MatchLabels[LabelInstance] != "blog" || internal.From[0].NamespaceSelector != nil {
		t.Errorf("gateway internal port ingress %+v, want the site's pods only", internal)
	}
	if last := gw.Spec.Egress[len(gw.Spec.Egress)-1]; len(last.Ports) != 1 || last.Ports[0].Port.IntValue() != 443 {
		t.Errorf("extra egress missing: %+v", gw.Spec.Egress)
	}
}

func TestIngress(t *testing.T) {
	site := testSite()
	class := "nginx"
	site.Spec.Exposure.Type = "Ingress"
	site.Spec.Exposure.Ingress = &sitev1.IngressSpec{Host: "blog.example.com", ClassName: &class, TLSSecretName: "blog-tls",
		Annotations: map[string]string{"cert-manager.io/cluster-issuer": "le"}}
	ing := typed[networkingv1.Ingress](t, Ingress(site))
	if ing.Name != "blog" || *ing.Spec.IngressClassName != "nginx" || ing.Annotations["cert-manager.io/cluster-issuer"] != "le" {
		t.Errorf("ingress meta %+v", ing.ObjectMeta)
	}
	if len(ing.Spec.TLS) != 1 || ing.Spec.TLS[0].SecretName != "blog-tls" || ing.Spec.TLS[0].Hosts[0] != "blog.example.com" {
		t.Errorf("tls %+v", ing.Spec.TLS)
	}
	p := ing.Spec.Rules[0].HTTP.Paths[0]
	if ing.Spec.Rules[0].Host != "blog.example.com" || p.Path != "/" || p.Backend.Service.Name != "blog-gateway" ||
		p.Backend.Service.Port.Name != PortHTTP {
		t.Errorf("rule %+v", ing.Spec.Rules[0])
	}
}

func TestHTTPRoute(t *testing.T) {
	site := testSite()
	site.Spec.Exposure.Type = "HTTPRoute"
	site.Spec.Exposure.HTTPRoute = &sitev1.HTTPRouteSpec{
		ParentRefs: []sitev1.ParentReference{{Name: "public", Namespace: "infra", SectionName: "https"}},
		Hostnames:  []string{"blog.example.com"},
	}
	u := HTTPRoute(site)
	if u.GetKind() != "HTTPRoute" || u.GetAPIVersion() != "gateway.networking.k8s.io/v1" || u.GetName() != "blog" {
		t.Errorf("gvk/name %s %s %s", u.GetAPIVersion(), u.GetKind(), u.GetName())
	}
	if refs := u.GetOwnerReferences(); len(refs) != 1 || refs[0].UID != "uid-1" || !*refs[0].Controller {
		t.Errorf("owner %+v", refs)
	}
	spec := u.Object["spec"].(map[string]any)
	parent := spec["parentRefs"].([]any)[0].(map[string]any)
	if parent["name"] != "public" || parent["namespace"] != "infra" || parent["sectionName"] != "https" {
		t.Errorf("parent %v", parent)
	}
	backend := spec["rules"].([]any)[0].(map[string]any)["backendRefs"].([]any)[0].(map[string]any)
	if backend["name"] != "blog-gateway" || backend["port"] != int64(8080) {
		t.Errorf("backend %v", backend)
	}
	if h := spec["hostnames"].([]any); len(h) != 1 || h[0] != "blog.example.com" {
		t.Errorf("hostnames %v", h)
	}
}

func TestServiceMonitor(t *testing.T) {
	site := testSite()
	site.Spec.Monitoring.ServiceMonitor.Labels = map[string]string{"release": "kps", LabelInstance: "spoof"}
	site.Spec.Monitoring.ServiceMonitor.Interval = "15s"
	u := ServiceMonitor(site)
	labels := u.GetLabels()
	if labels["release"] != "kps" || labels[LabelInstance] != "blog" {
		t.Errorf("labels %v: user labels must be added without overriding the operator's", labels)
	}
	spec := u.Object["spec"].(map[string]any)
	ep := spec["endpoints"].([]any)[0].(map[string]any)
	if ep["port"] != PortMetrics || ep["path"] != "/metrics" || ep["interval"] != "15s" {
		t.Errorf("endpoint %v", ep)
	}
	sel := spec["selector"].(map[string]any)["matchLabels"].(map[string]any)
	if sel[LabelInstance] != "blog" || sel[LabelComponent] != nil {
		t.Errorf("selector %v must select every component Service of the site", sel)
	}
}

func TestHorizontalPodAutoscaler(t *testing.T) {
	tests := []struct {
		name                 string
		spec                 sitev1.AutoscalingSpec
		wantMin, wantMax     int32
		wantTargetPercentage int32
		wantScaleDownWindow  *int32 // nil: no behavior at all (Kubernetes' defaults)
	}{
		{"defaults", sitev1.AutoscalingSpec{MaxReplicas: 4}, 1, 4, 80, nil},
		{"explicit", sitev1.AutoscalingSpec{MinReplicas: ptr.To[int32](2), MaxReplicas: 10, TargetCPUUtilization: ptr.To[int32](60)}, 2, 10, 60, nil},
		{"scale-down window", sitev1.AutoscalingSpec{MaxReplicas: 3, ScaleDownStabilizationSeconds: ptr.To[int32](15)}, 1, 3, 80, ptr.To[int32](15)},
		{"scale-down at once", sitev1.AutoscalingSpec{MaxReplicas: 3, ScaleDownStabilizationSeconds: ptr.To[int32](0)}, 1, 3, 80, ptr.To[int32](0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := testSite()
			site.Spec.Components.Content.Autoscaling = &tt.spec
			hpa := typed[autoscalingv2.HorizontalPodAutoscaler](t, HorizontalPodAutoscaler(site, contract.ServiceContent))
			ref := hpa.Spec.ScaleTargetRef
			if hpa.Name != "blog-content" || ref.Kind != "Deployment" || ref.Name != "blog-content" || ref.APIVersion != "apps/v1" {
				t.Errorf("name %q target %+v", hpa.Name, ref)
			}
			if *hpa.Spec.MinReplicas != tt.wantMin || hpa.Spec.MaxReplicas != tt.wantMax {
				t.Errorf("bounds %d..%d, want %d..%d", *hpa.Spec.MinReplicas, hpa.Spec.MaxReplicas, tt.wantMin, tt.wantMax)
			}
			if len(hpa.Spec.Metrics) != 1 || hpa.Spec.Metrics[0].Resource == nil || hpa.Spec.Metrics[0].Resource.Name != corev1.ResourceCPU ||
				hpa.Spec.Metrics[0].Resource.Target.Type != autoscalingv2.UtilizationMetricType ||
				*hpa.Spec.Metrics[0].Resource.Target.AverageUtilization != tt.wantTargetPercentage {
				t.Errorf("metrics %+v", hpa.Spec.Metrics)
			}
			if len(hpa.OwnerReferences) != 1 || hpa.Labels[LabelComponent] != contract.ServiceContent {
				t.Errorf("owner %+v labels %v", hpa.OwnerReferences, hpa.Labels)
			}
			b := hpa.Spec.Behavior
			if tt.wantScaleDownWindow == nil {
				if b != nil {
					t.Errorf("behavior %+v without a scale-down window", b)
				}
			} else if b == nil || b.ScaleUp != nil || b.ScaleDown == nil || b.ScaleDown.StabilizationWindowSeconds == nil ||
				*b.ScaleDown.StabilizationWindowSeconds != *tt.wantScaleDownWindow || b.ScaleDown.Policies != nil {
				t.Errorf("behavior %+v, want only scaleDown.stabilizationWindowSeconds %d", b, *tt.wantScaleDownWindow)
			}
		})
	}
}
