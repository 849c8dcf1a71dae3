package resources

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

func testMounted() Mounted {
	return Mounted{
		Config: map[string]string{contract.SiteFileName: `{"title":"a"}`, contract.RoutesFileName: `{"version":1}`},
		Secrets: map[string]map[string][]byte{
			"blog-internal-key":         {contract.InternalKeySecretKey: []byte("k1")},
			"blog-admin":                {contract.AdminPasswordKey: []byte("p1")},
			"blog-db":                   {"uri": []byte("postgres://x"), "password": []byte("pw")},
			"blog-apikey-shop":          {contract.KeyDirAPIKeyFile: []byte("key1"), contract.KeyDirAccountFile: []byte("acme")},
			"blog-apikey-shop-previous": {contract.KeyDirAPIKeyFile: []byte("key0"), contract.KeyDirAccountFile: []byte("acme")},
		},
		APIKeys: []KeyMount{{Dir: "shop", SecretName: "blog-apikey-shop"}, {Dir: "shop-previous", SecretName: "blog-apikey-shop-previous"}},
	}
}

func envMap(c corev1.Container) map[string]string {
	m := map[string]string{}
	for _, e := range c.Env {
		m[e.Name] = e.Value
	}
	return m
}

func mountMap(c corev1.Container) map[string]string {
	m := map[string]string{}
	for _, v := range c.VolumeMounts {
		m[v.Name] = v.MountPath
	}
	return m
}

