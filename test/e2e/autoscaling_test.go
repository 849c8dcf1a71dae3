//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// Issue 34: gateway and content scaled by HorizontalPodAutoscalers on CPU
// (metrics-server in the cluster, hack/cluster/metrics-server.sh), up under
// a bounded read load through the gateway Service and down after it, while
// a light load runs across the whole time and fails no request.
const (
	autoscaleMax    = 3
	autoscaleTarget = 50 // % of the 50m CPU request: 25m, a few requests a second
	autoscaleWindow = 10 // s of scale-down stabilisation (Kubernetes' default: 300)
	// operatorManager is the operator's field manager
	// (operator/internal/resources.FieldManager).
	operatorManager = "siteplane-operator"
)

var autoscaled = []string{contract.ServiceGateway, contract.ServiceContent}

func TestAutoscaling(t *testing.T) {
	ns := namespace(t, "e2e-autoscale")
	const name = "scaler"
	site := plainSite(t, ns, name, "E2E Autoscaling")
	for _, c := range []*sitev1.ComponentSpec{&site.Spec.Components.Gateway, &site.Spec.Components.Content} {
		c.Autoscaling = &sitev1.AutoscalingSpec{MinReplicas: ptr.To[int32](1), MaxReplicas: autoscaleMax,
			TargetCPUUtilization: ptr.To[int32](autoscaleTarget), ScaleDownStabilizationSeconds: ptr.To[int32](autoscaleWindow)}
	}
	t0 := time.Now()
	if err := env.c.Create(context.Background(), site); err != nil {
		t.Fatal(err)
	}
	waitReady(t, ns, name, 5*time.Minute)
	t.Logf("Site with autoscaled gateway and content Ready %.1fs after create", time.Since(t0).Seconds())
	gw := serviceURL(t, ns, componentName(name, contract.ServiceGateway), contract.DefaultAPIPort)
	user, pass := adminCredentials(t, ns, name)
	auth := http.Header{"Authorization": {"Basic " + basicAuth(user, pass)}, "Content-Type": {"application/json"}}
	for i := range 10 {
		if r := request("POST", gw+"/cms-json/cms/v2/posts", []byte(fmt.Sprintf(`{"title":"Scaled %d","content":"<p>x</p>","status":"publish"}`, i)), auth); r.Status != 201 {
			t.Fatalf("create: %s", r)
		}
	}
	t1 := time.Now()
	waitScalingActive(t, ns, name)
	t.Logf("both autoscalers read CPU metrics %.1fs after Ready; %s", time.Since(t1).Seconds(), topPods(t, ns, name))

	// Light: one anonymous uncached read every 100 ms, each on a new
	// connection, so the Service picks a pod per request (new pods, and pods
	// on their way out) — across the whole test. Heavy: back-to-back
	// uncached reads until both components have scaled up.
	uncached := func(tag string) func(int) string {
		return func(n int) string {
			return fmt.Sprintf("%s/cms-json/cms/v2/posts?per_page=5&_fields=id,title&%s=%d", gw, tag, n)
		}
	}
	stopLight := startLoadPaced(uncached("light"), http.Header{"Connection": {"close"}}, 1, 100*time.Millisecond)
	defer stopLight()
	stopHeavy := startLoadPaced(uncached("heavy"), nil, 3, 0)
	defer stopHeavy()

	t2 := time.Now()
	up := waitReplicas(t, ns, name, "scale-up", 3*time.Minute, func(n int32) bool { return n > 1 })
	t.Logf("scale-up under load: gateway %d, content %d replicas %.1fs after the load began; %s",
		up[contract.ServiceGateway], up[contract.ServiceContent], time.Since(t2).Seconds(), topPods(t, ns, name))
	newPodsServe(t, ns, name)
	replicasSurviveReconcile(t, ns, name)
	heavy := stopHeavy()
	t.Logf("heavy load: %d reads in %.1fs, %d failed", heavy.sent, time.Since(t2).Seconds(), heavy.failed)
	if heavy.failed > 0 {
		t.Errorf("heavy load: %d of %d reads failed; first: %v", heavy.failed, heavy.sent, heavy.failures)
	}

	t3 := time.Now()
	waitReplicas(t, ns, name, "scale-down", 3*time.Minute, func(n int32) bool { return n == 1 })
	t.Logf("scale-down to 1 each %.1fs after the heavy load stopped (window %ds)", time.Since(t3).Seconds(), autoscaleWindow)
	// The pods scaled away finish their shutdown (delay, then drain) under
	// the light load before it is counted.
	waitPodsGone(t, ns, name, time.Minute)
	light := stopLight()
	t.Logf("light load across %.1fs: %d reads, %d failed", time.Since(t2).Seconds(), light.sent, light.failed)
	if light.failed > 0 {
		t.Errorf("light load: %d of %d reads failed; first: %v", light.failed, light.sent, light.failures)
	}
	if light.sent < 100 {
		t.Errorf("light load sent %d reads: too few to cover the scaling", light.sent)
	}
}

