package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

var ctx = context.Background()

func key(ns, name string) client.ObjectKey { return client.ObjectKey{Namespace: ns, Name: name} }

// get reads an object, failing the test on any error but NotFound, which
// it returns.
func get(t *testing.T, ns, name string, obj client.Object) error {
	t.Helper()
	err := k8s.Get(ctx, key(ns, name), obj)
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	return err
}

// setDeploymentAvailable writes the status a Deployment controller would
// write once every replica is up (envtest runs no controllers).
func setDeploymentAvailable(t *testing.T, ns, name string, available bool) {
	t.Helper()
	eventually(t, "status of Deployment "+name, func() error {
		var d appsv1.Deployment
		if err := k8s.Get(ctx, key(ns, name), &d); err != nil {
			return err
		}
		want := *d.Spec.Replicas
		avail := want
		cond := corev1.ConditionTrue
		if !available {
			avail, cond = 0, corev1.ConditionFalse
		}
		d.Status = appsv1.DeploymentStatus{
			ObservedGeneration: d.Generation, Replicas: want, UpdatedReplicas: want,
			ReadyReplicas: avail, AvailableReplicas: avail, UnavailableReplicas: want - avail,
			Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: cond,
				Reason: "Test", LastUpdateTime: metav1.Now(), LastTransitionTime: metav1.Now()}},
		}
		return k8s.Status().Update(ctx, &d)
	})
}

// setAllAvailable plays the Deployment controller (every component
// available) and the endpoint slice controller (the gateway Service has a
// ready endpoint); the suite's gateway server answers the probe.
func setAllAvailable(t *testing.T, ns, site string) {
	for _, c := range contract.Services {
		setDeploymentAvailable(t, ns, resources.ComponentName(site, c), true)
	}
	setGatewayEndpoints(t, ns, site, true)
}

func waitCondition(t *testing.T, ns, name, condType string, status metav1.ConditionStatus) *sitev1.Site {
	t.Helper()
	var s *sitev1.Site
	eventually(t, fmt.Sprintf("%s=%s", condType, status), func() error {
		s = getSite(t, ns, name)
		c := meta.FindStatusCondition(s.Status.Conditions, condType)
		if c == nil || c.Status != status || c.ObservedGeneration != s.Generation {
			return fmt.Errorf("condition %+v at generation %d", c, s.Generation)
		}
		return nil
	})
	return s
}

