//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// The operator's names (operator/internal/resources: internalkey.go, names.go).
const annotationRotateInternalKey = "siteplane.dev/rotate-internal-key"

func internalKeySecret(site string) string { return site + "-internal-key" }

// internalKeyRotation rotates the Site's internal key under load and
// asserts that no request fails and that the senders really switched, and
// not before the propagation delay.
//
// Which hops carry a signed identity: the gateway signs the caller's
// identity for the service it forwards to when the caller is logged in (an
// authenticated REST read reaches content signed), content signs its user
// lookups at the gateway's internal listener. An anonymous read carries none.
// So the load is authenticated reads (plus one anonymous worker, which must
// not notice anything either), and the evidence is content's
// siteplane_identity_verified_total by key id: the previous key's series
// grows until the senders switch, then the new key's; a header a receiver
// cannot verify is answered 401 (a failed request here) and counted in
// siteplane_identity_rejected_total.
//
// Against a broken rotation: senders switching at once make the new key's
// series start before rotated-at + the delay (and, where a receiver has not
// re-read the files yet, 401s); an operator that does not keep the previous
// key fails the Secret check and makes the senders switch at once.
func internalKeyRotation(t *testing.T, ns, name, gw string, auth http.Header) {
	delay := propagationDelay(t, ns, name)
	k0 := secretValue(t, ns, internalKeySecret(name), contract.InternalKeySecretKey)
	id0 := contract.InternalKeyID([]byte(k0))
	contentMetrics := serviceURL(t, ns, componentName(name, contract.ServiceContent), contract.DefaultMetricsPort) + contract.MetricsPath
	gatewayMetrics := serviceURL(t, ns, componentName(name, contract.ServiceGateway), contract.DefaultMetricsPort) + contract.MetricsPath

	url := gw + "/cms-json/cms/v2/posts?per_page=1&_fields=id"
	stopAuth := startLoad(url, auth, 3)
	stopAnon := startLoad(url, nil, 1)
	stopped := false
	stop := func() (loadResult, loadResult) {
		stopped = true
		return stopAuth(), stopAnon()
	}
	defer func() {
		if !stopped {
			stop()
		}
	}()

	var before identityCounts
	eventually(t, "content verifies headers signed with the current key", 30*time.Second, func() (bool, string) {
		before = scrapeIdentity(t, contentMetrics)
		return before.verified[id0] > 0, fmt.Sprintf("content verified by key: %v", before.verified)
	})
	gwRejected := scrapeIdentity(t, gatewayMetrics).rejectedTotal()

	k1, rotatedAt := rotateInternalKey(t, ns, name, k0)
	if rotatedAt.IsZero() {
		t.FailNow() // said above; the deferred stop ends the load
	}
	id1 := contract.InternalKeyID([]byte(k1))
	switchAt := rotatedAt.Add(delay)
	t.Logf("rotated at %s (key %s -> %s); senders due to switch at %s (delay %s)",
		rotatedAt.Format(time.RFC3339), id0, id1, switchAt.Format(time.RFC3339), delay)

	// Watch content's counters until the new key verifies and the old one
	// no longer grows: the senders have switched.
	var firstNew time.Time
	var last identityCounts
	old0AtRotation := -1.0
	eventually(t, "the senders switched to the new key", time.Until(switchAt)+90*time.Second, func() (bool, string) {
		now := time.Now()
		c := scrapeIdentity(t, contentMetrics)
		if old0AtRotation < 0 {
			old0AtRotation = c.verified[id0]
		}
		if c.verified[id1] > 0 && firstNew.IsZero() {
			firstNew = now
		}
		done := !firstNew.IsZero() && last.verified != nil && c.verified[id1] > last.verified[id1] &&
			c.verified[id0] == last.verified[id0]
		last = c
		time.Sleep(time.Second)
		return done, fmt.Sprintf("content verified by key: %v", c.verified)
	})
	auth1, anon := stop()
	after := scrapeIdentity(t, contentMetrics)

	t.Logf("authenticated: %d requests, %d failed; anonymous: %d, %d failed", auth1.sent, auth1.failed, anon.sent, anon.failed)
	t.Logf("content verified: old key %.0f (%.0f after the rotation), new key %.0f; new key first seen %.1fs after rotated-at",
		after.verified[id0], after.verified[id0]-old0AtRotation, after.verified[id1], firstNew.Sub(rotatedAt).Seconds())
	if auth1.failed > 0 || anon.failed > 0 {
		t.Errorf("requests failed during the rotation: %d of %d authenticated (first: %v), %d of %d anonymous (first: %v)",
			auth1.failed, auth1.sent, auth1.failures, anon.failed, anon.sent, anon.failures)
	}
	if auth1.sent < 100 {
		t.Errorf("only %d authenticated requests: the load did not cover the rotation", auth1.sent)
	}
	if firstNew.Before(switchAt) {
		t.Errorf("content verified the new key %.1fs after rotated-at, before the %s propagation delay: the senders switched early",
			firstNew.Sub(rotatedAt).Seconds(), delay)
	}
	if after.verified[id0] <= old0AtRotation {
		t.Errorf("no request was signed with the previous key after the rotation (%.0f before, %.0f after)", old0AtRotation, after.verified[id0])
	}
	if d := after.rejectedTotal() - before.rejectedTotal(); d > 0 {
		t.Errorf("content refused %.0f identity headers during the rotation: %v", d, after.rejected)
	}
	if d := scrapeIdentity(t, gatewayMetrics).rejectedTotal() - gwRejected; d > 0 {
		t.Errorf("the gateway refused %.0f identity headers during the rotation", d)
	}
}

