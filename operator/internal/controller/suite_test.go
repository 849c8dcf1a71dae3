package controller

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/yaml"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
)

// The envtest suite runs the real reconciler in a manager against a real
// kube-apiserver and etcd (no kubelet, no controllers: Deployment status is
// written by the tests, and garbage collection is checked through owner
// references).

var (
	envErr error // why the suite cannot run; nil when it can
	// k8s is the tests' own client (cluster admin).
	k8s client.Client
	// operatorCfg is the manager's connection: a user holding nothing but
	// the generated role (config/rbac/role.yaml), as the deployed operator.
	operatorCfg *rest.Config
	fakeClock   = clocktesting.NewFakeClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	passes      = &passCounter{n: map[types.NamespacedName]int{}}
)

// passCounter counts reconcile passes per Site.
type passCounter struct {
	mu sync.Mutex
	n  map[types.NamespacedName]int
}

func (c *passCounter) inc(k types.NamespacedName) {
	c.mu.Lock()
	c.n[k]++
	c.mu.Unlock()
}

func (c *passCounter) get(k types.NamespacedName) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[k]
}

func TestMain(m *testing.M) {
	os.Exit(runSuite(m))
}

func runSuite(m *testing.M) int {
	assets, err := assetsDir()
	if err != nil {
		envErr = err
		return m.Run()
	}
	logf.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.UseDevMode(false), zap.Level(zapLevel())))
	crds := []string{filepath.Join("..", "..", "..", "config", "crd", "bases"), filepath.Join("testdata", "crds")}
	if cnpgCRDs, cnpgErr = cnpgCRDDir(); cnpgErr == nil {
		crds = append(crds, cnpgCRDs)
	}
	env := &envtest.Environment{
		CRDDirectoryPaths:     crds,
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
	}
	// As on a real cluster (and CloudNativePG's kind setup): setting
	// blockOwnerDeletion needs update on sites/finalizers, so a missing
	// RBAC rule fails the suite instead of production.
	env.ControlPlane.GetAPIServer().Configure().Append("enable-admission-plugins", "OwnerReferencesPermissionEnforcement")
	cfg, err := env.Start()
	if err != nil {
		fmt.Fprintf(os.Stderr, "envtest: start: %v\n", err)
		return 1
	}
	defer func() {
		if err := env.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "envtest: stop: %v\n", err)
		}
	}()
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(sitev1.AddToScheme(scheme))
	if k8s, err = client.New(cfg, client.Options{Scheme: scheme}); err != nil {
		fmt.Fprintf(os.Stderr, "envtest: client: %v\n", err)
		return 1
	}
	if operatorCfg, err = operatorUser(env, cfg); err != nil {
		fmt.Fprintf(os.Stderr, "envtest: operator user: %v\n", err)
		return 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped, err := startManager(ctx, operatorCfg, scheme)
	if err != nil {
		cancel()
		fmt.Fprintf(os.Stderr, "envtest: manager: %v\n", err)
		return 1
	}
	code := m.Run()
	// Stop the manager before the API server, so in-flight passes end
	// quietly instead of logging connection errors.
	cancel()
	<-stopped
	return code
}

// assetsDir finds kube-apiserver and etcd: KUBEBUILDER_ASSETS, or outside CI
// the cache hack/envtest.sh fills (bin/k8s/<version>-<os>-<arch>).
func assetsDir() (string, error) {
	if dir := os.Getenv("KUBEBUILDER_ASSETS"); dir != "" {
		return dir, nil
	}
	if os.Getenv("CI") == "true" {
		return "", fmt.Errorf("KUBEBUILDER_ASSETS is not set: run `make test` (it calls hack/envtest.sh) or export KUBEBUILDER_ASSETS=$(hack/envtest.sh)")
	}
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "..", "bin", "k8s", "*"))
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "kube-apiserver")); err == nil {
			return filepath.Abs(d)
		}
	}
	return "", errSkip
}

var errSkip = fmt.Errorf("envtest binaries not found: set KUBEBUILDER_ASSETS=$(hack/envtest.sh) to run the operator's envtest suite")

func zapLevel() zapcore.Level {
	if os.Getenv("SITEPLANE_TEST_VERBOSE") != "" {
		return -1
	}
	return 2 // errors only
}

// startManager runs the reconciler in a manager until ctx ends; the
// returned channel closes when the manager has stopped.
func startManager(ctx context.Context, cfg *rest.Config, scheme *runtime.Scheme) (<-chan struct{}, error) {
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Cache:                  CacheOptions(""),
	})
	if err != nil {
		return nil, err
	}
	r := &SiteReconciler{
		Client:      mgr.GetClient(),
		APIReader:   mgr.GetAPIReader(),
		Scheme:      mgr.GetScheme(),
		Recorder:    mgr.GetEventRecorder("siteplane-operator"),
		Images:      resources.PodDefaults{Registry: "example.test/siteplane", Tag: "v0.0.0-test"},
		Clock:       fakeClock,
		OnReconcile: passes.inc,
		// The probe is the real one, against a loopback server playing every
		// Site's gateway (envtest runs no pods): see gateways.
		Probe:    ProbeIndex(&http.Client{}),
		ProbeURL: gateways.url,
	}
	if err := r.SetupWithManager(mgr); err != nil {
		return nil, err
	}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		if err := mgr.Start(ctx); err != nil {
			fmt.Fprintf(os.Stderr, "manager stopped: %v\n", err)
		}
	}()
	return stopped, nil
}

// operatorUserName is the user the manager runs as.
const operatorUserName = "siteplane-operator-envtest"