func TestSiteCreatesEveryChild(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "blog-db")
	site := newSite(ns, "blog")
	site.Spec.Title = "Blog"
	site.Spec.Components.Gateway.Replicas = ptr.To[int32](2)
	site.Spec.Exposure = sitev1.ExposureSpec{Type: sitev1.ExposureIngress,
		Ingress: &sitev1.IngressSpec{Host: "blog.example.com", TLSSecretName: "blog-tls"}}
	site.Spec.Marketplace.APIKeys = []sitev1.APIKeySpec{{Name: "shop", Account: "acme"}}
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}

	waitCondition(t, ns, "blog", sitev1.ConditionSecretsReady, metav1.ConditionTrue)
	eventually(t, "every Deployment", func() error {
		for _, c := range contract.Services {
			if err := k8s.Get(ctx, key(ns, "blog-"+c), &appsv1.Deployment{}); err != nil {
				return err
			}
		}
		return nil
	})
	s := waitCondition(t, ns, "blog", sitev1.ConditionRoutesReady, metav1.ConditionTrue)

	// Every child exists and is controlled by the Site: deleting the Site
	// lets the garbage collector remove them (envtest has no GC, so the
	// owner references are what is checked).
	children := map[string]client.Object{
		"blog-internal-key":   &corev1.Secret{},
		"blog-admin":          &corev1.Secret{},
		"blog-apikey-shop":    &corev1.Secret{},
		"blog-config":         &corev1.ConfigMap{},
		"blog-media":          &corev1.PersistentVolumeClaim{},
		"blog":                &networkingv1.Ingress{},
		"blog-gateway#pdb":    &policyv1.PodDisruptionBudget{},
		"blog#servicemonitor": monitorObject(),
	}
	for _, c := range contract.Services {
		children["blog-"+c+"#deploy"] = &appsv1.Deployment{}
		children["blog-"+c+"#svc"] = &corev1.Service{}
		children["blog-"+c+"#netpol"] = &networkingv1.NetworkPolicy{}
	}
	for name, obj := range children {
		name = strings.Split(name, "#")[0]
		if err := get(t, ns, name, obj); err != nil {
			t.Errorf("%T %s: %v", obj, name, err)
			continue
		}
		if !metav1.IsControlledBy(obj, s) {
			t.Errorf("%T %s is not controlled by the Site: %+v", obj, name, obj.GetOwnerReferences())
		}
		for _, ref := range obj.GetOwnerReferences() {
			if ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
				t.Errorf("%T %s: blockOwnerDeletion unset", obj, name)
			}
		}
		if len(obj.GetManagedFields()) == 0 || !managedBy(obj, resources.FieldManager) {
			t.Errorf("%T %s is not managed by %s", obj, name, resources.FieldManager)
		}
	}

	// Components with one replica get no PDB; nothing routes through a
	// Gateway API object.
	for _, c := range []string{"content", "media", "marketplace"} {
		if err := get(t, ns, "blog-"+c, &policyv1.PodDisruptionBudget{}); !apierrors.IsNotFound(err) {
			t.Errorf("PDB for %s: %v", c, err)
		}
	}
	if err := get(t, ns, "blog", routeObject()); !apierrors.IsNotFound(err) {
		t.Errorf("HTTPRoute should not exist: %v", err)
	}

	// Content of the Secrets.
	var admin, internal, apikey corev1.Secret
	_ = get(t, ns, "blog-admin", &admin)
	_ = get(t, ns, "blog-internal-key", &internal)
	_ = get(t, ns, "blog-apikey-shop", &apikey)
	alnum := regexp.MustCompile(`^[A-Za-z0-9]+$`)
	if pw := string(admin.Data[contract.AdminPasswordKey]); len(pw) != 24 || !alnum.MatchString(pw) {
		t.Errorf("application password %q is not 24 alphanumerics", pw)
	}
	if string(admin.Data[contract.AdminUsernameKey]) != "admin" || string(admin.Data[contract.AdminEmailKey]) != "admin@blog.example.com" {
		t.Errorf("admin Secret %q", admin.Data)
	}
	if len(internal.Data[contract.InternalKeySecretKey]) != resources.InternalKeyLength {
		t.Errorf("internal key length %d", len(internal.Data[contract.InternalKeySecretKey]))
	}
	// The account's email lets the marketplace create the account the key
	// names (nothing else does), so the key works on a fresh database.
	if string(apikey.Data[contract.KeyDirAccountFile]) != "acme" || len(apikey.Data[contract.KeyDirAPIKeyFile]) != resources.APIKeyLength ||
		!strings.HasPrefix(string(apikey.Data[contract.KeyDirAccountEmailFile]), "acme@") {
		t.Errorf("api key Secret %q", apikey.Data)
	}

	// The ConfigMap holds what the gateway and services parse.
	var cm corev1.ConfigMap
	_ = get(t, ns, "blog-config", &cm)
	routes, err := contract.ParseRouteFile([]byte(cm.Data[contract.RoutesFileName]))
	if err != nil {
		t.Fatalf("route file: %v", err)
	}
	if b, _ := routes.Backend(contract.ServiceContent); b.URL != "http://blog-content:8080" {
		t.Errorf("content backend %q", b.URL)
	}
	var settings contract.Site
	if err := json.Unmarshal([]byte(cm.Data[contract.SiteFileName]), &settings); err != nil || settings.Title != "Blog" ||
		settings.URL != "https://blog.example.com" || !settings.Extensions.CachePlugin {
		t.Errorf("site file %+v (%v)", settings, err)
	}

	// The Deployment mounts what it should and runs the default image.
	var gw appsv1.Deployment
	_ = get(t, ns, "blog-gateway", &gw)
	if img := gw.Spec.Template.Spec.Containers[0].Image; img != "example.test/siteplane/gateway:v0.0.0-test" {
		t.Errorf("gateway image %q", img)
	}
	if *gw.Spec.Replicas != 2 {
		t.Errorf("gateway replicas %d", *gw.Spec.Replicas)
	}
	var mp appsv1.Deployment
	_ = get(t, ns, "blog-marketplace", &mp)
	if !projects(mp, "blog-apikey-shop", "shop/api-key") {
		t.Errorf("marketplace does not project the shop key: %+v", mp.Spec.Template.Spec.Volumes)
	}

	// Status: names, URL, per-component conditions; not Ready without pods.
	if s.Status.Secrets.Admin != "blog-admin" || s.Status.Secrets.InternalKey != "blog-internal-key" ||
		len(s.Status.Secrets.APIKeys) != 1 || s.Status.Secrets.APIKeys[0].SecretName != "blog-apikey-shop" {
		t.Errorf("status secrets %+v", s.Status.Secrets)
	}
	if s.Status.URL != "https://blog.example.com" {
		t.Errorf("status url %q", s.Status.URL)
	}
	s = waitCondition(t, ns, "blog", sitev1.ConditionReady, metav1.ConditionFalse)
	if s.Status.Phase != sitev1.PhaseProvisioning {
		t.Errorf("phase %q, want Provisioning", s.Status.Phase)
	}
	for _, c := range contract.Services {
		if cond := meta.FindStatusCondition(s.Status.Conditions, sitev1.ComponentConditionType(c)); cond == nil ||
			cond.Status != metav1.ConditionFalse || cond.Reason != sitev1.ReasonProgressing {
			t.Errorf("%s condition %+v", c, cond)
		}
	}
}

