package resources

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// testSite is a fully defaulted Site as the API server would return it.
func testSite() *sitev1.Site {
	return &sitev1.Site{
		ObjectMeta: metav1.ObjectMeta{Name: "blog", Namespace: "web", UID: "uid-1"},
		Spec: sitev1.SiteSpec{
			Title:     "Blog",
			URL:       "https://blog.example.com/",
			Timezone:  "UTC",
			FrontPage: sitev1.FrontPageSpec{Show: "posts"},
			Database:  sitev1.DatabaseSpec{SecretRef: &sitev1.DatabaseSecretRef{Name: "blog-db", Key: "uri"}},
			Admin:     sitev1.AdminSpec{Username: "admin"},
			Components: sitev1.ComponentsSpec{
				Gateway: sitev1.ComponentSpec{Replicas: ptr.To[int32](2)},
				Content: sitev1.ComponentSpec{Replicas: ptr.To[int32](1)},
				Media:   sitev1.ComponentSpec{Replicas: ptr.To[int32](1)},
				Marketplace: sitev1.ComponentSpec{Replicas: ptr.To[int32](1),
					Image: "registry.example.com/mp:1.2.3"},
			},
			Media: sitev1.MediaSpec{Storage: sitev1.MediaStorageSpec{AccessMode: corev1.ReadWriteOnce, DeletionPolicy: "Delete"}},
		},
	}
}

// typed decodes an apply configuration into the API type of the same shape,
// so assertions read like the object kubectl would show.
func typed[T any](t *testing.T, ac any) *T {
	t.Helper()
	return Convert[T](ac)
}

func TestNames(t *testing.T) {
	tests := []struct{ got, want string }{
		{ComponentName("blog", "content"), "blog-content"},
		{ServiceURL("blog", "content"), "http://blog-content:8080"},
		{ConfigMapName("blog"), "blog-config"},
		{APIKeySecretName("blog", "shop"), "blog-apikey-shop"},
		{PreviousAPIKeySecretName("blog", "shop"), "blog-apikey-shop-previous"},
		{PreviousKeyDir("shop"), "shop-previous"},
		{MediaPVCName("blog"), "blog-media"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestRandomAlphanumeric(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		s := RandomAlphanumeric(ApplicationPasswordLength)
		if len(s) != ApplicationPasswordLength {
			t.Fatalf("length %d", len(s))
		}
		for _, c := range s {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
				t.Fatalf("%q has non-alphanumeric %q", s, c)
			}
		}
		if seen[s] {
			t.Fatalf("duplicate value %q", s)
		}
		seen[s] = true
	}
}

func TestOwnerReference(t *testing.T) {
	site := testSite()
	cm := typed[corev1.ConfigMap](t, ConfigMap(site, map[string]string{"a": "b"}))
	if !metav1.IsControlledBy(cm, site) {
		t.Fatalf("ConfigMap not controlled by the Site: %+v", cm.OwnerReferences)
	}
	ref := cm.OwnerReferences[0]
	if ref.APIVersion != "siteplane.dev/v1alpha1" || ref.Kind != "Site" || !*ref.BlockOwnerDeletion {
		t.Errorf("owner reference %+v", ref)
	}
	if cm.Labels[LabelInstance] != "blog" || cm.Labels[LabelManagedBy] != FieldManager {
		t.Errorf("labels %v", cm.Labels)
	}
}
