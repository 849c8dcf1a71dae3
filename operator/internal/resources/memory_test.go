package resources

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"siteplane.dev/services/pkg/contract"
)

// TestMemoryAndProxyEnv: every service learns its container's memory limit
// through the downward API, media's decode budget follows its limit, and
// the gateway gets the trusted proxies (the Site's before the default).
func TestMemoryAndProxyEnv(t *testing.T) {
	find := func(env []corev1.EnvVar, name string) *corev1.EnvVar {
		for i := range env {
			if env[i].Name == name {
				return &env[i]
			}
		}
		return nil
	}
	tests := []struct {
		name       string
		component  string
		limit      string // "" keeps the default resources, "none" removes the limit
		siteProxy  []string
		defProxy   []string
		wantBudget string // "" when absent
		wantProxy  string // "" when absent
		wantLimit  bool
	}{
		{"gateway default limit", contract.ServiceGateway, "", nil, nil, "", "", true},
		{"gateway default proxies", contract.ServiceGateway, "", nil, []string{"10.88.0.0/16"}, "", "10.88.0.0/16", true},
		{"gateway site proxies win", contract.ServiceGateway, "", []string{"10.0.0.0/8", "192.0.2.7"}, []string{"10.88.0.0/16"}, "", "10.0.0.0/8,192.0.2.7", true},
		{"content has no proxies", contract.ServiceContent, "", nil, []string{"10.88.0.0/16"}, "", "", true},
		{"media default 512Mi: 256 MiB budget", contract.ServiceMedia, "", nil, nil, "268435456", "", true},
		{"media 1Gi: 512 MiB budget", contract.ServiceMedia, "1Gi", nil, nil, "536870912", "", true},
		{"media without a limit", contract.ServiceMedia, "none", nil, nil, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := testSite()
			site.Spec.Exposure.TrustedProxies = tt.siteProxy
			switch tt.limit {
			case "":
			case "none":
				site.Spec.Components.Media.Resources = &corev1.ResourceRequirements{}
			default:
				site.Spec.Components.Media.Resources = &corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(tt.limit)}}
			}
			env := Env(site, tt.component, PodDefaults{TrustedProxies: tt.defProxy})
			lim := find(env, contract.EnvMemoryLimit)
			if (lim != nil) != tt.wantLimit {
				t.Fatalf("%s present %t, want %t", contract.EnvMemoryLimit, lim != nil, tt.wantLimit)
			}
			if lim != nil && (lim.ValueFrom == nil || lim.ValueFrom.ResourceFieldRef == nil ||
				lim.ValueFrom.ResourceFieldRef.Resource != "limits.memory" || lim.ValueFrom.ResourceFieldRef.ContainerName != tt.component) {
				t.Errorf("%s = %+v, want the container's limits.memory", contract.EnvMemoryLimit, lim.ValueFrom)
			}
			for name, want := range map[string]string{contract.EnvMediaDecodeBytes: tt.wantBudget, contract.EnvGatewayTrustedProxies: tt.wantProxy} {
				got := ""
				if e := find(env, name); e != nil {
					got = e.Value
				}
				if got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
		})
	}
}

// TestChangedSources: a rollout's event names the sources that changed.
func TestChangedSources(t *testing.T) {
	tests := []struct {
		name, old, cur, want string
	}{
		{"unknown before (an older operator)", "", "a=1,b=2", ""},
		{"nothing changed", "a=1,b=2", "a=1,b=2", ""},
		{"one Secret changed", "blog-admin=1,blog-config/site.json=2", "blog-admin=9,blog-config/site.json=2", "blog-admin"},
		{"added and removed", "a=1,b=2", "a=1,c=3", "b,c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(ChangedSources(tt.old, tt.cur), ","); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	site := testSite()
	m := Mounted{Config: map[string]string{contract.SiteFileName: "x", contract.RoutesFileName: "y"},
		Secrets: map[string]map[string][]byte{AdminSecretName("blog"): {contract.AdminLoginPasswordKey: []byte("a")}}}
	before := SourceHashes(site, contract.ServiceGateway, m)
	m.Secrets[AdminSecretName("blog")] = map[string][]byte{contract.AdminLoginPasswordKey: []byte("b")}
	if got := strings.Join(ChangedSources(before, SourceHashes(site, contract.ServiceGateway, m)), ","); got != AdminSecretName("blog") {
		t.Errorf("a new sign-in password changed %q, want only the admin Secret", got)
	}
}

// TestValidTrustedProxies: what the CRD's pattern lets through but the
// gateway's parser would refuse (and crash-loop on) stops at the config step.
func TestValidTrustedProxies(t *testing.T) {
	tests := []struct {
		name    string
		list    []string
		wantErr bool
	}{
		{"none", nil, false},
		{"ranges and addresses", []string{"10.88.0.0/16", "192.0.2.7", "fd00::/8", "::1"}, false},
		{"octet out of range", []string{"999.0.0.1"}, true},
		{"prefix too long", []string{"10.0.0.0/40"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := testSite()
			site.Spec.Exposure.TrustedProxies = tt.list
			if _, err := ConfigData(site); (err != nil) != tt.wantErr {
				t.Errorf("ConfigData: %v, want error %t", err, tt.wantErr)
			}
		})
	}
}