// TestReadyFollowsDeployments also proves there is no hot loop: once the
// site is Ready, passes stop.
func TestReadyFollowsDeployments(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "shop-db")
	if err := k8s.Create(ctx, newSite(ns, "shop")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "Deployments", func() error {
		return k8s.Get(ctx, key(ns, "shop-gateway"), &appsv1.Deployment{})
	})
	waitCondition(t, ns, "shop", sitev1.ConditionReady, metav1.ConditionFalse)
	setAllAvailable(t, ns, "shop")
	s := waitCondition(t, ns, "shop", sitev1.ConditionReady, metav1.ConditionTrue)
	if s.Status.Phase != sitev1.PhaseReady || s.Status.ObservedGeneration != s.Generation {
		t.Errorf("phase %q observedGeneration %d/%d", s.Status.Phase, s.Status.ObservedGeneration, s.Generation)
	}
	// A Site with default settings runs all four components, media on its
	// default claim (10Gi, ReadWriteOnce).
	for _, c := range contract.Services {
		if cond := meta.FindStatusCondition(s.Status.Conditions, sitev1.ComponentConditionType(c)); cond == nil ||
			cond.Status != metav1.ConditionTrue || cond.Reason != sitev1.ReasonAvailable {
			t.Errorf("%s condition %+v", c, cond)
		}
	}
	var claim corev1.PersistentVolumeClaim
	if err := get(t, ns, "shop-media", &claim); err != nil || claim.Spec.Resources.Requests.Storage().String() != "10Gi" ||
		claim.Spec.AccessModes[0] != corev1.ReadWriteOnce {
		t.Errorf("default media claim %+v: %v", claim.Spec, err)
	}

	eventually(t, "the Ready event", func() error {
		if n := countEvents(t, ns, "shop", "Ready"); n != 1 {
			return fmt.Errorf("%d Ready events", n)
		}
		return nil
	})

	// Steady state: one pass that finds nothing to do (triggered by an
	// annotation) writes nothing, records no event and triggers no other pass.
	k := types.NamespacedName{Namespace: ns, Name: "shop"}
	before := passesQuiet(t, k)
	events := countEvents(t, ns, "shop", "")
	rv := poke(t, ns, "shop")
	time.Sleep(3 * time.Second)
	if after := passes.get(k); after != before+1 {
		t.Errorf("hot loop: %d passes in 3s of steady state after one poke", after-before)
	}
	if n := countEvents(t, ns, "shop", ""); n != events {
		t.Errorf("%d events recorded by a pass that changed nothing", n-events)
	}
	if now := getSite(t, ns, "shop").ResourceVersion; now != rv {
		t.Errorf("the Site was written during steady state (resourceVersion %s → %s)", rv, now)
	}

	// One component losing its pods makes the Site not Ready.
	setDeploymentAvailable(t, ns, "shop-content", false)
	s = waitCondition(t, ns, "shop", sitev1.ConditionReady, metav1.ConditionFalse)
	if c := meta.FindStatusCondition(s.Status.Conditions, "ContentReady"); c == nil || c.Status != metav1.ConditionFalse {
		t.Errorf("ContentReady %+v", c)
	}
	if c := meta.FindStatusCondition(s.Status.Conditions, "GatewayReady"); c == nil || c.Status != metav1.ConditionTrue {
		t.Errorf("GatewayReady %+v", c)
	}
	setDeploymentAvailable(t, ns, "shop-content", true)
	waitCondition(t, ns, "shop", sitev1.ConditionReady, metav1.ConditionTrue)
}

