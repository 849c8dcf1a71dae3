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

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
	cpuReads, cpuCreates = 1000, 200
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
	t.Logf("| replicas (gateway + content) | request | n | ms CPU per request: gateway + content | of it gateway | PostgreSQL | requests/s |")
	for round, n := range []int32{1, 3, 1, 3} {
		scaleSite(t, ns, name, n)
		read := func(i int) response {
			return requestOnce("GET", fmt.Sprintf("%s/cms-json/cms/v2/posts?per_page=10&cpu=%d-%d", gw, round, i), nil, nil)
		}
		create := func(i int) response {
			body := fmt.Appendf(nil, `{"title":"CPU round %d %d","status":"publish"}`, round, i)
			return requestOnce("POST", gw+"/cms-json/cms/v2/posts", body, jsonHeader.Clone())
		}
		runRequests(t, 50, cpuWorkers, 200, read) // warm-up: connections, pools, the code's first run
		for _, m := range []struct {
			what string
			n    int
			want int
			send func(int) response
		}{{"uncached read", cpuReads, 200, read}, {"create", cpuCreates, 201, create}} {
			c0 := siteCPU(t, ns, name)
			t0 := time.Now()
			runRequests(t, m.n, cpuWorkers, m.want, m.send)
			elapsed := time.Since(t0)
			c1 := siteCPU(t, ns, name)
			per := func(d time.Duration) string {
				return fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)/float64(m.n))
			}
			t.Logf("| %d + %d | %s | %d | %s | %s | %s | %.0f |", n, n, m.what, m.n,
				per(c1.gateway+c1.content-c0.gateway-c0.content), per(c1.gateway-c0.gateway), per(c1.postgres-c0.postgres),
				float64(m.n)/elapsed.Seconds())
		}
	}
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

// cpuSample is the CPU the Site's gateway pods, content pods and the
// suite's PostgreSQL pod have used so far.
type cpuSample struct{ gateway, content, postgres time.Duration }

func siteCPU(t *testing.T, ns, site string) cpuSample {
	t.Helper()
	sum := func(ns, selector string) time.Duration {
		list, err := env.kube.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			t.Fatal(err)
		}
		var d time.Duration
		for _, p := range list.Items {
			if p.Status.Phase != corev1.PodRunning { // the database's finished psql Jobs
				continue
			}
			c := podCPU(string(p.UID))
			if c < 0 {
				t.Fatalf("no cgroup for pod %s/%s", p.Namespace, p.Name)
			}
			d += c
		}
		return d
	}
	return cpuSample{
		gateway:  sum(ns, instanceLabel+"="+site+",app.kubernetes.io/component="+contract.ServiceGateway),
		content:  sum(ns, instanceLabel+"="+site+",app.kubernetes.io/component="+contract.ServiceContent),
		postgres: sum(dbNamespace, ""),
	}
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
