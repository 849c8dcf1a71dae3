//go:build e2e

package e2e

import (
	"context"
	"net/http"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"siteplane.dev/services/pkg/contract"
	"siteplane.dev/test/failover"
)

// failoverUnderLoad deletes the primary pod of cluster while 4 writers
// (creates with an Idempotency-Key, retried with it until acknowledged)
// and 2 anonymous readers run through the site's gateway, then checks that
// no acknowledged write was lost, no retried key made two posts and nothing
// answered 500 (a 503 with Retry-After is allowed), and logs the counts
// and how long writes failed.
func failoverUnderLoad(t *testing.T, ns, site, cluster string, auth func(http.Header) http.Header) {
	gw := serviceURL(t, ns, componentName(site, contract.ServiceGateway), contract.DefaultAPIPort)
	before := clusterInstances(t, ns, cluster)
	deletePrimary := func() error {
		t.Logf("deleting the primary %s at %s", before.primary, time.Now().UTC().Format("15:04:05.000"))
		return env.kube.CoreV1().Pods(ns).Delete(context.Background(), before.primary, metav1.DeleteOptions{})
	}
	promoted := func() (bool, string) {
		now := clusterInstances(t, ns, cluster)
		return now.primary != "" && now.primary != before.primary, "primary " + now.primary
	}
	r, err := failover.Run(gw, auth(http.Header{}).Get("Authorization"), 10*time.Second, 10*time.Second, 4*time.Minute, deletePrimary, promoted)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("failover %s → %s: %s", before.primary, clusterInstances(t, ns, cluster).primary, r)
	for _, p := range r.Problems() {
		t.Error(p)
	}
}