func TestSpecChangeConverges(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "news-db")
	site := newSite(ns, "news")
	site.Spec.Components.Content.Replicas = ptr.To[int32](3)
	site.Spec.Exposure = sitev1.ExposureSpec{Type: sitev1.ExposureIngress, Ingress: &sitev1.IngressSpec{Host: "news.example.com"}}
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	waitCondition(t, ns, "news", sitev1.ConditionRoutesReady, metav1.ConditionTrue)
	var content appsv1.Deployment
	if err := get(t, ns, "news-content", &content); err != nil {
		t.Fatal(err)
	}
	oldHash := content.Spec.Template.Annotations[resources.AnnotationConfigHash]
	var admin corev1.Secret
	if err := get(t, ns, "news-admin", &admin); err != nil {
		t.Fatal(err)
	}
	oldPassword := string(admin.Data[contract.AdminPasswordKey])
	if oldHash == "" || oldPassword == "" {
		t.Fatalf("config hash %q, password set %t: nothing to compare with", oldHash, oldPassword != "")
	}
	if err := get(t, ns, "news-content", &policyv1.PodDisruptionBudget{}); err != nil {
		t.Fatalf("PDB for 3 content replicas: %v", err)
	}

	updateSite(t, ns, "news", func(s *sitev1.Site) {
		s.Spec.Title = "Daily News"
		s.Spec.Timezone = "Europe/Paris"
		s.Spec.Components.Content.Replicas = ptr.To[int32](1)
		s.Spec.Exposure = sitev1.ExposureSpec{Type: sitev1.ExposureNone}
	})
	eventually(t, "the new config hash", func() error {
		var d appsv1.Deployment
		_ = get(t, ns, "news-content", &d)
		if h := d.Spec.Template.Annotations[resources.AnnotationConfigHash]; h == oldHash {
			return fmt.Errorf("config hash still %s", h)
		}
		if *d.Spec.Replicas != 1 {
			return fmt.Errorf("replicas %d", *d.Spec.Replicas)
		}
		return nil
	})
	var cm corev1.ConfigMap
	_ = get(t, ns, "news-config", &cm)
	if !strings.Contains(cm.Data[contract.SiteFileName], `"Daily News"`) || !strings.Contains(cm.Data[contract.SiteFileName], "Europe/Paris") {
		t.Errorf("site file not updated: %s", cm.Data[contract.SiteFileName])
	}
	eventually(t, "the PDB and the Ingress to go", func() error {
		if err := get(t, ns, "news-content", &policyv1.PodDisruptionBudget{}); err == nil {
			return fmt.Errorf("PDB still there with one replica")
		}
		if err := get(t, ns, "news", &networkingv1.Ingress{}); err == nil {
			return fmt.Errorf("Ingress still there with exposure None")
		}
		return nil
	})
	s := waitCondition(t, ns, "news", sitev1.ConditionRoutesReady, metav1.ConditionTrue)
	if s.Status.ObservedGeneration != s.Generation {
		t.Errorf("observedGeneration %d, generation %d", s.Status.ObservedGeneration, s.Generation)
	}
	_ = get(t, ns, "news-admin", &admin)
	if string(admin.Data[contract.AdminPasswordKey]) != oldPassword {
		t.Error("a spec change replaced the generated administrator password")
	}

	// An unknown time zone passes CEL but not the contract: reported, not applied.
	updateSite(t, ns, "news", func(s *sitev1.Site) { s.Spec.Timezone = "Mars/Olympus" })
	s = waitCondition(t, ns, "news", sitev1.ConditionRoutesReady, metav1.ConditionFalse)
	if c := meta.FindStatusCondition(s.Status.Conditions, sitev1.ConditionRoutesReady); c.Reason != sitev1.ReasonInvalidSettings {
		t.Errorf("reason %q", c.Reason)
	}
	if s.Status.Phase != sitev1.PhaseFailed {
		t.Errorf("phase %q", s.Status.Phase)
	}
	_ = get(t, ns, "news-config", &cm)
	if strings.Contains(cm.Data[contract.SiteFileName], "Mars") {
		t.Error("an invalid site file was written")
	}
}

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

