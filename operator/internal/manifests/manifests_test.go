package manifests

import (
	"os"
	"os/exec"
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
	var s3 sitev1.Site
	if err := yaml.UnmarshalStrict(read(t, "config/samples/siteplane_v1alpha1_site_s3.yaml"), &s3); err != nil {
		t.Fatal(err)
	}
	if s3.Kind != "Site" || s3.Spec.Media.S3 == nil || s3.Spec.Media.S3.CredentialsSecretRef.Name == "" {
		t.Errorf("S3 sample does not use S3: %+v", s3.Spec.Media)
	}
	var cnpg sitev1.Site
	if err := yaml.UnmarshalStrict(read(t, "config/samples/siteplane_v1alpha1_site_cnpg.yaml"), &cnpg); err != nil {
		t.Fatal(err)
	}
	if cnpg.Kind != "Site" || cnpg.Spec.Database.Managed == nil || cnpg.Spec.Database.Managed.Instances < 2 {
		t.Errorf("CloudNativePG sample does not ask for a managed Cluster with replicas: %+v", cnpg.Spec.Database)
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
	var top schema
	if err := yaml.Unmarshal(read(t, "charts/siteplane-operator/values.schema.json"), &top); err != nil {
		t.Fatal(err)
	}
	var values map[string]any
	if err := yaml.Unmarshal(read(t, "charts/siteplane-operator/values.yaml"), &values); err != nil {
		t.Fatal(err)
	}
	if top.AdditionalProperties != false {
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
	walk("", top, values)
}

// helmBinary is the pinned helm hack/helm.sh builds: $SITEPLANE_HELM (set
// by hack/test.sh), else bin/helm-*/helm. Without it the chart tests skip,
// except under CI=true, where a skipped chart test would hide a broken chart.
func helmBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("SITEPLANE_HELM"); p != "" {
		return p
	}
	if found, _ := filepath.Glob(filepath.Join(root, "bin", "helm-*", "helm")); len(found) > 0 {
		p, _ := filepath.Abs(found[len(found)-1])
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("helm not found: set SITEPLANE_HELM=$(hack/helm.sh) (hack/test.sh does)")
	}
	t.Skip("helm not found: set SITEPLANE_HELM=$(hack/helm.sh)")
	return ""
}

// TestChartOperatorRoleScope renders the chart: the operator's rules are a
// ClusterRole by default, and with watchNamespace a Role (and RoleBinding)
// in that namespace only, so Secrets of other namespaces stay unreadable.
// cmd's envtest runs the binary with exactly that Role.
func TestChartOperatorRoleScope(t *testing.T) {
	helm := helmBinary(t)
	tests := []struct {
		name                   string
		args                   []string
		roleKind, bindingKind  string
		namespace, roleRefKind string
	}{
		{"cluster-wide by default", nil, "ClusterRole", "ClusterRoleBinding", "", "ClusterRole"},
		{"one namespace", []string{"--set", "watchNamespace=blog"}, "Role", "RoleBinding", "blog", "Role"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"template", "rel", filepath.Join(root, "charts", "siteplane-operator"), "-n", "ops"}, tt.args...)
			out, err := exec.Command(helm, args...).CombinedOutput()
			if err != nil {
				t.Fatalf("helm template: %v\n%s", err, out)
			}
			found := 0
			for _, doc := range strings.Split(string(out), "\n---\n") {
				var obj struct {
					Kind     string `json:"kind"`
					Metadata struct {
						Name      string `json:"name"`
						Namespace string `json:"namespace"`
					} `json:"metadata"`
					RoleRef rbacv1.RoleRef `json:"roleRef"`
				}
				if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
					t.Fatal(err)
				}
				if obj.Metadata.Name != "rel-siteplane-operator" || !strings.Contains(obj.Kind, "Role") {
					continue
				}
				found++
				switch obj.Kind {
				case tt.roleKind:
				case tt.bindingKind:
					if obj.RoleRef.Kind != tt.roleRefKind {
						t.Errorf("%s refers to a %s", obj.Kind, obj.RoleRef.Kind)
					}
				default:
					t.Errorf("unexpected %s %s", obj.Kind, obj.Metadata.Name)
				}
				if obj.Metadata.Namespace != tt.namespace {
					t.Errorf("%s in namespace %q, want %q", obj.Kind, obj.Metadata.Namespace, tt.namespace)
				}
			}
			if found != 2 {
				t.Errorf("found %d operator role objects, want a role and its binding", found)
			}
		})
	}
}

