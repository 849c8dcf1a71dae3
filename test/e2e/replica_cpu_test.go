//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// Issue 34, speed: the CPU one uncached read and one create cost with 1 and
// with 3 replicas each of gateway and content, on the cluster: the server
// CPU is the pods' own (their cgroups' cpuacct.usage, as
// cnpg_reads_test.go measures PostgreSQL), so only the local provider,
// whose pods' cgroups are on this host, measures it. The rounds alternate
// 1, 3, 1, 3 on one Site, so a change of the machine's load shows as a
// difference between rounds of one count.
const (
	cpuReads, cpuCreates = 3000, 1000 // a few seconds each: 200 creates took 0.5 s, too short to measure
	cpuWorkers           = 4
)

func TestReplicaCPU(t *testing.T) {
	if env.provider != "local" {
		t.Skip("the pods' cgroups are on this host only with the local provider")
	}
	ns := namespace(t, "e2e-replica-cpu")
	const name = "cpu"
	site := plainSite(t, ns, name, "E2E CPU")
	if err := env.c.Create(context.Background(), site); err != nil {
		t.Fatal(err)
	}
	waitReady(t, ns, name, 5*time.Minute)
	gw := serviceURL(t, ns, componentName(name, contract.ServiceGateway), contract.DefaultAPIPort)
	auth := adminAuth(t, ns, name)
	jsonHeader := auth(http.Header{"Content-Type": {"application/json"}})
	for i := range 20 {
		body := fmt.Appendf(nil, `{"title":"CPU %d","content":"<p>e2e</p>","status":"publish"}`, i)
		if r := request("POST", gw+"/cms-json/cms/v2/posts", body, jsonHeader.Clone()); r.Status != 201 {
			t.Fatalf("create post %d: %s", i, r)
		}
	}
	t.Logf("ms of CPU per request, raw and less the pods' idle rate measured for %s just before (probes, timers, GC: not the requests')", cpuIdle)
	t.Logf("| replicas (gateway + content) | request | n | gateway + content | of it gateway | PostgreSQL | idle-corrected: gateway + content | of it gateway | PostgreSQL | requests/s |")
	var rounds []cpuRound
	// 1 + 1 and 3 + 3 through the Service with the same 4 connections, and
	// 3 + 3 with 4 connections to each gateway pod (3 × the load: each pod
	// as busy as the one pod of 1 + 1)
	for round, c := range []struct {
		n      int32
		perPod bool
	}{{1, false}, {3, false}, {3, true}, {1, false}, {3, false}, {3, true}} {
		if !c.perPod {
			scaleSite(t, ns, name, c.n)
		}
		bases, workers := []string{gw}, cpuWorkers
		if c.perPod {
			bases, workers = podURLs(t, ns, name, contract.ServiceGateway, contract.DefaultAPIPort), cpuWorkers*int(c.n)
		}
		read := func(i int) response {
			return requestOnce("GET", fmt.Sprintf("%s/cms-json/cms/v2/posts?per_page=10&cpu=%d-%d", bases[i%len(bases)], round, i), nil, nil)
		}
		create := func(i int) response {
			body := fmt.Appendf(nil, `{"title":"CPU round %d %d","status":"publish"}`, round, i)
			return requestOnce("POST", bases[i%len(bases)]+"/cms-json/cms/v2/posts", body, jsonHeader.Clone())
		}
		runRequests(t, 50, workers, 200, read) // warm-up: connections, pools, the code's first run
		for _, m := range []struct {
			what, method string
			n, want      int
			send         func(int) response
		}{{"uncached read", http.MethodGet, cpuReads, 200, read}, {"create", http.MethodPost, cpuCreates, 201, create}} {
			r := measureRound(t, ns, name, m.method, m.n, func() { runRequests(t, m.n, workers, m.want, m.send) })
			r.replicas, r.loadPod, r.what = c.n, c.perPod, m.what
			rounds = append(rounds, r)
			t.Log(r.row())
		}
	}
	for _, r := range rounds {
		t.Log(r.perPod())
	}
	for _, what := range []string{"uncached read", "create"} {
		t.Log(cpuRatios(rounds, what))
	}
	// the edge cache's hit ratio through the Service, 3 gateways then 1
	hitmix, urls := hitMixSetup(t, gw)
	create := func(i int) response {
		body := fmt.Appendf(nil, `{"title":"hit mix %d","status":"publish"}`, i)
		return requestOnce("POST", gw+"/cms-json/cms/v2/posts", body, jsonHeader.Clone())
	}
	t.Log("| run | gateways | requests | distinct URLs | hits | misses | hit ratio | best possible | busiest gateway | failed | took |")
	replicaHitRatio(t, gw, "3 gateways through the Service", create, hitmix, urls)
	scaleSite(t, ns, name, 1)
	replicaHitRatio(t, gw, "1 gateway", create, hitmix, urls)
}

// scaleSite sets gateway and content to n replicas and waits until the
// Site is Ready with exactly n pods of each, the others gone.
func scaleSite(t *testing.T, ns, site string, n int32) {
	t.Helper()
	ctx := context.Background()
	var s sitev1.Site
	if err := env.c.Get(ctx, client.ObjectKey{Namespace: ns, Name: site}, &s); err != nil {
		t.Fatal(err)
	}
	s.Spec.Components.Gateway.Replicas, s.Spec.Components.Content.Replicas = ptr.To(n), ptr.To(n)
	if err := env.c.Update(ctx, &s); err != nil {
		t.Fatal(err)
	}
	waitReady(t, ns, site, 3*time.Minute)
	eventually(t, fmt.Sprintf("%d pods of gateway and content", n), 2*time.Minute, func() (bool, string) {
		for _, c := range []string{contract.ServiceGateway, contract.ServiceContent} {
			if got := len(podsByName(t, ns, site, c)); got != int(n) {
				return false, fmt.Sprintf("%s: %d pods", c, got)
			}
		}
		return true, ""
	})
	waitPodsGone(t, ns, site, time.Minute) // a stopping pod's CPU would leave the sums mid-measurement
}

// runRequests sends n requests, send(0) … send(n-1), from workers
// goroutines, and fails the test when one answers other than want.
func runRequests(t *testing.T, n, workers, want int, send func(int) response) {
	t.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed []string
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				if r := send(i); r.Status != want {
					mu.Lock()
					failed = append(failed, r.String())
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if len(failed) > 0 {
		t.Fatalf("%d of %d requests failed; first: %s", len(failed), n, failed[0])
	}
}