func TestKeyRotationKeepsPreviousKeyForGracePeriod(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "mkt-db")
	site := newSite(ns, "mkt")
	site.Spec.Marketplace.APIKeys = []sitev1.APIKeySpec{{Name: "author", Account: "acme", Rotation: &sitev1.KeyRotation{
		Period: metav1.Duration{Duration: time.Hour}, GracePeriod: &metav1.Duration{Duration: 30 * time.Minute}}}}
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	var first string
	eventually(t, "the first key", func() error {
		var s corev1.Secret
		if err := k8s.Get(ctx, key(ns, "mkt-apikey-author"), &s); err != nil {
			return err
		}
		first = string(s.Data[contract.KeyDirAPIKeyFile])
		return nil
	})
	secretHash := func() string {
		var d appsv1.Deployment
		_ = get(t, ns, "mkt-marketplace", &d)
		return d.Spec.Template.Annotations[resources.AnnotationSecretHash]
	}
	var hash1 string
	eventually(t, "the marketplace Deployment", func() error {
		if hash1 = secretHash(); hash1 == "" {
			return fmt.Errorf("no hash yet")
		}
		return nil
	})
	keyVolume := func() corev1.Volume {
		var d appsv1.Deployment
		_ = get(t, ns, "mkt-marketplace", &d)
		for _, v := range d.Spec.Template.Spec.Volumes {
			if v.Projected != nil {
				return v
			}
		}
		t.Fatal("no projected key volume")
		return corev1.Volume{}
	}
	// The previous key's (optional) source is projected before any rotation,
	// so a rotation changes Secret contents, not the volume: a running pod
	// gets both keys in one kubelet update instead of the new key alone.
	volume1 := keyVolume()
	var d0 appsv1.Deployment
	_ = get(t, ns, "mkt-marketplace", &d0)
	if !projects(d0, "mkt-apikey-author", "author/api-key") || !projects(d0, "mkt-apikey-author-previous", "author-previous/api-key") {
		t.Errorf("key volume before rotation %+v", volume1)
	}

	// Re-applying does not regenerate: a pass before the period ends keeps
	// the key.
	fakeClock.Step(59 * time.Minute)
	settle(t, ns, "mkt")
	var cur corev1.Secret
	_ = get(t, ns, "mkt-apikey-author", &cur)
	if string(cur.Data[contract.KeyDirAPIKeyFile]) != first {
		t.Fatal("the key changed before its rotation period")
	}

	// Rotation: the new key is current, the old one is kept as previous.
	fakeClock.Step(2 * time.Minute)
	poke(t, ns, "mkt")
	var prev corev1.Secret
	eventually(t, "rotation", func() error {
		_ = get(t, ns, "mkt-apikey-author", &cur)
		if string(cur.Data[contract.KeyDirAPIKeyFile]) == first {
			return fmt.Errorf("not rotated")
		}
		if err := k8s.Get(ctx, key(ns, "mkt-apikey-author-previous"), &prev); err != nil {
			return err
		}
		return nil
	})
	if string(prev.Data[contract.KeyDirAPIKeyFile]) != first || string(prev.Data[contract.KeyDirAccountFile]) != "acme" {
		t.Errorf("previous Secret %q", prev.Data)
	}
	if !metav1.IsControlledBy(&prev, getSite(t, ns, "mkt")) {
		t.Error("previous key Secret not owned by the Site")
	}
	eventually(t, "both keys mounted", func() error {
		var d appsv1.Deployment
		_ = get(t, ns, "mkt-marketplace", &d)
		if !projects(d, "mkt-apikey-author", "author/api-key") || !projects(d, "mkt-apikey-author-previous", "author-previous/api-key") {
			return fmt.Errorf("volumes %+v", d.Spec.Template.Spec.Volumes)
		}
		return nil
	})
	// Rotation changes Secret contents only: the pod template, and so the
	// running pods, stay as they are (the marketplace re-reads its key
	// directory, which the kubelet refreshes in place).
	template := func() corev1.PodTemplateSpec {
		var d appsv1.Deployment
		_ = get(t, ns, "mkt-marketplace", &d)
		return d.Spec.Template
	}
	if tmpl := template(); !equality.Semantic.DeepEqual(tmpl, d0.Spec.Template) || secretHash() != hash1 {
		t.Errorf("rotation changed the marketplace pod template (a restart of every pod):\n%+v\n%+v", d0.Spec.Template, tmpl)
	}
	if v := keyVolume(); !equality.Semantic.DeepEqual(v, volume1) {
		t.Errorf("rotation changed the key volume:\n%+v\n%+v", volume1, v)
	}
	eventually(t, "the APIKeyRotated event", func() error {
		if n := countEvents(t, ns, "mkt", "APIKeyRotated"); n != 1 {
			return fmt.Errorf("%d APIKeyRotated events", n)
		}
		return nil
	})
	eventually(t, "the previous key in the status", func() error {
		ks := getSite(t, ns, "mkt").Status.Secrets.APIKeys
		if len(ks) != 1 || ks[0].PreviousSecretName != "mkt-apikey-author-previous" || ks[0].PreviousExpiresAt == nil {
			return fmt.Errorf("status keys %+v", ks)
		}
		return nil
	})

	// Inside the grace period the previous key stays.
	fakeClock.Step(20 * time.Minute)
	settle(t, ns, "mkt")
	if err := get(t, ns, "mkt-apikey-author-previous", &corev1.Secret{}); err != nil {
		t.Fatalf("previous key removed inside its grace period: %v", err)
	}

	// After it, the previous key goes: its Secret is deleted (the optional
	// source stays, empty), and again the pods are not restarted: the
	// kubelet empties the key's directory and the marketplace drops it.
	fakeClock.Step(11 * time.Minute)
	poke(t, ns, "mkt")
	eventually(t, "expiry of the previous key", func() error {
		if err := get(t, ns, "mkt-apikey-author-previous", &corev1.Secret{}); err == nil {
			return fmt.Errorf("previous key still there")
		}
		return nil
	})
	settle(t, ns, "mkt")
	if tmpl := template(); !equality.Semantic.DeepEqual(tmpl, d0.Spec.Template) {
		t.Errorf("expiry changed the marketplace pod template:\n%+v\n%+v", d0.Spec.Template, tmpl)
	}
	_ = get(t, ns, "mkt-apikey-author", &cur)
	if string(cur.Data[contract.KeyDirAPIKeyFile]) == first {
		t.Error("the current key went back to the first one")
	}

	// Removing the key from the spec revokes it.
	updateSite(t, ns, "mkt", func(s *sitev1.Site) { s.Spec.Marketplace.APIKeys = nil })
	eventually(t, "revocation", func() error {
		if err := get(t, ns, "mkt-apikey-author", &corev1.Secret{}); err == nil {
			return fmt.Errorf("key Secret still there")
		}
		return nil
	})
	// Each deletion is reported once: later passes (whose cache may still
	// list a deleted Secret) add no event.
	settle(t, ns, "mkt")
	for reason, want := range map[string]int{"APIKeyIssued": 1, "APIKeyRotated": 1, "APIKeyExpired": 1, "APIKeyRevoked": 1} {
		if n := countEvents(t, ns, "mkt", reason); n != want {
			t.Errorf("%d %s events, want %d", n, reason, want)
		}
	}
}