func TestDeploymentPerComponent(t *testing.T) {
	tests := []struct {
		component  string
		wantEnv    map[string]string
		wantMounts map[string]string
		noEnv      []string
		image      string
		replicas   int32
	}{
		{
			component: contract.ServiceGateway,
			wantEnv: map[string]string{
				contract.EnvRoutesFile:         "/etc/siteplane/config/routes.json",
				contract.EnvAdminDir:           contract.AdminMountPath,
				contract.EnvSiteFile:           "/etc/siteplane/config/site.json",
				contract.EnvDatabaseURLFile:    "/etc/siteplane/database/dsn",
				contract.EnvInternalKeyFile:    "/etc/siteplane/internal/internal-key",
				contract.EnvListenAddr:         ":8080",
				contract.EnvMetricsAddr:        ":9090",
				contract.EnvServiceName:        "gateway",
				contract.EnvInternalListenAddr: ":8081",
				contract.EnvGatewaySecretFile:  "/etc/siteplane/gateway/gateway-secret",
				contract.EnvShutdownDelay:      "5s",
			},
			wantMounts: map[string]string{volConfig: contract.ConfigMountPath, volAdmin: contract.AdminMountPath,
				volDatabase: contract.DatabaseMountPath, volInternalKey: contract.InternalKeyMountPath, volTmp: "/tmp",
				volGateway: contract.GatewaySecretMountPath},
			noEnv:    []string{contract.EnvMarketplaceKeysDir, contract.EnvMediaDir, contract.EnvGatewayURL},
			image:    "ghcr.io/siteplane/gateway:v1.0.0",
			replicas: 2,
		},
		{
			component: contract.ServiceContent,
			wantEnv: map[string]string{contract.EnvServiceName: "content", contract.EnvSiteFile: "/etc/siteplane/config/site.json",
				contract.EnvGatewayURL: "http://blog-gateway:8081"},
			wantMounts: map[string]string{volConfig: contract.ConfigMountPath, volDatabase: contract.DatabaseMountPath},
			noEnv:      []string{contract.EnvRoutesFile, contract.EnvAdminDir, contract.EnvMarketplaceKeysDir},
			image:      "ghcr.io/siteplane/content:v1.0.0",
			replicas:   1,
		},
		{
			component:  contract.ServiceMedia,
			wantEnv:    map[string]string{contract.EnvMediaDir: contract.MediaMountPath, contract.EnvContentURL: "http://blog-content:8080"},
			wantMounts: map[string]string{volMedia: contract.MediaMountPath},
			image:      "ghcr.io/siteplane/media:v1.0.0",
			replicas:   1,
		},
		{
			component:  contract.ServiceMarketplace,
			wantEnv:    map[string]string{contract.EnvMarketplaceKeysDir: contract.MarketplaceKeysMountPath},
			wantMounts: map[string]string{volKeys: contract.MarketplaceKeysMountPath},
			// the marketplace takes no identities: no internal key
			noEnv:    []string{contract.EnvInternalKeyFile, contract.EnvGatewaySecretFile},
			image:    "registry.example.com/mp:1.2.3",
			replicas: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.component, func(t *testing.T) {
			site := testSite()
			d := typed[appsv1.Deployment](t, Deployment(site, tt.component, PodDefaults{Tag: "v1.0.0"}, testMounted()))
			if d.Name != "blog-"+tt.component || d.Namespace != "web" {
				t.Errorf("name %s/%s", d.Namespace, d.Name)
			}
			if *d.Spec.Replicas != tt.replicas {
				t.Errorf("replicas %d, want %d", *d.Spec.Replicas, tt.replicas)
			}
			pod := d.Spec.Template.Spec
			if len(pod.Containers) != 1 {
				t.Fatalf("%d containers", len(pod.Containers))
			}
			c := pod.Containers[0]
			if c.Image != tt.image {
				t.Errorf("image %q, want %q", c.Image, tt.image)
			}
			if len(c.Args) != 0 || len(c.Command) != 0 {
				t.Errorf("the image's entrypoint is the service binary; got command %v args %v", c.Command, c.Args)
			}
			env := envMap(c)
			for k, v := range tt.wantEnv {
				if env[k] != v {
					t.Errorf("env %s = %q, want %q", k, env[k], v)
				}
			}
			for _, k := range tt.noEnv {
				if _, ok := env[k]; ok {
					t.Errorf("env %s should not be set", k)
				}
			}
			mounts := mountMap(c)
			for k, v := range tt.wantMounts {
				if mounts[k] != v {
					t.Errorf("mount %s at %q, want %q", k, mounts[k], v)
				}
			}
			// /tmp: the media service spools upload bodies there
			wantTmp := map[string]string{contract.ServiceMedia: "1Gi"}[tt.component]
			if wantTmp == "" {
				wantTmp = "64Mi"
			}
			for _, v := range pod.Volumes {
				if v.Name == volTmp && (v.EmptyDir == nil || v.EmptyDir.SizeLimit == nil || v.EmptyDir.SizeLimit.String() != wantTmp) {
					t.Errorf("/tmp volume %+v, want an emptyDir of %s", v.VolumeSource, wantTmp)
				}
			}
			for _, m := range c.VolumeMounts {
				if want := m.Name != volMedia && m.Name != volTmp; m.ReadOnly != want {
					t.Errorf("mount %s readOnly=%v", m.Name, m.ReadOnly)
				}
			}
			// Selector must match the template, or the API server rejects it.
			for k, v := range d.Spec.Selector.MatchLabels {
				if d.Spec.Template.Labels[k] != v {
					t.Errorf("selector %s=%s not in template labels", k, v)
				}
			}
			if d.Spec.Template.Annotations[AnnotationConfigHash] == "" || d.Spec.Template.Annotations[AnnotationSecretHash] == "" {
				t.Error("hash annotations missing")
			}
		})
	}
}

