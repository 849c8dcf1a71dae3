package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// requeueUnreachable re-checks a site that is not reachable yet. Endpoint
// and Ingress/HTTPRoute status changes bring the Site back sooner through
// their watches; the probe's own answer has no watch, hence the timer.
const requeueUnreachable = 5 * time.Second

// probeTimeout bounds one probe request: a gateway that has ready pods
// answers the index in milliseconds.
const probeTimeout = 3 * time.Second

// Prober asks a site's gateway for its REST index; nil means it answered.
type Prober func(ctx context.Context, url string) error

// ProbeIndex is the real prober: GET the URL, expect a 200 with a JSON
// object naming the site's routes (the REST index), so a port that answers
// something else (a default backend, another program) does not count.
func ProbeIndex(hc *http.Client) Prober {
	return func(ctx context.Context, url string) error {
		ctx, cancel := context.WithTimeout(ctx, probeTimeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s answered %d", url, resp.StatusCode)
		}
		var index struct {
			Routes map[string]json.RawMessage `json:"routes"`
		}
		if err := json.Unmarshal(body, &index); err != nil || index.Routes == nil {
			return fmt.Errorf("GET %s answered 200 but not with the REST index", url)
		}
		return nil
	}
}

// ProbeURL is the REST index through the gateway Service, as a pod (the
// operator's) reaches it.
func ProbeURL(site *sitev1.Site) string {
	return "http://" + resources.ComponentName(site.Name, contract.ServiceGateway) + "." + site.Namespace + ".svc:" +
		strconv.Itoa(contract.DefaultAPIPort) + "/cms-json/"
}

// reconcileReachability sets Exposed: the gateway Service has ready
// endpoints, the Ingress or HTTPRoute (when used) is admitted, and a
// request through the Service answers the REST index. Each check runs only
// once the ones before it pass, and the reason names the first that fails.
func (r *SiteReconciler) reconcileReachability(ctx context.Context, site *sitev1.Site, p *pass) error {
	site.Status.Endpoint = strings.TrimSuffix(strings.TrimPrefix(ProbeURL(site), "http://"), "/cms-json/")
	cond := metav1.Condition{Type: sitev1.ConditionExposed, Status: metav1.ConditionFalse}
	reason, msg, err := r.exposureProblem(ctx, site)
	if err != nil {
		return err
	}
	if reason == "" && r.Probe != nil {
		if perr := r.Probe(ctx, r.probeURL(site)); perr != nil {
			reason, msg = sitev1.ReasonProbeFailed, "the REST index through Service "+
				resources.ComponentName(site.Name, contract.ServiceGateway)+" did not answer: "+perr.Error()
		}
	}
	if reason == "" {
		cond.Status, cond.Reason = metav1.ConditionTrue, sitev1.ReasonReachable
		cond.Message = "Service " + resources.ComponentName(site.Name, contract.ServiceGateway) + " has ready endpoints and answers the REST index"
		switch site.Spec.Exposure.Type {
		case sitev1.ExposureIngress:
			cond.Message += "; Ingress " + resources.ExposureName(site.Name) + " has an address"
		case sitev1.ExposureHTTPRoute:
			cond.Message += "; HTTPRoute " + resources.ExposureName(site.Name) + " is accepted"
		}
	} else {
		cond.Reason, cond.Message = reason, msg
		p.waitFor(requeueUnreachable)
	}
	setCondition(site, cond)
	return nil
}

func (r *SiteReconciler) probeURL(site *sitev1.Site) string {
	if r.ProbeURL != nil {
		return r.ProbeURL(site)
	}
	return ProbeURL(site)
}