func TestSuspendStopsChanges(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "calm-db")
	if err := k8s.Create(ctx, newSite(ns, "calm")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the content Service", func() error {
		return k8s.Get(ctx, key(ns, "calm-content"), &corev1.Service{})
	})
	updateSite(t, ns, "calm", func(s *sitev1.Site) { s.Spec.Suspend = true })
	eventually(t, "phase Suspended", func() error {
		s := getSite(t, ns, "calm")
		if s.Status.Phase != sitev1.PhaseSuspended || s.Status.ObservedGeneration != s.Generation {
			return fmt.Errorf("phase %q", s.Status.Phase)
		}
		return nil
	})
	var cm corev1.ConfigMap
	_ = get(t, ns, "calm-config", &cm)
	before := cm.Data[contract.SiteFileName]
	var svc corev1.Service
	_ = get(t, ns, "calm-content", &svc)
	if err := k8s.Delete(ctx, &svc); err != nil {
		t.Fatal(err)
	}
	updateSite(t, ns, "calm", func(s *sitev1.Site) { s.Spec.Title = "Changed while suspended" })
	settle(t, ns, "calm")
	_ = get(t, ns, "calm-config", &cm)
	if cm.Data[contract.SiteFileName] != before {
		t.Error("ConfigMap changed while suspended")
	}
	if err := get(t, ns, "calm-content", &corev1.Service{}); err == nil {
		t.Error("a deleted Service was recreated while suspended")
	}

	updateSite(t, ns, "calm", func(s *sitev1.Site) { s.Spec.Suspend = false })
	eventually(t, "resumed reconciliation", func() error {
		if err := k8s.Get(ctx, key(ns, "calm-content"), &corev1.Service{}); err != nil {
			return err
		}
		_ = get(t, ns, "calm-config", &cm)
		if !strings.Contains(cm.Data[contract.SiteFileName], "Changed while suspended") {
			return fmt.Errorf("config not updated")
		}
		return nil
	})
}

