package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// TestOperatorBinary runs the operator as main does, against a real API
// server: probes answer, and the metrics endpoint serves controller-runtime's
// series and the Site collector's.
func TestOperatorBinary(t *testing.T) {
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("KUBEBUILDER_ASSETS is not set: run `make test` or export KUBEBUILDER_ASSETS=$(hack/envtest.sh)")
		}
		dirs, _ := filepath.Glob(filepath.Join("..", "..", "bin", "k8s", "*"))
		if len(dirs) == 0 {
			t.Skip("envtest binaries not found: set KUBEBUILDER_ASSETS=$(hack/envtest.sh)")
		}
		assets = dirs[0]
	}
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = env.Stop() }()

	metricsAddr, probeAddr := freeAddr(t), freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, flag.NewFlagSet("test", flag.ContinueOnError), []string{
			"--metrics-bind-address=" + metricsAddr, "--metrics-secure=false",
			"--health-probe-bind-address=" + probeAddr, "--zap-log-level=error",
		}, func() (*rest.Config, error) { return cfg, nil })
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run returned %v", err)
		}
	}()

	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	ns := "default"
	if err := c.Create(context.Background(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "m-db", Namespace: ns},
		Data: map[string][]byte{"dsn": []byte("postgres://x")}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Create(context.Background(), &sitev1.Site{ObjectMeta: metav1.ObjectMeta{Name: "m", Namespace: ns},
		Spec: sitev1.SiteSpec{URL: "http://m.test", Database: sitev1.DatabaseSpec{SecretRef: sitev1.DatabaseSecretRef{Name: "m-db"}},
			Marketplace: sitev1.MarketplaceSpec{APIKeys: []sitev1.APIKeySpec{{Name: "k", Account: "a"}}}}}); err != nil {
		t.Fatal(err)
	}

	poll(t, "readyz", func() error { _, err := fetch("http://" + probeAddr + "/readyz"); return err })
	poll(t, "healthz", func() error { _, err := fetch("http://" + probeAddr + "/healthz"); return err })
	poll(t, "metrics", func() error {
		body, err := fetch("http://" + metricsAddr + "/metrics")
		if err != nil {
			return err
		}
		for _, want := range []string{
			`siteplane_site_ready{namespace="default",site="m"} 0`,
			`siteplane_site_component_ready{component="gateway",namespace="default",site="m"} 0`,
			`siteplane_apikey_age_seconds{key="k",namespace="default",site="m"}`,
			`controller_runtime_reconcile_total{controller="site"`,
		} {
			if !strings.Contains(body, want) {
				return fmt.Errorf("no %s", want)
			}
		}
		return nil
	})
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func fetch(url string) (string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", url, resp.Status)
	}
	return string(body), err
}

func poll(t *testing.T, what string, f func() error) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var err error
	for time.Now().Before(deadline) {
		if err = f(); err == nil {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s: %v", what, err)
}
