package manifests

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// helmTemplate renders the chart with args and returns its documents by
// kind/name.
func helmTemplate(t *testing.T, args ...string) map[string][]byte {
	t.Helper()
	cmd := append([]string{"template", "rel", filepath.Join(root, "charts", "siteplane-operator"), "-n", "ops"}, args...)
	out, err := exec.Command(helmBinary(t), cmd...).CombinedOutput()
	if err != nil {
		t.Fatalf("helm %v: %v\n%s", cmd, err, out)
	}
	docs := map[string][]byte{}
	for _, doc := range strings.Split(string(out), "\n---\n") {
		var meta struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := yaml.Unmarshal([]byte(doc), &meta); err != nil {
			t.Fatalf("rendered document: %v\n%s", err, doc)
		}
		if meta.Kind != "" {
			docs[meta.Kind+"/"+meta.Metadata.Name] = []byte(doc)
		}
	}
	return docs
}

func TestChartLintsStrictly(t *testing.T) {
	out, err := exec.Command(helmBinary(t), "lint", "--strict", filepath.Join(root, "charts", "siteplane-operator"),
		"--set", "tests.site=blog", "--set", "prometheusRule.enabled=true").CombinedOutput()
	if err != nil {
		t.Fatalf("helm lint --strict: %v\n%s", err, out)
	}
}

// TestChartCRDIsTemplated: the chart carries the generated CRD as a
// template (so helm upgrade upgrades it), kept on uninstall by default,
// and leaves it out when the CRD is managed elsewhere.
func TestChartCRDIsTemplated(t *testing.T) {
	var generated apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(read(t, "config/crd/bases/siteplane.dev_sites.yaml"), &generated); err != nil {
		t.Fatal(err)
	}
	key := "CustomResourceDefinition/" + generated.Name
	var chart apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(helmTemplate(t)[key], &chart); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	if !reflect.DeepEqual(chart.Spec, generated.Spec) {
		t.Error("the chart's CRD differs from config/crd/bases: run make manifests (hack/chart-crds.sh)")
	}
	if chart.Annotations["helm.sh/resource-policy"] != "keep" || chart.Labels["app.kubernetes.io/managed-by"] != "Helm" {
		t.Errorf("CRD metadata %+v %+v", chart.Annotations, chart.Labels)
	}
	var unkept apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(helmTemplate(t, "--set", "crds.keep=false")[key], &unkept); err != nil {
		t.Fatal(err)
	}
	if _, ok := unkept.Annotations["helm.sh/resource-policy"]; ok || unkept.Name != generated.Name {
		t.Errorf("crds.keep=false: %+v", unkept.ObjectMeta)
	}
	if _, ok := helmTemplate(t, "--set", "crds.enabled=false")[key]; ok {
		t.Error("crds.enabled=false still renders the CRD")
	}
}

// TestChartKubeVersion: the chart refuses clusters older than its CRD's
// CEL rules and the APIs the operator writes.
func TestChartKubeVersion(t *testing.T) {
	helm := helmBinary(t)
	chart := filepath.Join(root, "charts", "siteplane-operator")
	if out, err := exec.Command(helm, "template", "rel", chart, "--kube-version", "1.29.9").CombinedOutput(); err == nil ||
		!strings.Contains(string(out), "incompatible with Kubernetes") {
		t.Errorf("rendered for Kubernetes 1.29: %v\n%s", err, out)
	}
	if out, err := exec.Command(helm, "template", "rel", chart, "--kube-version", "1.30.0").CombinedOutput(); err != nil {
		t.Errorf("refused Kubernetes 1.30: %v\n%s", err, out)
	}
}

// TestChartLeaderElectionRole: the chart's leader-election Role has the
// rules of config/rbac/leader_election_role.yaml, which the operator
// binary's envtest runs leader election under.
func TestChartLeaderElectionRole(t *testing.T) {
	var want, got rbacv1.Role
	if err := yaml.UnmarshalStrict(read(t, "config/rbac/leader_election_role.yaml"), &want); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(helmTemplate(t)["Role/rel-siteplane-operator-leader-election"], &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Rules, want.Rules) {
		t.Errorf("chart leader-election rules %+v\nwant %+v", got.Rules, want.Rules)
	}
}

// TestChartHelmTestPod: `helm test` runs the operator image's probe against
// the named Site's gateway, and no Pod is rendered without a Site.
func TestChartHelmTestPod(t *testing.T) {
	const key = "Pod/rel-siteplane-operator-test-gateway"
	if _, ok := helmTemplate(t)[key]; ok {
		t.Error("a test Pod without tests.site")
	}
	docs := helmTemplate(t, "--set", "tests.site=blog", "--set", "tests.namespace=web")
	var pod corev1.Pod
	if err := yaml.UnmarshalStrict(docs[key], &pod); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	var dep struct {
		Spec struct {
			Template struct {
				Spec corev1.PodSpec `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(docs["Deployment/rel-siteplane-operator"], &dep); err != nil {
		t.Fatal(err)
	}
	c := pod.Spec.Containers[0]
	want := []string{"probe", "--timeout=2m", "http://blog-gateway.web.svc:8080/readyz", "http://blog-gateway.web.svc:8080/cms-json/"}
	if pod.Annotations["helm.sh/hook"] != "test" || pod.Spec.RestartPolicy != corev1.RestartPolicyNever ||
		c.Image != dep.Spec.Template.Spec.Containers[0].Image || !reflect.DeepEqual(c.Args, want) {
		t.Errorf("test Pod %+v\nargs %q", pod.ObjectMeta, c.Args)
	}
}

// TestChartValuesSchemaIsComplete: every value the schema declares says
// what it is (a description) and what it may hold (a type or an enum), so
// `helm install --set` typos and wrong types fail at once.
func TestChartValuesSchemaIsComplete(t *testing.T) {
	var top map[string]any
	if err := json.Unmarshal(read(t, "charts/siteplane-operator/values.schema.json"), &top); err != nil {
		t.Fatal(err)
	}
	var walk func(path string, s map[string]any)
	walk = func(path string, s map[string]any) {
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			sub := p.(map[string]any)
			if d, _ := sub["description"].(string); d == "" {
				t.Errorf("%s%s has no description", path, name)
			}
			_, typed := sub["type"]
			_, enum := sub["enum"]
			if !typed && !enum {
				t.Errorf("%s%s has no type", path, name)
			}
			walk(path+name+".", sub)
		}
	}
	walk("", top)
}
