package controller

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// requestCounter counts the operator's requests to the API server by verb
// (a watch counts once, when it is opened).
type requestCounter struct {
	mu    sync.Mutex
	verbs map[string]int
}

func (c *requestCounter) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		verb := req.Method
		if req.Method == http.MethodGet && req.URL.Query().Get("watch") == "true" {
			verb = "WATCH"
		}
		c.mu.Lock()
		c.verbs[verb]++
		c.mu.Unlock()
		return rt.RoundTrip(req)
	})
}

// take returns the counts so far and starts again from zero.
func (c *requestCounter) take() (map[string]int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out, total := c.verbs, 0
	for _, n := range out {
		total += n
	}
	c.verbs = map[string]int{}
	return out, total
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestScale brings N Sites to steady state on their own API server and
// then watches for passes that should not happen. N is 10 in `make test`
// (a regression test for reconcile loops); SITEPLANE_OPERATOR_SCALE=200
// makes it the benchmark of docs/operator.md, printing the time to steady
// state and the operator's API requests per Site. Deployments are marked
// available by the test (envtest runs no controller-manager), as the
// Deployment controller would once the pods are ready.
func TestScale(t *testing.T) {
	requireEnv(t)
	n := 10
	if v := os.Getenv("SITEPLANE_OPERATOR_SCALE"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("SITEPLANE_OPERATOR_SCALE=%q: want a positive number", v)
		}
	}
	assets, _ := assetsDir()
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "..", "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
	}
	// Four ClusterIP Services per Site: envtest's default /24 runs out at
	// 63 Sites.
	env.ControlPlane.GetAPIServer().Configure().Set("service-cluster-ip-range", "10.96.0.0/16")
	cfg, err := env.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = env.Stop() }()
	// The test's own client is fast and uncounted; the operator's requests
	// go through the counter.
	cfg.QPS, cfg.Burst = 1000, 2000
	admin, err := client.New(cfg, client.Options{Scheme: k8s.Scheme()})
	if err != nil {
		t.Fatal(err)
	}
	counter := &requestCounter{verbs: map[string]int{}}
	opCfg := rest.CopyConfig(cfg)
	// As deployed: ctrl.GetConfig turns client-side rate limiting off
	// (QPS -1) and leaves flow control to the API server.
	opCfg.QPS = -1
	opCfg.Wrap(counter.wrap)

	var passes atomic.Int64
	perSite := sync.Map{}
	mgr, err := ctrl.NewManager(opCfg, ctrl.Options{
		Scheme: k8s.Scheme(), Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0",
		Cache:      CacheOptions(""),
		Controller: config.Controller{SkipNameValidation: ptr.To(true), MaxConcurrentReconciles: 4},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := &SiteReconciler{Client: mgr.GetClient(), Scheme: mgr.GetScheme(), Clock: clock.RealClock{},
		Images: resources.PodDefaults{Registry: "example.test"},
		OnReconcile: func(k types.NamespacedName) {
			passes.Add(1)
			v, _ := perSite.LoadOrStore(k, new(atomic.Int64))
			v.(*atomic.Int64).Add(1)
		}}
	if err := r.SetupWithManager(mgr); err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { defer close(stopped); _ = mgr.Start(runCtx) }()
	defer func() { cancel(); <-stopped }()

	bg := context.Background()
	const ns = "scale"
	if err := admin.Create(bg, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := range n {
		name := fmt.Sprintf("s%03d", i)
		if err := admin.Create(bg, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name + "-db", Namespace: ns},
			Data: map[string][]byte{"dsn": []byte("postgres://x")}}); err != nil {
			t.Fatal(err)
		}
		if err := admin.Create(bg, newSite(ns, name)); err != nil {
			t.Fatal(err)
		}
	}

	// The Deployment controller's part: report each Deployment's current
	// generation as rolled out with every replica available.
	deadline := time.Now().Add(time.Duration(60+n) * time.Second)
	ready := 0
	sliced := map[string]bool{}
	for time.Now().Before(deadline) {
		var deps appsv1.DeploymentList
		if err := admin.List(bg, &deps, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		for i := range deps.Items {
			d := &deps.Items[i]
			want := ptr.Deref(d.Spec.Replicas, 1)
			if d.Status.ObservedGeneration == d.Generation && d.Status.AvailableReplicas == want && d.Status.UpdatedReplicas == want {
				continue
			}
			d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: want, UpdatedReplicas: want,
				ReadyReplicas: want, AvailableReplicas: want}
			_ = admin.Status().Update(bg, d) // a conflict is retried on the next round
		}
		// The endpoint slice controller's part: a ready endpoint for each
		// gateway Service (Exposed; this reconciler has no probe).
		playEndpointSlices(t, admin, ns, sliced)
		var sites sitev1.SiteList
		if err := admin.List(bg, &sites, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		ready = 0
		for _, s := range sites.Items {
			if s.Status.Phase == sitev1.PhaseReady && s.Status.ObservedGeneration == s.Generation {
				ready++
			}
		}
		if ready == n {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	elapsed := time.Since(start)
	if ready != n {
		t.Fatalf("%d of %d Sites Ready after %s", ready, n, elapsed.Round(time.Second))
	}
	verbs, total := counter.take()
	toSteady := passes.Swap(0)

	// A Site that was not Ready on some pass asked for a re-check
	// (requeueProgressing) that a later pass cannot cancel: at most one
	// such leftover pass per Site may still come. Then nothing changes, so
	// nothing may happen: a pass or a read or write now is a loop.
	leftover := map[types.NamespacedName]int64{}
	time.Sleep(requeueProgressing + 2*time.Second)
	perSite.Range(func(k, v any) bool {
		leftover[k.(types.NamespacedName)] = v.(*atomic.Int64).Load()
		return true
	})
	leftoverPasses := passes.Swap(0)
	_, leftoverTotal := counter.take()
	window := 5 * time.Second
	time.Sleep(window)
	steadyVerbs, steadyTotal := counter.take()
	steadyPasses := passes.Load()
	perSite.Range(func(k, v any) bool {
		if extra := v.(*atomic.Int64).Load() - leftover[k.(types.NamespacedName)]; extra > 0 {
			t.Errorf("%v: %d passes in steady state", k, extra)
		}
		return true
	})
	maxPasses, names := int64(0), make([]string, 0, len(verbs))
	perSite.Range(func(_, v any) bool { maxPasses = max(maxPasses, v.(*atomic.Int64).Load()); return true })
	for v, c := range verbs {
		names = append(names, fmt.Sprintf("%s %d", v, c))
	}
	sort.Strings(names)
	t.Logf("%d Sites Ready in %s: %d API requests (%.1f per Site: %s), %d passes (%.1f per Site, at most %d for one)",
		n, elapsed.Round(100*time.Millisecond), total, float64(total)/float64(n), strings.Join(names, ", "),
		toSteady, float64(toSteady)/float64(n), maxPasses)
	t.Logf("leftover re-checks: %d passes (%d API requests); then steady for %s: %d passes, %d API requests %v",
		leftoverPasses, leftoverTotal, window, steadyPasses, steadyTotal, steadyVerbs)
	if leftoverPasses > int64(n) {
		t.Errorf("%d passes for %d Sites after all were Ready: more than one leftover re-check each", leftoverPasses, n)
	}
	if steadyPasses != 0 {
		t.Errorf("%d passes in %s of steady state: a reconcile loop", steadyPasses, window)
	}
	// Only the informers' watches may be re-opened; no reads or writes.
	for v, c := range steadyVerbs {
		if v != "WATCH" && c > 0 {
			t.Errorf("%d %s requests in steady state", c, v)
		}
	}
}

// playEndpointSlices writes, once per gateway Service, the EndpointSlice
// the endpoint slice controller would write: the Service's labels and one
// ready endpoint. sliced remembers the Services done.
func playEndpointSlices(t *testing.T, admin client.Client, ns string, sliced map[string]bool) {
	var svcs corev1.ServiceList
	if err := admin.List(context.Background(), &svcs, client.InNamespace(ns), client.MatchingLabels{resources.LabelComponent: contract.ServiceGateway}); err != nil {
		t.Fatal(err)
	}
	for _, svc := range svcs.Items {
		if sliced[svc.Name] {
			continue
		}
		labels := map[string]string{discoveryv1.LabelServiceName: svc.Name}
		maps.Copy(labels, svc.Labels)
		if err := admin.Create(context.Background(), &discoveryv1.EndpointSlice{
			ObjectMeta: metav1.ObjectMeta{Name: svc.Name + "-x", Namespace: ns, Labels: labels}, AddressType: discoveryv1.AddressTypeIPv4,
			Endpoints: []discoveryv1.Endpoint{{Addresses: []string{"10.88.0.9"}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)}}},
		}); err == nil || apierrors.IsAlreadyExists(err) {
			sliced[svc.Name] = true
		}
	}
}
