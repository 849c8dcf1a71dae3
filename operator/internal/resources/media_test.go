package resources

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// s3Site is testSite storing its media in S3, as the API server returns it
// (storage unset: the two are mutually exclusive).
func s3Site() *sitev1.Site {
	site := testSite()
	site.Spec.Media = sitev1.MediaSpec{S3: &sitev1.MediaS3Spec{
		Endpoint:  "https://s3.eu-west-1.amazonaws.com",
		Bucket:    "blog-media",
		Region:    "eu-west-1",
		Prefix:    "blog/",
		PathStyle: true,
		CredentialsSecretRef: sitev1.S3CredentialsSecretRef{Name: "blog-s3",
			AccessKeyIDKey: "AWS_ACCESS_KEY_ID", SecretAccessKeyKey: "AWS_SECRET_ACCESS_KEY"},
	}}
	return site
}

func s3Mounted() Mounted {
	m := testMounted()
	m.Secrets["blog-s3"] = map[string][]byte{"AWS_ACCESS_KEY_ID": []byte("AKID"), "AWS_SECRET_ACCESS_KEY": []byte("sk1"),
		"BUCKET_NAME": []byte("blog-media")}
	return m
}

func TestMediaEnv(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*sitev1.Site)
		want   map[string]string
		absent []string
	}{
		{
			name:   "claim",
			mutate: func(s *sitev1.Site) { s.Spec.Media = sitev1.MediaSpec{} },
			want:   map[string]string{contract.EnvMediaDir: contract.MediaMountPath},
			absent: []string{contract.EnvMediaStorage, contract.EnvMediaS3Bucket, contract.EnvMediaS3AccessKeyIDFile},
		},
		{
			name:   "s3, every field",
			mutate: func(*sitev1.Site) {},
			want: map[string]string{
				contract.EnvMediaStorage:               contract.MediaStorageS3,
				contract.EnvMediaS3Endpoint:            "https://s3.eu-west-1.amazonaws.com",
				contract.EnvMediaS3Bucket:              "blog-media",
				contract.EnvMediaS3Region:              "eu-west-1",
				contract.EnvMediaS3Prefix:              "blog/",
				contract.EnvMediaS3PathStyle:           "true",
				contract.EnvMediaS3AccessKeyIDFile:     "/etc/siteplane/media-s3/access-key-id",
				contract.EnvMediaS3SecretAccessKeyFile: "/etc/siteplane/media-s3/secret-access-key",
			},
			// The credentials are files, never values in the pod spec.
			absent: []string{contract.EnvMediaDir, contract.EnvMediaS3AccessKeyID, contract.EnvMediaS3SecretAccessKey},
		},
		{
			name: "s3, defaults",
			mutate: func(s *sitev1.Site) {
				s.Spec.Media.S3.Region, s.Spec.Media.S3.Prefix, s.Spec.Media.S3.PathStyle = "", "", false
			},
			want: map[string]string{contract.EnvMediaS3Region: contract.DefaultMediaS3Region,
				contract.EnvMediaS3PathStyle: "false"},
			absent: []string{contract.EnvMediaS3Prefix, contract.EnvMediaDir},
		},
		{
			name: "spec env replaces a credential file",
			mutate: func(s *sitev1.Site) {
				s.Spec.Components.Media.Env = []corev1.EnvVar{{Name: contract.EnvMediaS3SecretAccessKey, Value: "inline"}}
			},
			want:   map[string]string{contract.EnvMediaS3SecretAccessKey: "inline"},
			absent: []string{contract.EnvMediaS3SecretAccessKeyFile},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := s3Site()
			tt.mutate(site)
			env := map[string]string{}
			for _, e := range Env(site, contract.ServiceMedia, PodDefaults{}) {
				if _, dup := env[e.Name]; dup {
					t.Errorf("%s set twice", e.Name)
				}
				env[e.Name] = e.Value
			}
			for k, v := range tt.want {
				if got, ok := env[k]; !ok || got != v {
					t.Errorf("%s = %q (set %v), want %q", k, got, ok, v)
				}
			}
			for _, k := range tt.absent {
				if _, ok := env[k]; ok {
					t.Errorf("%s is set", k)
				}
			}
		})
	}
}

func TestMediaS3Deployment(t *testing.T) {
	d := typed[appsv1.Deployment](t, Deployment(s3Site(), contract.ServiceMedia, PodDefaults{}, s3Mounted()))
	pod := d.Spec.Template.Spec
	var creds *corev1.SecretVolumeSource
	for _, v := range pod.Volumes {
		if v.PersistentVolumeClaim != nil {
			t.Errorf("volume %s mounts claim %s: S3 needs no claim", v.Name, v.PersistentVolumeClaim.ClaimName)
		}
		if v.Name == volMediaS3 {
			creds = v.Secret
		}
	}
	if creds == nil {
		t.Fatalf("no credentials volume: %+v", pod.Volumes)
	}
	// The user's keys are mounted under the contract's file names.
	items := map[string]string{}
	for _, it := range creds.Items {
		items[it.Key] = it.Path
	}
	if creds.SecretName != "blog-s3" || len(items) != 2 ||
		items["AWS_ACCESS_KEY_ID"] != contract.S3AccessKeyIDSecretKey ||
		items["AWS_SECRET_ACCESS_KEY"] != contract.S3SecretAccessKeySecretKey {
		t.Errorf("credentials volume %+v", creds)
	}
	if creds.Optional != nil && *creds.Optional {
		t.Error("the credentials volume must not be optional: the pod would start without credentials")
	}
	mounts := map[string]corev1.VolumeMount{}
	for _, m := range pod.Containers[0].VolumeMounts {
		mounts[m.Name] = m
	}
	if m, ok := mounts[volMediaS3]; !ok || m.MountPath != contract.MediaS3MountPath || !m.ReadOnly {
		t.Errorf("credentials mount %+v", m)
	}
	if _, ok := mounts[volMedia]; ok {
		t.Error("media claim mounted with S3")
	}
	// No volume pins a pod to a node: a rolling update is safe.
	if d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
		t.Errorf("strategy %q with S3", d.Spec.Strategy.Type)
	}
}