// rotateInternalKey asks the operator to rotate the Site's internal key (a
// request value it has not handled yet) and waits for the rotation: the new
// key, the replaced one kept as the previous key, and the rotated-at time
// (zero when the Secret's is unreadable, already reported).
func rotateInternalKey(t *testing.T, ns, name, k0 string) (k1 string, rotatedAt time.Time) {
	t.Helper()
	ctx := context.Background()
	request := time.Now().UTC().Format(time.RFC3339Nano)
	patch := fmt.Appendf(nil, `{"metadata":{"annotations":{%q:%q}}}`, annotationRotateInternalKey, request)
	var s sitev1.Site
	s.Name, s.Namespace = name, ns
	if err := env.c.Patch(ctx, &s, client.RawPatch(types.MergePatchType, patch)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the operator rotated the internal key", 60*time.Second, func() (bool, string) {
		sec, err := env.kube.CoreV1().Secrets(ns).Get(ctx, internalKeySecret(name), metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		k1 = string(sec.Data[contract.InternalKeySecretKey])
		if k1 == k0 || k1 == "" {
			return false, "the Secret still holds the old key"
		}
		if prev := string(sec.Data[contract.InternalKeyPreviousSecretKey]); prev != k0 {
			t.Errorf("after the rotation, %s holds %d bytes that are not the replaced key: receivers would refuse it at once",
				contract.InternalKeyPreviousSecretKey, len(prev))
		}
		at, err := time.Parse(time.RFC3339, string(sec.Data[contract.InternalKeyRotatedAtSecretKey]))
		if err != nil {
			t.Errorf("%s: %v", contract.InternalKeyRotatedAtSecretKey, err)
		}
		rotatedAt = at
		return true, ""
	})
	return k1, rotatedAt
}

// propagationDelay is the delay the gateway's pods run with: the operator's
// --internal-key-propagation-delay as the environment variable, else the
// services' default.
func propagationDelay(t *testing.T, ns, site string) time.Duration {
	t.Helper()
	d := deployment(t, ns, componentName(site, contract.ServiceGateway))
	for _, e := range d.Spec.Template.Spec.Containers[0].Env {
		if e.Name == contract.EnvInternalKeyPropagationDelay {
			v, err := time.ParseDuration(e.Value)
			if err != nil {
				t.Fatalf("%s=%q: %v", e.Name, e.Value, err)
			}
			return v
		}
	}
	return contract.DefaultInternalKeyPropagationDelay
}

// identityCounts are a service's siteplane_identity_* counters.
type identityCounts struct {
	verified map[string]float64 // by key_id
	rejected map[string]float64 // by reason
}

func (c identityCounts) rejectedTotal() float64 {
	n := 0.0
	for _, v := range c.rejected {
		n += v
	}
	return n
}

// scrapeIdentity reads the identity counters from a metrics endpoint (the
// Service reaches the component's one pod).
func scrapeIdentity(t *testing.T, url string) identityCounts {
	t.Helper()
	r := request("GET", url, nil, nil)
	if r.Status != 200 {
		t.Fatalf("scrape %s: %s", url, r)
	}
	c := identityCounts{verified: map[string]float64{}, rejected: map[string]float64{}}
	sc := bufio.NewScanner(strings.NewReader(string(r.Body)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		var into map[string]float64
		var label string
		switch {
		case strings.HasPrefix(line, "siteplane_identity_verified_total{"):
			into, label = c.verified, "key_id"
		case strings.HasPrefix(line, "siteplane_identity_rejected_total{"):
			into, label = c.rejected, "reason"
		default:
			continue
		}
		labels, value, ok := strings.Cut(line[strings.Index(line, "{")+1:], "} ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		for _, kv := range strings.Split(labels, ",") {
			if k, val, _ := strings.Cut(kv, "="); k == label {
				into[strings.Trim(val, `"`)] += v
			}
		}
	}
	return c
}