// TestChartPrometheusRuleThreshold: Helm reads numbers from values as
// float64, so an unconverted 7776000 renders as 7.776e+06, which works in
// PromQL but reads as a mistake in every alert listing.
func TestChartPrometheusRuleThreshold(t *testing.T) {
	helm := helmBinary(t)
	out, err := exec.Command(helm, "template", "rel", filepath.Join(root, "charts", "siteplane-operator"),
		"--set", "prometheusRule.enabled=true", "--show-only", "templates/prometheusrule.yaml").CombinedOutput()
	if err != nil {
		t.Fatalf("helm template: %v\n%s", err, out)
	}
	if want := "expr: siteplane_apikey_age_seconds > 7776000\n"; !strings.Contains(string(out), want) {
		t.Errorf("rendered rule lacks %q:\n%s", want, out)
	}
}

// TestChartInternalKeyPropagationDelay: the value becomes the operator's
// flag when set, and is absent by default (the services' 3-minute default);
// the schema refuses what is not a duration.
func TestChartInternalKeyPropagationDelay(t *testing.T) {
	helm := helmBinary(t)
	render := func(args ...string) (string, error) {
		args = append([]string{"template", "rel", filepath.Join(root, "charts", "siteplane-operator"),
			"--show-only", "templates/deployment.yaml"}, args...)
		out, err := exec.Command(helm, args...).CombinedOutput()
		return string(out), err
	}
	const flag = "--internal-key-propagation-delay"
	out, err := render()
	if err != nil || strings.Contains(out, flag) {
		t.Errorf("default values: err %v, flag present %t", err, strings.Contains(out, flag))
	}
	out, err = render("--set", "internalKeyPropagationDelay=45s")
	if err != nil || !strings.Contains(out, "- "+flag+"=45s\n") {
		t.Errorf("internalKeyPropagationDelay=45s: err %v\n%s", err, out)
	}
	if out, err = render("--set", "internalKeyPropagationDelay=soon"); err == nil {
		t.Errorf("internalKeyPropagationDelay=soon rendered:\n%s", out)
	}
}

// TestChartTrustedProxies: the list becomes the operator's --trusted-proxies
// flag, absent by default (the operator then trusts the nodes' pod CIDRs);
// the schema refuses what is not an address or a CIDR.
func TestChartTrustedProxies(t *testing.T) {
	helm := helmBinary(t)
	tests := []struct {
		name, set, want string // want "" means the flag is absent
		wantErr         bool
	}{
		{"default", "", "", false},
		{"two ranges", "trustedProxies={10.0.0.0/8,192.0.2.7}", "- --trusted-proxies=10.0.0.0/8,192.0.2.7\n", false},
		{"not an address", "trustedProxies={ingress-nginx}", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"template", "rel", filepath.Join(root, "charts", "siteplane-operator"), "--show-only", "templates/deployment.yaml"}
			if tt.set != "" {
				args = append(args, "--set", tt.set)
			}
			out, err := exec.Command(helm, args...).CombinedOutput()
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v, want error %t\n%s", err, tt.wantErr, out)
			}
			if tt.wantErr {
				return
			}
			if has := strings.Contains(string(out), "--trusted-proxies"); has != (tt.want != "") || (tt.want != "" && !strings.Contains(string(out), tt.want)) {
				t.Errorf("rendered args lack %q (flag present %t):\n%s", tt.want, has, out)
			}
		})
	}
}