// exposureProblem returns the reason and message of the first check that
// fails, or "" when the endpoints and the Ingress/HTTPRoute are in order.
func (r *SiteReconciler) exposureProblem(ctx context.Context, site *sitev1.Site) (reason, msg string, err error) {
	svc := resources.ComponentName(site.Name, contract.ServiceGateway)
	var slices discoveryv1.EndpointSliceList
	if err := r.List(ctx, &slices, client.InNamespace(site.Namespace),
		client.MatchingLabels{discoveryv1.LabelServiceName: svc}); err != nil {
		return "", "", fmt.Errorf("list EndpointSlices of %s: %w", svc, err)
	}
	if n := readyEndpoints(slices.Items); n == 0 {
		return sitev1.ReasonNoReadyEndpoints, "Service " + svc + " has no ready endpoints (no gateway pod is Ready)", nil
	}
	name := resources.ExposureName(site.Name)
	switch site.Spec.Exposure.Type {
	case sitev1.ExposureIngress:
		var ing networkingv1.Ingress
		err := r.Get(ctx, client.ObjectKey{Namespace: site.Namespace, Name: name}, &ing)
		switch {
		case apierrors.IsNotFound(err):
			return sitev1.ReasonIngressNotAdmitted, "Ingress " + name + " does not exist yet", nil
		case err != nil:
			return "", "", fmt.Errorf("get Ingress %s: %w", name, err)
		case len(ing.Status.LoadBalancer.Ingress) == 0:
			return sitev1.ReasonIngressNotAdmitted, "Ingress " + name + " has no load-balancer address yet: no ingress controller has admitted it" +
				ingressClassHint(&ing), nil
		}
	case sitev1.ExposureHTTPRoute:
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(resources.HTTPRouteGVK)
		err := r.Get(ctx, client.ObjectKey{Namespace: site.Namespace, Name: name}, u)
		switch {
		case apierrors.IsNotFound(err) || meta.IsNoMatchError(err):
			// Without the Gateway API, RoutesReady already says so.
			return sitev1.ReasonRouteNotAccepted, "HTTPRoute " + name + " does not exist yet", nil
		case err != nil:
			return "", "", fmt.Errorf("get HTTPRoute %s: %w", name, err)
		}
		if why := routeNotAccepted(u); why != "" {
			return sitev1.ReasonRouteNotAccepted, "HTTPRoute " + name + ": " + why, nil
		}
	}
	return "", "", nil
}

func ingressClassHint(ing *networkingv1.Ingress) string {
	if c := ing.Spec.IngressClassName; c != nil && *c != "" {
		return " (ingressClassName " + *c + ")"
	}
	return " (no ingressClassName: the cluster's default class, if any)"
}

// readyEndpoints counts the ready addresses of a Service's slices.
func readyEndpoints(slices []discoveryv1.EndpointSlice) int {
	n := 0
	for _, s := range slices {
		for _, e := range s.Endpoints {
			if e.Conditions.Ready == nil || *e.Conditions.Ready {
				n += len(e.Addresses)
			}
		}
	}
	return n
}

// routeNotAccepted says why an HTTPRoute is not in service, from the
// conditions its Gateways' controllers wrote under status.parents: every
// parent must report Accepted and ResolvedRefs True. "" when it is.
func routeNotAccepted(u *unstructured.Unstructured) string {
	parents, _, _ := unstructured.NestedSlice(u.Object, "status", "parents")
	if len(parents) == 0 {
		return "no Gateway has accepted it yet (status.parents is empty)"
	}
	for _, pa := range parents {
		pm, _ := pa.(map[string]any)
		ref, _, _ := unstructured.NestedString(pm, "parentRef", "name")
		conds, _, _ := unstructured.NestedSlice(pm, "conditions")
		for _, want := range []string{"Accepted", "ResolvedRefs"} {
			status, why := "missing", ""
			for _, c := range conds {
				cm, _ := c.(map[string]any)
				if cm["type"] == want {
					status, _ = cm["status"].(string)
					why, _ = cm["message"].(string)
				}
			}
			if status != "True" {
				msg := fmt.Sprintf("Gateway %s reports %s=%s", ref, want, status)
				if why != "" {
					msg += " (" + why + ")"
				}
				return msg
			}
		}
	}
	return ""
}