func TestS3CredentialKeysDefaults(t *testing.T) {
	id, secret := S3CredentialKeys(sitev1.S3CredentialsSecretRef{Name: "x"})
	if id != contract.S3AccessKeyIDSecretKey || secret != contract.S3SecretAccessKeySecretKey {
		t.Errorf("defaults %q %q", id, secret)
	}
	id, secret = S3CredentialKeys(sitev1.S3CredentialsSecretRef{Name: "x", AccessKeyIDKey: "a", SecretAccessKeyKey: "b"})
	if id != "a" || secret != "b" {
		t.Errorf("spec keys %q %q", id, secret)
	}
}

// TestMediaS3PodHashes: new credentials roll the media pods and nothing
// else; keys of the Secret the pods do not mount roll nothing.
func TestMediaS3PodHashes(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Mounted)
		rolls  bool
	}{
		{"access key id", func(m *Mounted) { m.Secrets["blog-s3"]["AWS_ACCESS_KEY_ID"] = []byte("AKID2") }, true},
		{"secret access key", func(m *Mounted) { m.Secrets["blog-s3"]["AWS_SECRET_ACCESS_KEY"] = []byte("sk2") }, true},
		{"unmounted key", func(m *Mounted) { m.Secrets["blog-s3"]["BUCKET_NAME"] = []byte("other") }, false},
	}
	site := s3Site()
	hashes := func(m Mounted) map[string]string {
		out := map[string]string{}
		for _, c := range contract.Services {
			cfg, sec := PodHashes(site, c, m)
			out[c] = cfg + sec
		}
		return out
	}
	before := hashes(s3Mounted())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := s3Mounted()
			tt.change(&m)
			after := hashes(m)
			for _, c := range contract.Services {
				want := tt.rolls && c == contract.ServiceMedia
				if got := after[c] != before[c]; got != want {
					t.Errorf("%s: hash changed=%v, want %v", c, got, want)
				}
			}
		})
	}
}

func TestS3EndpointPort(t *testing.T) {
	tests := []struct {
		endpoint string
		want     int32
	}{
		{"https://s3.eu-west-1.amazonaws.com", 443},
		{"http://minio.storage", 80},
		{"http://minio.storage:9000", 9000},
		{"https://[fd00::1]:8443/", 8443},
		{"https://host:0", 0},
		{"https://host:70000", 0},
		{"not a url", 0},
	}
	for _, tt := range tests {
		site := s3Site()
		site.Spec.Media.S3.Endpoint = tt.endpoint
		if got := S3EndpointPort(site); got != tt.want {
			t.Errorf("%q: port %d, want %d", tt.endpoint, got, tt.want)
		}
	}
	if got := S3EndpointPort(testSite()); got != 0 {
		t.Errorf("claim site: port %d", got)
	}
}

func TestMediaS3NetworkPolicyEgress(t *testing.T) {
	site := s3Site()
	site.Spec.Media.S3.Endpoint = "http://minio.storage:9000"
	ports := func(component string) map[int]bool {
		np := typed[networkingv1.NetworkPolicy](t, NetworkPolicy(site, component))
		out := map[int]bool{}
		for _, e := range np.Spec.Egress {
			for _, p := range e.Ports {
				if *p.Protocol == corev1.ProtocolTCP {
					out[p.Port.IntValue()] = true
				}
			}
		}
		return out
	}
	if !ports(contract.ServiceMedia)[9000] {
		t.Error("media cannot reach the S3 endpoint's port")
	}
	for _, c := range []string{contract.ServiceGateway, contract.ServiceContent, contract.ServiceMarketplace} {
		if ports(c)[9000] {
			t.Errorf("%s may reach the S3 port", c)
		}
	}
	site.Spec.Media = sitev1.MediaSpec{}
	if ports(contract.ServiceMedia)[9000] {
		t.Error("media with a claim may reach the S3 port")
	}
}

func TestMediaClaimOnlyWithoutS3(t *testing.T) {
	if !MediaUsesClaim(testSite()) {
		t.Error("a claim site does not use its claim")
	}
	if MediaUsesClaim(s3Site()) {
		t.Error("an S3 site uses a claim")
	}
	// A Site that never set storage (the CRD no longer defaults it) gets
	// the documented claim: 10Gi, ReadWriteOnce, owned by the Site.
	site := testSite()
	site.Spec.Media = sitev1.MediaSpec{}
	pvc := typed[corev1.PersistentVolumeClaim](t, MediaPVC(site))
	if pvc.Spec.Resources.Requests.Storage().String() != "10Gi" || pvc.Spec.AccessModes[0] != corev1.ReadWriteOnce ||
		pvc.Spec.StorageClassName != nil || len(pvc.OwnerReferences) != 1 {
		t.Errorf("default claim %+v owners %v", pvc.Spec, pvc.OwnerReferences)
	}
	d := typed[appsv1.Deployment](t, Deployment(site, contract.ServiceMedia, PodDefaults{}, testMounted()))
	if d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		t.Errorf("default claim strategy %q, want Recreate", d.Spec.Strategy.Type)
	}
}
