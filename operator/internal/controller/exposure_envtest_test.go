package controller

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// gatewayServer plays every Site's gateway for the probe: a real HTTP
// server on loopback answering /<namespace>/<site>/cms-json/ with a REST
// index, or with a 503 for the Sites a test has broken.
type gatewayServer struct {
	once   sync.Once
	srv    *httptest.Server
	mu     sync.Mutex
	broken map[string]bool
}

var gateways = &gatewayServer{broken: map[string]bool{}}

func (g *gatewayServer) url(site *sitev1.Site) string {
	g.once.Do(func() {
		g.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			parts := strings.SplitN(strings.Trim(r.URL.Path, "/"), "/", 3)
			g.mu.Lock()
			broken := len(parts) < 3 || g.broken[parts[0]+"/"+parts[1]]
			g.mu.Unlock()
			if broken {
				http.Error(w, "no healthy upstream", http.StatusServiceUnavailable)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"name":"test","routes":{"/":{}}}`)
		}))
	})
	return g.srv.URL + "/" + site.Namespace + "/" + site.Name + "/cms-json/"
}

func (g *gatewayServer) setBroken(ns, site string, broken bool) {
	g.mu.Lock()
	g.broken[ns+"/"+site] = broken
	g.mu.Unlock()
}

// setGatewayEndpoints writes the EndpointSlice the endpoint slice
// controller would write for the gateway Service (its labels copied from
// the Service), with one endpoint, ready or not.
func setGatewayEndpoints(t *testing.T, ns, site string, ready bool) {
	t.Helper()
	writeGatewayEndpoints(t, k8s, ns, site, ready)
}

// writeGatewayEndpoints is setGatewayEndpoints on the API server of c.
func writeGatewayEndpoints(t *testing.T, c client.Client, ns, site string, ready bool) {
	t.Helper()
	svcName := resources.ComponentName(site, contract.ServiceGateway)
	eventually(t, "EndpointSlice of "+svcName, func() error {
		var svc corev1.Service
		if err := c.Get(ctx, key(ns, svcName), &svc); err != nil {
			return err
		}
		labels := map[string]string{discoveryv1.LabelServiceName: svcName, discoveryv1.LabelManagedBy: "endpointslice-controller.k8s.io"}
		for k, v := range svc.Labels {
			labels[k] = v
		}
		slice := &discoveryv1.EndpointSlice{
			ObjectMeta:  metav1.ObjectMeta{Name: svcName + "-test", Namespace: ns, Labels: labels},
			AddressType: discoveryv1.AddressTypeIPv4,
			Endpoints: []discoveryv1.Endpoint{{Addresses: []string{"10.88.0.7"},
				Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(ready)}}},
			Ports: []discoveryv1.EndpointPort{{Name: ptr.To(resources.PortHTTP), Port: ptr.To[int32](contract.DefaultAPIPort)}},
		}
		var cur discoveryv1.EndpointSlice
		err := c.Get(ctx, key(ns, slice.Name), &cur)
		if apierrors.IsNotFound(err) {
			return c.Create(ctx, slice)
		}
		if err != nil {
			return err
		}
		cur.Endpoints = slice.Endpoints
		return c.Update(ctx, &cur)
	})
}

func exposedReason(t *testing.T, ns, name, reason string) *sitev1.Site {
	t.Helper()
	var s *sitev1.Site
	eventually(t, "Exposed reason "+reason, func() error {
		s = getSite(t, ns, name)
		c := findCondition(s, sitev1.ConditionExposed)
		if c == nil || c.Reason != reason || c.ObservedGeneration != s.Generation {
			return fmt.Errorf("Exposed %+v", c)
		}
		return nil
	})
	return s
}

// TestExposedGatesReady: with every Deployment available, Ready still waits
// for the gateway Service's ready endpoints, the Ingress's admission (a
// load-balancer address) and an answer to the REST index through the
// Service; each missing piece is the reason, and losing one takes Ready
// away again.
func TestExposedGatesReady(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "reach-db")
	site := newSite(ns, "reach")
	site.Spec.Exposure = sitev1.ExposureSpec{Type: sitev1.ExposureIngress,
		Ingress: &sitev1.IngressSpec{Host: "reach.example.com", ClassName: ptr.To("nginx")}}
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	for _, c := range contract.Services {
		setDeploymentAvailable(t, ns, resources.ComponentName("reach", c), true)
	}
	exposedReason(t, ns, "reach", sitev1.ReasonNoReadyEndpoints)
	// Every component available, and still not Ready: the endpoints.
	eventually(t, "4/4 components, Ready=False naming the endpoints", func() error {
		s := getSite(t, ns, "reach")
		c := findCondition(s, sitev1.ConditionReady)
		if s.Status.Components != "4/4" || s.Status.Phase != sitev1.PhaseProvisioning || c == nil ||
			c.Status != metav1.ConditionFalse || !strings.Contains(c.Message, "has no ready endpoints") {
			return fmt.Errorf("components %q phase %q Ready %+v", s.Status.Components, s.Status.Phase, c)
		}
		return nil
	})

	setGatewayEndpoints(t, ns, "reach", false)
	exposedReason(t, ns, "reach", sitev1.ReasonNoReadyEndpoints)
	setGatewayEndpoints(t, ns, "reach", true)
	s := exposedReason(t, ns, "reach", sitev1.ReasonIngressNotAdmitted)
	if c := findCondition(s, sitev1.ConditionExposed); !strings.Contains(c.Message, "nginx") {
		t.Errorf("Exposed message %q: want the ingress class named", c.Message)
	}

	// The ingress controller admits the Ingress: it writes an address.
	eventually(t, "Ingress status", func() error {
		var ing networkingv1.Ingress
		if err := k8s.Get(ctx, key(ns, resources.ExposureName("reach")), &ing); err != nil {
			return err
		}
		ing.Status.LoadBalancer.Ingress = []networkingv1.IngressLoadBalancerIngress{{IP: "192.0.2.10"}}
		return k8s.Status().Update(ctx, &ing)
	})
	gateways.setBroken(ns, "reach", true)
	s = exposedReason(t, ns, "reach", sitev1.ReasonProbeFailed)
	if c := findCondition(s, sitev1.ConditionExposed); !strings.Contains(c.Message, "503") {
		t.Errorf("Exposed message %q: want the probe's answer", c.Message)
	}
	gateways.setBroken(ns, "reach", false)
	waitCondition(t, ns, "reach", sitev1.ConditionReady, metav1.ConditionTrue)
	s = exposedReason(t, ns, "reach", sitev1.ReasonReachable)
	if want := "reach-gateway." + ns + ".svc:8080"; s.Status.Endpoint != want {
		t.Errorf("endpoint %q, want %q", s.Status.Endpoint, want)
	}

	// Each transition is an event with Ready's reason in the note.
	eventually(t, "Provisioning and Ready events", func() error {
		notes := siteEventNotes(t, ns, "reach")
		if !strings.Contains(notes["Provisioning"], sitev1.ReasonComponentsNotReady) || !strings.Contains(notes["Ready"], "site is ready") {
			return fmt.Errorf("events %q", notes)
		}
		return nil
	})

	// A gateway that stops answering takes Ready away (the watch on the
	// slices brings the Site back at once).
	setGatewayEndpoints(t, ns, "reach", false)
	waitCondition(t, ns, "reach", sitev1.ConditionReady, metav1.ConditionFalse)
	exposedReason(t, ns, "reach", sitev1.ReasonNoReadyEndpoints)
}

// acceptRoute writes what a Gateway's controller writes on an HTTPRoute it
// admits: a parent status with Accepted and ResolvedRefs True.
func acceptRoute(t *testing.T, c client.Client, ns, name string) {
	t.Helper()
	eventually(t, "HTTPRoute "+name+" accepted", func() error {
		u := routeObject()
		if err := c.Get(ctx, key(ns, name), u); err != nil {
			return err
		}
		cond := func(typ string) map[string]any {
			return map[string]any{"type": typ, "status": "True", "reason": typ, "message": "",
				"lastTransitionTime": "2026-01-01T00:00:00Z"}
		}
		parents := []any{map[string]any{"parentRef": map[string]any{"name": "public", "namespace": "infra"},
			"controllerName": "example.test/gateway", "conditions": []any{cond("Accepted"), cond("ResolvedRefs")}}}
		if err := unstructured.SetNestedSlice(u.Object, parents, "status", "parents"); err != nil {
			return err
		}
		return c.Update(ctx, u)
	})
}

// siteEventNotes maps each event reason about the Site to its notes, joined.
func siteEventNotes(t *testing.T, ns, site string) map[string]string {
	t.Helper()
	var list eventsv1.EventList
	if err := k8s.List(ctx, &list, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	notes := map[string]string{}
	for _, e := range list.Items {
		if e.Regarding.Kind == "Site" && e.Regarding.Name == site {
			notes[e.Reason] += e.Note + "\n"
		}
	}
	return notes
}