func TestDeploymentSecurityAndProbes(t *testing.T) {
	d := typed[appsv1.Deployment](t, Deployment(testSite(), contract.ServiceContent, PodDefaults{}, testMounted()))
	pod := d.Spec.Template.Spec
	c := pod.Containers[0]
	sc := c.SecurityContext
	if sc == nil || !*sc.RunAsNonRoot || !*sc.ReadOnlyRootFilesystem || *sc.AllowPrivilegeEscalation ||
		len(sc.Capabilities.Drop) != 1 || sc.Capabilities.Drop[0] != "ALL" ||
		sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("container security context is not restricted: %+v", sc)
	}
	if psc := pod.SecurityContext; psc == nil || !*psc.RunAsNonRoot || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault ||
		*psc.FSGroup != PodUID || psc.FSGroupChangePolicy == nil || *psc.FSGroupChangePolicy != corev1.FSGroupChangeOnRootMismatch {
		t.Errorf("pod security context %+v", psc)
	}
	if *pod.AutomountServiceAccountToken {
		t.Error("services need no API token")
	}
	if c.LivenessProbe.HTTPGet.Path != contract.HealthzPath || c.ReadinessProbe.HTTPGet.Path != contract.ReadyzPath ||
		c.StartupProbe.HTTPGet.Path != contract.HealthzPath {
		t.Errorf("probes: live %s ready %s", c.LivenessProbe.HTTPGet.Path, c.ReadinessProbe.HTTPGet.Path)
	}
	if c.LivenessProbe.HTTPGet.Port.StrVal != PortHTTP {
		t.Errorf("probe port %v", c.LivenessProbe.HTTPGet.Port)
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
		t.Errorf("default resources missing: %+v", c.Resources)
	}
	if d.Spec.Strategy.Type != "" {
		t.Errorf("content strategy %q, want the default", d.Spec.Strategy.Type)
	}
}

func TestDeploymentSpecOverrides(t *testing.T) {
	site := testSite()
	site.Spec.Components.Content.Env = []corev1.EnvVar{
		{Name: contract.EnvLogLevel, Value: "debug"},
		{Name: contract.EnvListenAddr, Value: ":9999"}, // replaces the operator's value
	}
	site.Spec.Components.Content.Resources = &corev1.ResourceRequirements{
		Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")},
	}
	site.Spec.Components.Content.ImagePullPolicy = corev1.PullAlways
	d := typed[appsv1.Deployment](t, Deployment(site, contract.ServiceContent, PodDefaults{}, testMounted()))
	c := d.Spec.Template.Spec.Containers[0]
	env := envMap(c)
	if env[contract.EnvLogLevel] != "debug" || env[contract.EnvListenAddr] != ":9999" {
		t.Errorf("env %v", env)
	}
	count := 0
	for _, e := range c.Env {
		if e.Name == contract.EnvListenAddr {
			count++
		}
	}
	if count != 1 {
		t.Errorf("%s appears %d times; server-side apply rejects duplicate keys", contract.EnvListenAddr, count)
	}
	if got := c.Resources.Limits.Memory().String(); got != "1Gi" || !c.Resources.Requests.Cpu().IsZero() {
		t.Errorf("resources %+v, want exactly the spec's", c.Resources)
	}
	if c.ImagePullPolicy != corev1.PullAlways {
		t.Errorf("pull policy %s", c.ImagePullPolicy)
	}
}

func TestMediaStrategyAndVolume(t *testing.T) {
	for _, mode := range []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce, corev1.ReadWriteMany} {
		site := testSite()
		site.Spec.Media.Storage.AccessMode = mode
		d := typed[appsv1.Deployment](t, Deployment(site, contract.ServiceMedia, PodDefaults{}, testMounted()))
		wantRecreate := mode == corev1.ReadWriteOnce
		if got := d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType; got != wantRecreate {
			t.Errorf("%s: strategy %q", mode, d.Spec.Strategy.Type)
		}
		var claim string
		for _, v := range d.Spec.Template.Spec.Volumes {
			if v.PersistentVolumeClaim != nil {
				claim = v.PersistentVolumeClaim.ClaimName
			}
		}
		if claim != "blog-media" {
			t.Errorf("media claim %q", claim)
		}
	}
}

func TestService(t *testing.T) {
	s := typed[corev1.Service](t, Service(testSite(), contract.ServiceContent))
	if s.Name != "blog-content" || s.Spec.Selector[LabelComponent] != "content" || s.Spec.Selector[LabelInstance] != "blog" {
		t.Errorf("service %s selector %v", s.Name, s.Spec.Selector)
	}
	ports := map[string]int32{}
	for _, p := range s.Spec.Ports {
		ports[p.Name] = p.Port
	}
	if ports[PortHTTP] != contract.DefaultAPIPort || ports[PortMetrics] != contract.DefaultMetricsPort {
		t.Errorf("ports %v", ports)
	}
}