func TestDatabaseSecretArrivesLater(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	if err := k8s.Create(ctx, newSite(ns, "late")); err != nil {
		t.Fatal(err)
	}
	s := waitCondition(t, ns, "late", sitev1.ConditionSecretsReady, metav1.ConditionFalse)
	if c := meta.FindStatusCondition(s.Status.Conditions, sitev1.ConditionSecretsReady); c.Reason != sitev1.ReasonDatabaseSecretMissing {
		t.Errorf("reason %q", c.Reason)
	}
	if s.Status.Phase != sitev1.PhasePending {
		t.Errorf("phase %q", s.Status.Phase)
	}
	var d appsv1.Deployment
	if err := get(t, ns, "late-content", &d); err != nil {
		t.Fatalf("the Deployment is written while the database Secret is missing: %v", err)
	}
	missingHash := d.Spec.Template.Annotations[resources.AnnotationSecretHash]
	if missingHash == "" {
		t.Fatal("no secret hash on the pod template")
	}

	// The watch on referenced Secrets brings the Site back without waiting
	// for the requeue.
	createDatabaseSecret(t, ns, "late-db")
	waitCondition(t, ns, "late", sitev1.ConditionSecretsReady, metav1.ConditionTrue)
	eventually(t, "the DSN in the pod hash", func() error {
		_ = get(t, ns, "late-content", &d)
		if d.Spec.Template.Annotations[resources.AnnotationSecretHash] == missingHash {
			return fmt.Errorf("secret hash unchanged")
		}
		return nil
	})
}

func managedBy(obj client.Object, manager string) bool {
	for _, f := range obj.GetManagedFields() {
		if f.Manager == manager && f.Operation == metav1.ManagedFieldsOperationApply {
			return true
		}
	}
	return false
}

// projects reports whether the Deployment projects secret into path.
func projects(d appsv1.Deployment, secret, path string) bool {
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Projected == nil {
			continue
		}
		for _, src := range v.Projected.Sources {
			if src.Secret == nil || src.Secret.Name != secret {
				continue
			}
			for _, it := range src.Secret.Items {
				if it.Path == path {
					return true
				}
			}
		}
	}
	return false
}

func monitorObject() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(resources.ServiceMonitorGVK)
	return u
}

func routeObject() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(resources.HTTPRouteGVK)
	return u
}

