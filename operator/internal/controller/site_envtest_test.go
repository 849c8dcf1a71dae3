package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

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