func TestMediaPVC(t *testing.T) {
	tests := []struct {
		policy    string
		wantOwner bool
	}{{"Delete", true}, {"Retain", false}}
	for _, tt := range tests {
		site := testSite()
		site.Spec.Media.Storage.DeletionPolicy = tt.policy
		class := "fast"
		site.Spec.Media.Storage.StorageClassName = &class
		pvc := typed[corev1.PersistentVolumeClaim](t, MediaPVC(site))
		if got := len(pvc.OwnerReferences) == 1; got != tt.wantOwner {
			t.Errorf("%s: owner references %v", tt.policy, pvc.OwnerReferences)
		}
		if pvc.Spec.Resources.Requests.Storage().String() != "10Gi" || *pvc.Spec.StorageClassName != "fast" ||
			pvc.Spec.AccessModes[0] != corev1.ReadWriteOnce {
			t.Errorf("pvc spec %+v", pvc.Spec)
		}
	}
}

func TestPodDefaults(t *testing.T) {
	site := &sitev1.Site{}
	if got := (PodDefaults{}).Image(site, "media"); got != "ghcr.io/siteplane/media:latest" {
		t.Errorf("got %q", got)
	}
	if got := (PodDefaults{Registry: "r.example/sp", Tag: "v2"}).Image(site, "media"); got != "r.example/sp/media:v2" {
		t.Errorf("got %q", got)
	}
}

// TestDeploymentReplicasLeftToAutoscaler: an autoscaled component's apply
// has no replicas, so server-side apply gives the field up to the
// HorizontalPodAutoscaler instead of resetting it on every pass.
func TestDeploymentReplicasLeftToAutoscaler(t *testing.T) {
	tests := []struct {
		name        string
		autoscaling *sitev1.AutoscalingSpec
		want        *int32
	}{
		{"fixed", nil, ptrInt32(3)},
		{"autoscaled", &sitev1.AutoscalingSpec{MaxReplicas: 5}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := testSite()
			site.Spec.Components.Content.Replicas = ptrInt32(3)
			site.Spec.Components.Content.Autoscaling = tt.autoscaling
			ac := Deployment(site, contract.ServiceContent, PodDefaults{}, testMounted())
			got := ac.Spec.Replicas
			if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
				t.Errorf("replicas %v, want %v", got, tt.want)
			}
		})
	}
}

func ptrInt32(v int32) *int32 { return &v }

// TestSpecEnvReplacesFileVariant: the services refuse to start with both
// X and X_FILE set, so a spec value for X drops the operator's X_FILE.
func TestSpecEnvReplacesFileVariant(t *testing.T) {
	tests := []struct {
		name, set, dropped, kept string
	}{
		{"database URL", contract.EnvDatabaseURL, contract.EnvDatabaseURLFile, contract.EnvInternalKeyFile},
		{"internal key", contract.EnvInternalKey, contract.EnvInternalKeyFile, contract.EnvDatabaseURLFile},
		{"unrelated variable", contract.EnvLogLevel, "", contract.EnvDatabaseURLFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := testSite()
			site.Spec.Components.Content.Env = []corev1.EnvVar{{Name: tt.set, Value: "v"}}
			d := typed[appsv1.Deployment](t, Deployment(site, contract.ServiceContent, PodDefaults{}, testMounted()))
			env := envMap(d.Spec.Template.Spec.Containers[0])
			if env[tt.set] != "v" {
				t.Errorf("%s = %q", tt.set, env[tt.set])
			}
			if _, ok := env[tt.dropped]; ok && tt.dropped != "" {
				t.Errorf("%s still set next to %s", tt.dropped, tt.set)
			}
			if _, ok := env[tt.kept]; !ok {
				t.Errorf("%s was dropped", tt.kept)
			}
		})
	}
}
