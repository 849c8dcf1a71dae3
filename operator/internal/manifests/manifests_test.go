package manifests

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

var root = filepath.Join("..", "..", "..")

func read(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestChartRulesMatchGeneratedRole keeps the chart's ClusterRole equal to the
// one controller-gen generates from the +kubebuilder:rbac markers.
func TestChartRulesMatchGeneratedRole(t *testing.T) {
	var generated rbacv1.ClusterRole
	if err := yaml.UnmarshalStrict(read(t, "config/rbac/role.yaml"), &generated); err != nil {
		t.Fatal(err)
	}
	tmpl := string(read(t, "charts/siteplane-operator/templates/clusterrole.yaml"))
	i := strings.Index(tmpl, "\nrules:\n")
	if i < 0 {
		t.Fatal("chart ClusterRole has no rules block")
	}
	var chart struct {
		Rules []rbacv1.PolicyRule `json:"rules"`
	}
	if err := yaml.UnmarshalStrict([]byte(tmpl[i+1:]), &chart); err != nil {
		t.Fatalf("chart rules must be plain YAML (no templating): %v", err)
	}
	if !reflect.DeepEqual(chart.Rules, generated.Rules) {
		t.Errorf("charts/siteplane-operator/templates/clusterrole.yaml rules differ from config/rbac/role.yaml;\n"+
			"copy them: sed -n '/^rules:/,$p' config/rbac/role.yaml\nchart: %+v\nwant:  %+v", chart.Rules, generated.Rules)
	}
}

// TestChartCRDMatchesGenerated checks `make manifests` copied the CRD.
func TestChartCRDMatchesGenerated(t *testing.T) {
	if string(read(t, "charts/siteplane-operator/crds/siteplane.dev_sites.yaml")) != string(read(t, "config/crd/bases/siteplane.dev_sites.yaml")) {
		t.Error("the chart's CRD differs from config/crd/bases: run make manifests")
	}
}

// TestSampleSiteDecodesStrictly catches a sample field the API does not
// have (the envtest suite also creates the sample on a real API server).
func TestSampleSiteDecodesStrictly(t *testing.T) {
	var site sitev1.Site
	if err := yaml.UnmarshalStrict(read(t, "config/samples/siteplane_v1alpha1_site.yaml"), &site); err != nil {
		t.Fatal(err)
	}
	if site.Kind != "Site" || site.APIVersion != sitev1.GroupVersion.String() || site.Spec.URL == "" ||
		len(site.Spec.Marketplace.APIKeys) == 0 || site.Spec.Exposure.Ingress == nil {
		t.Errorf("sample is not complete: %+v", site)
	}
}

// TestChartValuesSchemaIsClosed keeps values.schema.json in step with
// values.yaml: a misspelt top-level value (leaderElect for leaderElection)
// must fail `helm install` instead of being ignored, so the schema is closed
// at the top and in each of the chart's own blocks, and every default in
// values.yaml is declared.
func TestChartValuesSchemaIsClosed(t *testing.T) {
	type schema struct {
		Type                 string            `json:"type"`
		AdditionalProperties any               `json:"additionalProperties"`
		Properties           map[string]schema `json:"properties"`
	}
	var root schema
	if err := yaml.Unmarshal(read(t, "charts/siteplane-operator/values.schema.json"), &root); err != nil {
		t.Fatal(err)
	}
	var values map[string]any
	if err := yaml.Unmarshal(read(t, "charts/siteplane-operator/values.yaml"), &values); err != nil {
		t.Fatal(err)
	}
	if root.AdditionalProperties != false {
		t.Error("values.schema.json must set additionalProperties: false at the top")
	}
	var walk func(path string, s schema, v map[string]any)
	walk = func(path string, s schema, v map[string]any) {
		for k, val := range v {
			sub, ok := s.Properties[k]
			if !ok {
				t.Errorf("values.yaml %s%s is not declared in values.schema.json", path, k)
				continue
			}
			if m, isMap := val.(map[string]any); isMap && len(sub.Properties) > 0 {
				if sub.AdditionalProperties != false {
					t.Errorf("values.schema.json %s%s declares properties but is not closed", path, k)
				}
				walk(path+k+".", sub, m)
			}
		}
	}
	walk("", root, values)
}
