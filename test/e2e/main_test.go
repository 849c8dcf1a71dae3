//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

const (
	operatorNamespace = "siteplane-system"
	release           = "siteplane-operator"
	// localPropagationDelay is the internal key's propagation delay on the
	// local provider (the chart's internalKeyPropagationDelay).
	localPropagationDelay = "60s"
)

// env is what every test shares: clients of the cluster under test.
var env struct {
	cfg      *rest.Config
	kube     kubernetes.Interface
	c        client.Client // typed Sites
	helm     string
	provider string
	root     string
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if err := setup(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e setup:", err)
		return 1
	}
	code := m.Run()
	if code != 0 {
		dumpOperatorLogs()
	}
	return code
}

func setup() error {
	kubeconfig := os.Getenv("KUBECONFIG")
	if kubeconfig == "" {
		return fmt.Errorf("KUBECONFIG is not set (make test-e2e provides a cluster)")
	}
	if _, err := os.Stat(kubeconfig); err != nil {
		// kubectl and client-go fall back to localhost:8080 without one.
		return fmt.Errorf("KUBECONFIG: %w", err)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	cfg.Timeout = 30 * time.Second
	env.cfg = cfg
	if env.kube, err = kubernetes.NewForConfig(cfg); err != nil {
		return err
	}
	scheme := runtime.NewScheme()
	_ = clientgoscheme.AddToScheme(scheme)
	_ = sitev1.AddToScheme(scheme)
	if env.c, err = client.New(cfg, client.Options{Scheme: scheme}); err != nil {
		return err
	}
	env.helm = os.Getenv("SITEPLANE_HELM")
	if env.helm == "" {
		return fmt.Errorf("SITEPLANE_HELM is not set (hack/helm.sh prints one)")
	}
	env.provider = os.Getenv("E2E_PROVIDER")
	wd, _ := os.Getwd()
	env.root = filepath.Join(wd, "..", "..")
	t0 := time.Now()
	if err := installChart(); err != nil {
		return err
	}
	fmt.Printf("e2e: chart installed in %.1fs\n", time.Since(t0).Seconds())
	t0 = time.Now()
	if err := startPostgres(context.Background()); err != nil {
		return err
	}
	fmt.Printf("e2e: PostgreSQL ready in %.1fs\n", time.Since(t0).Seconds())
	return nil
}

// installChart installs (or upgrades) the operator chart with its default
// values: the images are the release tags `make images` wrote.
func installChart() error {
	args := []string{"upgrade", "--install", release, filepath.Join(env.root, "charts", "siteplane-operator"),
		"--kubeconfig", os.Getenv("KUBECONFIG"), "--namespace", operatorNamespace, "--create-namespace",
		"--wait", "--timeout", "180s"}
	if env.provider == "local" {
		// The local cluster's kubelet syncs pods every 10 s (hack/cluster/up.sh),
		// so a rotated Secret reaches the pods well within a minute: the
		// internal-key rotation step need not wait the 3-minute default.
		args = append(args, "--set", "internalKeyPropagationDelay="+localPropagationDelay)
	}
	cmd := exec.Command(env.helm, args...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("helm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

func dumpOperatorLogs() {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	pods, err := env.kube.CoreV1().Pods(operatorNamespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return
	}
	for _, p := range pods.Items {
		tail := int64(60)
		b, err := env.kube.CoreV1().Pods(p.Namespace).GetLogs(p.Name, &corev1.PodLogOptions{TailLines: &tail}).DoRaw(ctx)
		if err == nil {
			fmt.Fprintf(os.Stderr, "--- logs of %s/%s (last %d lines)\n%s\n", p.Namespace, p.Name, tail, b)
		}
	}
}

// namespace creates a fresh namespace for one test and deletes it after.
func namespace(t *testing.T, name string) string {
	t.Helper()
	ctx := context.Background()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := env.kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			dumpNamespace(name)
		}
		if os.Getenv("E2E_KEEP") == "1" { // look at it afterwards
			return
		}
		_ = env.kube.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{})
	})
	return name
}

// dumpNamespace prints pods, their states and events of a failed test.
func dumpNamespace(ns string) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	pods, err := env.kube.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err == nil {
		for _, p := range pods.Items {
			fmt.Fprintf(os.Stderr, "pod %s/%s phase=%s", ns, p.Name, p.Status.Phase)
			for _, cs := range p.Status.ContainerStatuses {
				fmt.Fprintf(os.Stderr, " [%s ready=%t restarts=%d", cs.Name, cs.Ready, cs.RestartCount)
				if w := cs.State.Waiting; w != nil {
					fmt.Fprintf(os.Stderr, " waiting=%s: %s", w.Reason, w.Message)
				}
				fmt.Fprint(os.Stderr, "]")
			}
			fmt.Fprintln(os.Stderr)
			if p.Status.Phase == corev1.PodFailed || len(p.Status.ContainerStatuses) > 0 && !p.Status.ContainerStatuses[0].Ready {
				tail := int64(15)
				if b, err := env.kube.CoreV1().Pods(ns).GetLogs(p.Name, &corev1.PodLogOptions{TailLines: &tail}).DoRaw(ctx); err == nil {
					fmt.Fprintf(os.Stderr, "  log: %s\n", strings.ReplaceAll(strings.TrimSpace(string(b)), "\n", "\n  log: "))
				}
			}
		}
	}
	evs, err := env.kube.CoreV1().Events(ns).List(ctx, metav1.ListOptions{})
	if err == nil {
		for _, e := range evs.Items {
			fmt.Fprintf(os.Stderr, "event %s %s/%s %s: %s\n", e.Type, e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Reason, e.Message)
		}
	}
}

// eventually polls cond every interval until it returns true or timeout
// passes; then the test fails with the last reason cond gave.
func eventually(t *testing.T, what string, timeout time.Duration, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for {
		ok, why := cond()
		if ok {
			return
		}
		last = why
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s (last: %s)", what, timeout, last)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