// operatorUser provisions a user bound to the ClusterRole that controller-gen
// generates from the +kubebuilder:rbac markers, and returns its connection.
// The reconciler then has exactly the permissions it has when deployed, so
// a marker that is missing (or a verb dropped too eagerly) fails the suite.
func operatorUser(env *envtest.Environment, admin *rest.Config) (*rest.Config, error) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "config", "rbac", "role.yaml"))
	if err != nil {
		return nil, err
	}
	var role rbacv1.ClusterRole
	if err := yaml.UnmarshalStrict(data, &role); err != nil {
		return nil, err
	}
	ctx := context.Background()
	if err := k8s.Create(ctx, &role); err != nil {
		return nil, err
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: role.Name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: operatorUserName}},
	}
	if err := k8s.Create(ctx, binding); err != nil {
		return nil, err
	}
	user, err := env.AddUser(envtest.User{Name: operatorUserName}, admin)
	if err != nil {
		return nil, err
	}
	return user.Config(), nil
}

// requireEnv skips (outside CI) or fails (in CI) a test needing envtest.
func requireEnv(t *testing.T) {
	t.Helper()
	switch {
	case envErr == errSkip:
		t.Skip(envErr.Error())
	case envErr != nil:
		t.Fatal(envErr)
	}
}

// newNamespace gives each test its own namespace, so tests cannot see each
// other's objects (envtest never deletes namespaces; it does not matter).
func newNamespace(t *testing.T) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "site-test-"}}
	if err := k8s.Create(context.Background(), ns); err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

// createDatabaseSecret creates the user-provided DSN Secret.
func createDatabaseSecret(t *testing.T, ns, name string) {
	t.Helper()
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Data: map[string][]byte{"dsn": []byte("postgres://site@db:5432/site")}}
	if err := k8s.Create(context.Background(), s); err != nil {
		t.Fatal(err)
	}
}

// newSite is a minimal valid Site; the API server fills the defaults.
func newSite(ns, name string) *sitev1.Site {
	return &sitev1.Site{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: sitev1.SiteSpec{
			URL:      "https://" + name + ".example.com",
			Database: sitev1.DatabaseSpec{SecretRef: &sitev1.DatabaseSecretRef{Name: name + "-db"}},
		},
	}
}

// eventually polls cond until it returns nil or the timeout passes.
func eventually(t *testing.T, what string, cond func() error) {
	t.Helper()
	start := time.Now()
	deadline := start.Add(20 * time.Second)
	var err error
	for time.Now().Before(deadline) {
		if err = cond(); err == nil {
			if d := time.Since(start); d > 2*time.Second {
				t.Logf("waited %s for %s", d.Round(time.Millisecond), what)
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s: %v", what, err)
}

// getSite reads the Site fresh from the API server.
func getSite(t *testing.T, ns, name string) *sitev1.Site {
	t.Helper()
	s := &sitev1.Site{}
	if err := k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, s); err != nil {
		t.Fatal(err)
	}
	return s
}

// updateSite applies mutate to the latest Site, retrying on conflicts.
func updateSite(t *testing.T, ns, name string, mutate func(*sitev1.Site)) {
	t.Helper()
	eventually(t, "update of the Site", func() error {
		s := getSite(t, ns, name)
		mutate(s)
		return k8s.Update(context.Background(), s)
	})
}

// poke triggers a pass without a spec change (annotation changes pass the
// controller's predicates), for tests that moved the fake clock.
// It returns the resourceVersion the poke wrote.
func poke(t *testing.T, ns, name string) string {
	t.Helper()
	var rv string
	eventually(t, "a poke of the Site", func() error {
		s := getSite(t, ns, name)
		if s.Annotations == nil {
			s.Annotations = map[string]string{}
		}
		s.Annotations["test.siteplane.dev/poke"] = time.Now().Format(time.RFC3339Nano)
		if err := k8s.Update(context.Background(), s); err != nil {
			return err
		}
		rv = s.ResourceVersion
		return nil
	})
	return rv
}

// settle returns once a pass that began after the call has finished. It
// pokes the Site twice and waits each time for a new pass to start: the
// workqueue never runs two passes of one Site at once, so the second start
// means the first pass has ended. A test asserting what a pass left alone
// settles instead of sleeping, which would also pass with no pass at all.
func settle(t *testing.T, ns, name string) {
	t.Helper()
	k := types.NamespacedName{Namespace: ns, Name: name}
	for range 2 {
		before := passes.get(k)
		poke(t, ns, name)
		eventually(t, "a pass after the poke", func() error {
			if passes.get(k) == before {
				return fmt.Errorf("no pass yet")
			}
			return nil
		})
	}
}

// passesQuiet waits until the Site's passes have stopped and returns their
// count. Quiet means no pass for longer than the shortest waiting timer
// (requeueUnreachable): a pass from before the steady state that asked to
// be re-checked in 5 s leaves that timer in the work queue, and it fires
// however many passes came since; a one-second window let it land inside
// the caller's steady-state window on a loaded machine. A pass that keeps
// coming is a hot loop, and fails here after 30 s.
func passesQuiet(t *testing.T, k types.NamespacedName) int {
	t.Helper()
	const quiet = requeueUnreachable + time.Second
	deadline := time.Now().Add(30 * time.Second)
	n, since := passes.get(k), time.Now()
	for {
		time.Sleep(250 * time.Millisecond)
		m := passes.get(k)
		if m == n {
			if time.Since(since) > quiet {
				return n
			}
			continue
		}
		if time.Now().After(deadline) {
			t.Fatalf("hot loop: passes kept coming for 30 s (%d in the last quarter second)", m-n)
		}
		n, since = m, time.Now()
	}
}