// hpa returns component's HorizontalPodAutoscaler.
func hpa(t *testing.T, ns, site, component string) *autoscalingv2.HorizontalPodAutoscaler {
	t.Helper()
	h, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(ns).Get(context.Background(), componentName(site, component), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// waitScalingActive waits until every autoscaler has read the CPU of its
// pods from the metrics API (its ScalingActive condition).
func waitScalingActive(t *testing.T, ns, site string) {
	t.Helper()
	eventually(t, "autoscalers reading CPU metrics", 3*time.Minute, func() (bool, string) {
		for _, c := range autoscaled {
			h := hpa(t, ns, site, c)
			active := false
			why := "no ScalingActive condition"
			for _, cond := range h.Status.Conditions {
				if cond.Type == autoscalingv2.ScalingActive {
					active, why = cond.Status == corev1.ConditionTrue, cond.Reason+": "+cond.Message
				}
			}
			if !active || len(h.Status.CurrentMetrics) == 0 {
				return false, c + ": " + why
			}
		}
		return true, ""
	})
}

// waitReplicas waits until every autoscaled component's Deployment wants a
// count for which ok holds and has that many ready pods; it returns the
// counts.
func waitReplicas(t *testing.T, ns, site, what string, timeout time.Duration, ok func(int32) bool) map[string]int32 {
	t.Helper()
	got := map[string]int32{}
	eventually(t, what, timeout, func() (bool, string) {
		var why []string
		for _, c := range autoscaled {
			d := deployment(t, ns, componentName(site, c))
			want := ptr.Deref(d.Spec.Replicas, 1)
			got[c] = want
			h := hpa(t, ns, site, c)
			if !ok(want) || d.Status.ReadyReplicas != want || d.Status.Replicas != want {
				why = append(why, fmt.Sprintf("%s: %d wanted, %d ready, %d in all; HPA desired %d, %s", c, want,
					d.Status.ReadyReplicas, d.Status.Replicas, h.Status.DesiredReplicas, utilization(h)))
			}
		}
		return len(why) == 0, strings.Join(why, "; ")
	})
	return got
}

func utilization(h *autoscalingv2.HorizontalPodAutoscaler) string {
	for _, m := range h.Status.CurrentMetrics {
		if m.Resource != nil && m.Resource.Current.AverageUtilization != nil {
			return fmt.Sprintf("CPU %d%%/%d%%", *m.Resource.Current.AverageUtilization, autoscaleTarget)
		}
	}
	return "no CPU metric"
}

// newPodsServe asks every ready pod of each component, by its own address,
// for what the load reads: the pods the autoscaler added serve.
func newPodsServe(t *testing.T, ns, site string) {
	t.Helper()
	paths := map[string]string{
		contract.ServiceGateway: "/cms-json/cms/v2/posts?per_page=5&_fields=id,title",
		contract.ServiceContent: "/cms/v2/posts?per_page=5&_fields=id,title", // content's own path for the route
	}
	for _, c := range autoscaled {
		urls := podURLs(t, ns, site, c, contract.DefaultAPIPort)
		if len(urls) < 2 {
			t.Errorf("%s: %d ready pods after the scale-up", c, len(urls))
		}
		for _, u := range urls {
			if r := request("GET", u+paths[c], nil, nil); r.Status != 200 || !strings.Contains(string(r.Body), "Scaled") {
				t.Errorf("%s pod %s: %s", c, u, r)
			}
		}
	}
}

// replicasSurviveReconcile changes the Site (a scale-down window one second
// longer: a new generation, a full pass), waits until the operator has
// acted on it, and checks that the Deployments keep the autoscaler's count
// and that the operator owns no replicas field: it does not fight the HPA.
func replicasSurviveReconcile(t *testing.T, ns, site string) {
	t.Helper()
	ctx := context.Background()
	var s sitev1.Site
	if err := env.c.Get(ctx, client.ObjectKey{Namespace: ns, Name: site}, &s); err != nil {
		t.Fatal(err)
	}
	s.Spec.Components.Gateway.Autoscaling.ScaleDownStabilizationSeconds = ptr.To[int32](autoscaleWindow + 1)
	s.Spec.Components.Content.Autoscaling.ScaleDownStabilizationSeconds = ptr.To[int32](autoscaleWindow + 1)
	if err := env.c.Update(ctx, &s); err != nil {
		t.Fatal(err)
	}
	gen := s.Generation
	eventually(t, "the operator's pass over the changed Site", time.Minute, func() (bool, string) {
		var cur sitev1.Site
		if err := env.c.Get(ctx, client.ObjectKey{Namespace: ns, Name: site}, &cur); err != nil {
			return false, err.Error()
		}
		w := hpa(t, ns, site, contract.ServiceContent).Spec.Behavior
		applied := w != nil && w.ScaleDown != nil && ptr.Deref(w.ScaleDown.StabilizationWindowSeconds, 0) == autoscaleWindow+1
		return cur.Status.ObservedGeneration >= gen && applied, fmt.Sprintf("observed generation %d of %d, HPA updated %t",
			cur.Status.ObservedGeneration, gen, applied)
	})
	for _, c := range autoscaled {
		d := deployment(t, ns, componentName(site, c))
		if n := ptr.Deref(d.Spec.Replicas, 1); n < 2 {
			t.Errorf("%s: %d replicas after the operator's pass: it reset the autoscaler's count", c, n)
		}
		owners := replicasOwners(d.ManagedFields)
		for _, o := range owners {
			if strings.HasPrefix(o, operatorManager+" ") {
				t.Errorf("%s: the operator owns spec.replicas (owners %v)", c, owners)
			}
		}
		var all []string
		for _, f := range d.ManagedFields {
			all = append(all, f.Manager+"/"+string(f.Operation)+"/"+f.Subresource)
		}
		t.Logf("%s: %d replicas after the operator's pass; spec.replicas owned by %v (managers %v)", c, ptr.Deref(d.Spec.Replicas, 1), owners, all)
	}
}

// replicasOwners are the field managers that own spec.replicas.
func replicasOwners(fields []metav1.ManagedFieldsEntry) []string {
	var out []string
	for _, f := range fields {
		if f.FieldsV1 == nil {
			continue
		}
		var set struct {
			Spec map[string]any `json:"f:spec"`
		}
		if json.Unmarshal(f.FieldsV1.GetRawBytes(), &set) == nil {
			if _, ok := set.Spec["f:replicas"]; ok {
				out = append(out, f.Manager+" ("+string(f.Operation)+strings.TrimSuffix(" "+f.Subresource, " ")+")")
			}
		}
	}
	return out
}

// waitPodsGone waits until no pod of the autoscaled components is
// terminating.
func waitPodsGone(t *testing.T, ns, site string, timeout time.Duration) {
	t.Helper()
	eventually(t, "scaled-away pods gone", timeout, func() (bool, string) {
		list, err := env.kube.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: instanceLabel + "=" + site})
		if err != nil {
			return false, err.Error()
		}
		var left []string
		for _, p := range list.Items {
			if p.DeletionTimestamp != nil {
				left = append(left, p.Name)
			}
		}
		return len(left) == 0, fmt.Sprintf("terminating: %v", left)
	})
}

// topPods is the CPU use of the Site's gateway and content pods from the
// metrics API (what `kubectl top pods` shows).
func topPods(t *testing.T, ns, site string) string {
	t.Helper()
	raw, err := env.kube.Discovery().RESTClient().Get().
		AbsPath("/apis/metrics.k8s.io/v1beta1/namespaces", ns, "pods").
		Param("labelSelector", instanceLabel+"="+site).DoRaw(context.Background())
	if err != nil {
		return "metrics API: " + err.Error()
	}
	var list struct {
		Items []struct {
			Metadata   struct{ Name string }
			Containers []struct{ Usage struct{ CPU string } }
		}
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return "metrics API: " + err.Error()
	}
	var parts []string
	for _, p := range list.Items {
		for _, c := range p.Containers {
			parts = append(parts, strings.TrimPrefix(p.Metadata.Name, site+"-")+" "+c.Usage.CPU)
		}
	}
	return "CPU per pod (metrics API): " + strings.Join(parts, ", ")
}
