package manifests

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// TestManifestsApplyToAPIServer server-side applies (dry run, strict field
// validation) every object `helm template` and `kubectl kustomize
// config/default` render to a real API server, so a field the API does not
// know, a wrong kind or a bad value breaks this test instead of
// `helm install` or `kubectl apply -k`. The Prometheus Operator kinds are
// checked against a minimal CRD (testdata of the controller suite) where
// one is present.
func TestManifestsApplyToAPIServer(t *testing.T) {
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("KUBEBUILDER_ASSETS is not set: export KUBEBUILDER_ASSETS=$(hack/envtest.sh)")
		}
		dirs, _ := filepath.Glob(filepath.Join(root, "bin", "k8s", "*"))
		if len(dirs) == 0 {
			t.Skip("envtest binaries not found: set KUBEBUILDER_ASSETS=$(hack/envtest.sh)")
		}
		assets = dirs[0]
	}
	helm := helmBinary(t)

	renders := map[string][]string{
		"helm template (defaults)": {helm, "template", "rel", filepath.Join(root, "charts", "siteplane-operator"), "-n", "ops"},
		"helm template (one namespace, ServiceMonitor)": {helm, "template", "rel", filepath.Join(root, "charts", "siteplane-operator"),
			"-n", "ops", "--set", "watchNamespace=ops", "--set", "metrics.serviceMonitor.enabled=true", "--set", "tests.site=blog"},
	}
	if kubectl, err := exec.LookPath("kubectl"); err == nil {
		renders["kubectl kustomize config/default"] = []string{kubectl, "kustomize", filepath.Join(root, "config", "default")}
	} else {
		t.Log("kubectl not found: config/default is not checked")
	}

	env := &envtest.Environment{
		CRDDirectoryPaths: []string{filepath.Join(root, "config", "crd", "bases"),
			filepath.Join(root, "operator", "internal", "controller", "testdata", "crds")},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// Dry-run objects need their namespace to exist.
	for _, ns := range []string{"ops", "siteplane-system"} {
		if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			t.Fatal(err)
		}
	}

	for name, cmd := range renders {
		t.Run(name, func(t *testing.T) {
			out, err := exec.Command(cmd[0], cmd[1:]...).Output()
			if err != nil {
				t.Fatalf("%v: %v", cmd, err)
			}
			objs := decodeAll(t, out)
			if len(objs) < 5 {
				t.Fatalf("only %d objects rendered", len(objs))
			}
			for _, u := range objs {
				// Server-side apply refuses a field the schema does not declare.
				err := c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.DryRunAll,
					client.FieldOwner("manifests-test"), client.ForceOwnership)
				if err != nil {
					t.Errorf("%s %s/%s: %v", u.GetKind(), u.GetNamespace(), u.GetName(), err)
				}
			}
		})
	}
}

// decodeAll splits a multi-document YAML stream into objects.
func decodeAll(t *testing.T, data []byte) []*unstructured.Unstructured {
	t.Helper()
	var objs []*unstructured.Unstructured
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		u := &unstructured.Unstructured{}
		err := dec.Decode(&u.Object)
		if errors.Is(err, io.EOF) {
			return objs
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(u.Object) == 0 {
			continue
		}
		objs = append(objs, u)
	}
}