func TestHTTPRouteAndServiceMonitor(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "gw-db")
	site := newSite(ns, "gw")
	site.Spec.Exposure = sitev1.ExposureSpec{Type: sitev1.ExposureHTTPRoute, HTTPRoute: &sitev1.HTTPRouteSpec{
		ParentRefs: []sitev1.ParentReference{{Name: "public", Namespace: "infra"}}, Hostnames: []string{"gw.example.com"}}}
	site.Spec.Monitoring.ServiceMonitor.Labels = map[string]string{"release": "kps"}
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	s := waitCondition(t, ns, "gw", sitev1.ConditionRoutesReady, metav1.ConditionTrue)
	route := routeObject()
	if err := get(t, ns, "gw", route); err != nil {
		t.Fatalf("HTTPRoute: %v", err)
	}
	if !metav1.IsControlledBy(route, s) {
		t.Errorf("HTTPRoute owners %+v", route.GetOwnerReferences())
	}
	refs, _, _ := unstructured.NestedSlice(route.Object, "spec", "rules")
	backend := refs[0].(map[string]any)["backendRefs"].([]any)[0].(map[string]any)
	if backend["name"] != "gw-gateway" {
		t.Errorf("backend %v", backend)
	}
	mon := monitorObject()
	if err := get(t, ns, "gw", mon); err != nil || mon.GetLabels()["release"] != "kps" {
		t.Errorf("ServiceMonitor %v labels %v", err, mon.GetLabels())
	}

	updateSite(t, ns, "gw", func(s *sitev1.Site) {
		s.Spec.Exposure = sitev1.ExposureSpec{Type: sitev1.ExposureNone}
		s.Spec.Monitoring.ServiceMonitor.Enabled = ptr.To(false)
	})
	eventually(t, "HTTPRoute and ServiceMonitor removal", func() error {
		if err := get(t, ns, "gw", routeObject()); err == nil {
			return fmt.Errorf("HTTPRoute still there")
		}
		if err := get(t, ns, "gw", monitorObject()); err == nil {
			return fmt.Errorf("ServiceMonitor still there")
		}
		return nil
	})
}

// tryUpdate applies mutate to the latest Site and returns the update's
// error, retrying only on conflicts with the operator's status writes.
func tryUpdate(t *testing.T, ns, name string, mutate func(*sitev1.Site)) error {
	t.Helper()
	for {
		s := getSite(t, ns, name)
		mutate(s)
		err := k8s.Update(ctx, s)
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

// TestDriftIsCorrected: a child changed behind the operator's back (here a
// Deployment scaled and a ConfigMap edited by another client) returns to the
// spec, because the operator owns those fields through server-side apply.
func TestDriftIsCorrected(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "drift-db")
	if err := k8s.Create(ctx, newSite(ns, "drift")); err != nil {
		t.Fatal(err)
	}
	var original corev1.ConfigMap
	eventually(t, "the content Deployment and the ConfigMap", func() error {
		if err := k8s.Get(ctx, key(ns, "drift-content"), &appsv1.Deployment{}); err != nil {
			return err
		}
		return k8s.Get(ctx, key(ns, "drift-config"), &original)
	})
	eventually(t, "a manual scale and edit", func() error {
		var d appsv1.Deployment
		if err := k8s.Get(ctx, key(ns, "drift-content"), &d); err != nil {
			return err
		}
		d.Spec.Replicas = ptr.To[int32](5)
		if err := k8s.Update(ctx, &d, client.FieldOwner("someone-else")); err != nil {
			return err
		}
		var cm corev1.ConfigMap
		if err := k8s.Get(ctx, key(ns, "drift-config"), &cm); err != nil {
			return err
		}
		cm.Data[contract.RoutesFileName] = "{}"
		return k8s.Update(ctx, &cm, client.FieldOwner("someone-else"))
	})
	eventually(t, "the spec to win again", func() error {
		var d appsv1.Deployment
		_ = get(t, ns, "drift-content", &d)
		if *d.Spec.Replicas != 1 {
			return fmt.Errorf("replicas %d", *d.Spec.Replicas)
		}
		var cm corev1.ConfigMap
		_ = get(t, ns, "drift-config", &cm)
		if cm.Data[contract.RoutesFileName] != original.Data[contract.RoutesFileName] {
			return fmt.Errorf("route file not restored: %q", cm.Data[contract.RoutesFileName])
		}
		return nil
	})
}

// countEvents counts the occurrences of events.k8s.io Events about a Site,
// of one reason (all when empty). The recorder folds a repeated identical
// event into the first one's series instead of creating another Event, so
// a series counts as many times as it occurred: counting objects alone
// would miss an event repeated on every pass.
func countEvents(t *testing.T, ns, site, reason string) int {
	t.Helper()
	var list eventsv1.EventList
	if err := k8s.List(ctx, &list, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range list.Items {
		if e.Regarding.Kind != "Site" || e.Regarding.Name != site || (reason != "" && e.Reason != reason) {
			continue
		}
		if e.Series != nil {
			n += int(e.Series.Count)
		} else {
			n++
		}
	}
	return n
}
