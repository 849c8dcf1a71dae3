package controller

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

func TestCELRejectsInvalidSpecs(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	tests := []struct {
		name   string
		mutate func(*sitev1.Site)
		want   string
	}{
		{"ingress type without ingress", func(s *sitev1.Site) { s.Spec.Exposure.Type = sitev1.ExposureIngress },
			"ingress must be set exactly when type is Ingress"},
		{"ingress block with type None", func(s *sitev1.Site) {
			s.Spec.Exposure.Ingress = &sitev1.IngressSpec{Host: "a.example.com"}
		}, "ingress must be set exactly when type is Ingress"},
		{"httproute without parents", func(s *sitev1.Site) {
			s.Spec.Exposure = sitev1.ExposureSpec{Type: sitev1.ExposureHTTPRoute, HTTPRoute: &sitev1.HTTPRouteSpec{}}
		}, "parentRefs"},
		{"relative url", func(s *sitev1.Site) { s.Spec.URL = "blog.example.com" }, "url must be an absolute http or https URL"},
		{"supplied theme without image", func(s *sitev1.Site) { s.Spec.Theme.Name = "twentytwentythree" },
			"a theme other than the built-in siteplane needs image"},
		{"theme image without its name", func(s *sitev1.Site) {
			s.Spec.Theme.Image = &sitev1.ThemeImageSpec{Reference: "registry.example.com/themes/tt3:1.6"}
		}, "image needs the name of the theme it holds"},
		{"theme name with a slash", func(s *sitev1.Site) {
			s.Spec.Theme = sitev1.ThemeSpec{Name: "../etc", Image: &sitev1.ThemeImageSpec{Reference: "r/t:1"}}
		}, "spec.theme.name"},
		{"trusted proxy by name", func(s *sitev1.Site) { s.Spec.Exposure.TrustedProxies = []string{"ingress-nginx"} }, "trustedProxies"},
		{"ftp url", func(s *sitev1.Site) { s.Spec.URL = "ftp://blog.example.com" }, "url must be an absolute http or https URL"},
		{"static front page without page", func(s *sitev1.Site) { s.Spec.FrontPage.Show = "page" }, "show: page needs pageOnFront"},
		{"two media replicas on RWO", func(s *sitev1.Site) {
			s.Spec.Media.Storage.AccessMode = corev1.ReadWriteOnce
			s.Spec.Components.Media.Replicas = ptr.To[int32](2)
		}, "ReadWriteMany"},
		{"two media replicas on the default claim", func(s *sitev1.Site) {
			s.Spec.Media = sitev1.MediaSpec{}
			s.Spec.Components.Media.Replicas = ptr.To[int32](2)
		}, "components.media.replicas > 1 needs media.s3 or media.storage.accessMode ReadWriteMany"},
		{"claim and S3 together", func(s *sitev1.Site) {
			s.Spec.Media = sitev1.MediaSpec{Storage: sitev1.MediaStorageSpec{AccessMode: corev1.ReadWriteOnce}, S3: validS3()}
		}, "media.storage and media.s3 are mutually exclusive"},
		{"S3 endpoint without scheme", func(s *sitev1.Site) {
			s.Spec.Media.S3 = validS3()
			s.Spec.Media.S3.Endpoint = "minio.storage:9000"
		}, "media.s3.endpoint must be an absolute http or https URL"},
		{"S3 endpoint with a path", func(s *sitev1.Site) {
			s.Spec.Media.S3 = validS3()
			s.Spec.Media.S3.Endpoint = "https://s3.example.com/media"
		}, "media.s3.endpoint must have no path, query or fragment"},
		{"S3 bucket with capitals", func(s *sitev1.Site) {
			s.Spec.Media.S3 = validS3()
			s.Spec.Media.S3.Bucket = "Media"
		}, "spec.media.s3.bucket"},
		{"S3 prefix escaping upwards", func(s *sitev1.Site) {
			s.Spec.Media.S3 = validS3()
			s.Spec.Media.S3.Prefix = "blog/../other"
		}, "spec.media.s3.prefix"},
		{"S3 prefix with a hidden folder", func(s *sitev1.Site) {
			s.Spec.Media.S3 = validS3()
			s.Spec.Media.S3.Prefix = "blog/.tmp"
		}, "spec.media.s3.prefix"},
		{"S3 prefix starting with a slash", func(s *sitev1.Site) {
			s.Spec.Media.S3 = validS3()
			s.Spec.Media.S3.Prefix = "/blog"
		}, "spec.media.s3.prefix"},
		{"S3 without credentials Secret name", func(s *sitev1.Site) {
			s.Spec.Media.S3 = validS3()
			s.Spec.Media.S3.CredentialsSecretRef.Name = ""
		}, "spec.media.s3.credentialsSecretRef.name"},
		{"grace longer than period", func(s *sitev1.Site) {
			s.Spec.Marketplace.APIKeys = []sitev1.APIKeySpec{{Name: "k", Account: "a", Rotation: &sitev1.KeyRotation{
				Period: metav1.Duration{Duration: time.Hour}, GracePeriod: &metav1.Duration{Duration: 2 * time.Hour}}}}
		}, "gracePeriod must be shorter"},
		{"reserved key name", func(s *sitev1.Site) {
			s.Spec.Marketplace.APIKeys = []sitev1.APIKeySpec{{Name: "k-previous", Account: "a"}}
		}, "reserved"},
		{"duplicate key names", func(s *sitev1.Site) {
			s.Spec.Marketplace.APIKeys = []sitev1.APIKeySpec{{Name: "k", Account: "a"}, {Name: "k", Account: "b"}}
		}, "Duplicate value"},
		{"autoscaling minimum above maximum", func(s *sitev1.Site) {
			s.Spec.Components.Content.Autoscaling = &sitev1.AutoscalingSpec{MinReplicas: ptr.To[int32](4), MaxReplicas: 2}
		}, "autoscaling.minReplicas must not exceed maxReplicas"},
		{"autoscaling scale-down window above the HPA's hour", func(s *sitev1.Site) {
			s.Spec.Components.Content.Autoscaling = &sitev1.AutoscalingSpec{MaxReplicas: 3, ScaleDownStabilizationSeconds: ptr.To[int32](3601)}
		}, "scaleDownStabilizationSeconds"},
		{"negative autoscaling scale-down window", func(s *sitev1.Site) {
			s.Spec.Components.Gateway.Autoscaling = &sitev1.AutoscalingSpec{MaxReplicas: 3, ScaleDownStabilizationSeconds: ptr.To[int32](-1)}
		}, "scaleDownStabilizationSeconds"},
		{"autoscaled media on RWO", func(s *sitev1.Site) {
			s.Spec.Components.Media.Autoscaling = &sitev1.AutoscalingSpec{MaxReplicas: 3}
		}, "components.media.autoscaling.maxReplicas > 1 needs media.s3 or media.storage.accessMode ReadWriteMany"},
		{"negative replicas", func(s *sitev1.Site) { s.Spec.Components.Content.Replicas = ptr.To[int32](-1) }, "replicas"},
		// The gateway refuses to start with an address it would not accept.
		{"admin email without a dot in the domain", func(s *sitev1.Site) { s.Spec.Admin.Email = "root@localhost" }, "spec.admin.email"},
		{"admin email too long for the gateway", func(s *sitev1.Site) {
			s.Spec.Admin.Email = "ops@" + strings.Repeat("a", 93) + ".com"
		}, "spec.admin.email"},
		{"name starting with a digit", func(s *sitev1.Site) { s.Name = "1blog" }, "metadata.name must be a DNS label"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(ns, "cel")
			tt.mutate(s)
			err := k8s.Create(ctx, s)
			if err == nil {
				_ = k8s.Delete(ctx, s)
				t.Fatal("accepted")
			}
			if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want Invalid mentioning %q", err, tt.want)
			}
		})
	}

	for _, file := range []string{"siteplane_v1alpha1_site.yaml", "siteplane_v1alpha1_site_s3.yaml"} {
		t.Run("the sample "+file+" is accepted", func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "..", "..", "config", "samples", file))
			if err != nil {
				t.Fatal(err)
			}
			var sample sitev1.Site
			if err := yaml.UnmarshalStrict(data, &sample); err != nil {
				t.Fatal(err)
			}
			sample.Namespace = ns
			if err := k8s.Create(ctx, &sample); err != nil {
				t.Fatalf("the API server rejects config/samples/%s: %v", file, err)
			}
		})
	}

	t.Run("database secret name is immutable", func(t *testing.T) {
		s := newSite(ns, "immutable")
		if err := k8s.Create(ctx, s); err != nil {
			t.Fatal(err)
		}
		err := tryUpdate(t, ns, "immutable", func(s *sitev1.Site) { s.Spec.Database.SecretRef.Name = "other" })
		if err == nil || !strings.Contains(err.Error(), "database.secretRef.name is immutable") {
			t.Errorf("update error %v", err)
		}
	})

	t.Run("defaults are filled", func(t *testing.T) {
		s := getSite(t, ns, "immutable")
		spec := s.Spec
		if spec.Title != "Siteplane" || spec.Timezone != "UTC" || spec.FrontPage.Show != "posts" ||
			spec.Database.SecretRef.Key != "dsn" || spec.Exposure.Type != sitev1.ExposureNone ||
			spec.Components.Gateway.Replicas == nil || *spec.Components.Gateway.Replicas != 1 ||
			spec.Media.Storage != (sitev1.MediaStorageSpec{}) || spec.Media.S3 != nil ||
			!sitev1.BoolOr(spec.NetworkPolicy.Enabled, false) || spec.NetworkPolicy.DatabasePort != 5432 {
			t.Errorf("defaults not applied: %+v", spec)
		}
	})

	updates := []struct {
		name   string
		mutate func(*sitev1.Site)
		want   string
	}{
		{"media size shrinks", func(s *sitev1.Site) { q := resource.MustParse("1Gi"); s.Spec.Media.Storage.Size = &q },
			"media.storage.size cannot shrink"},
		{"storage class added", func(s *sitev1.Site) { s.Spec.Media.Storage.StorageClassName = ptr.To("fast") },
			"storageClassName cannot be added or removed"},
		{"access mode changed", func(s *sitev1.Site) { s.Spec.Media.Storage.AccessMode = corev1.ReadWriteMany },
			"media.storage.accessMode is immutable"},
	}
	for _, tt := range updates {
		t.Run("update: "+tt.name, func(t *testing.T) {
			err := tryUpdate(t, ns, "immutable", tt.mutate)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("update error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
	t.Run("update: media size grows", func(t *testing.T) {
		err := tryUpdate(t, ns, "immutable", func(s *sitev1.Site) {
			q := resource.MustParse("20Gi")
			s.Spec.Media.Storage.Size = &q
		})
		if err != nil {
			t.Errorf("growing the volume was rejected: %v", err)
		}
	})

}
