//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// The four components of a Site and the operator's names for its children
// (operator/internal/resources/names.go).
var components = []string{contract.ServiceGateway, contract.ServiceContent, contract.ServiceMedia, contract.ServiceMarketplace}

func componentName(site, c string) string { return site + "-" + c }

const instanceLabel = "app.kubernetes.io/instance"

// TestSite drives one default Site through its life on real pods. The steps
// share the Site and run in order; each says what a broken operator makes
// it report.
func TestSite(t *testing.T) {
	ns := namespace(t, "e2e-site")
	const name = "blog"
	dbSecret := siteDatabase(t, ns, name)
	mediaVolume(t, ns, name)
	site := &sitev1.Site{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: sitev1.SiteSpec{
			Title:       "E2E Blog",
			URL:         "http://blog.e2e.test",
			Database:    sitev1.DatabaseSpec{SecretRef: &sitev1.DatabaseSecretRef{Name: dbSecret, Key: "dsn"}},
			Admin:       sitev1.AdminSpec{Username: "admin", Email: "admin@e2e.test"},
			Marketplace: sitev1.MarketplaceSpec{APIKeys: []sitev1.APIKeySpec{{Name: "author", Account: "acme"}}},
		},
	}
	ctx := context.Background()
	t0 := time.Now()
	if err := env.c.Create(ctx, site); err != nil {
		t.Fatal(err)
	}

	if !t.Run("default Site becomes Ready with all four components", func(t *testing.T) {
		waitReady(t, ns, name, 4*time.Minute)
		t.Logf("Ready %.1fs after create", time.Since(t0).Seconds())
		for _, c := range components {
			d := deployment(t, ns, componentName(name, c))
			if d.Status.ReadyReplicas < 1 || d.Status.ReadyReplicas != *d.Spec.Replicas {
				t.Errorf("%s: %d/%d replicas ready while the Site says Ready", d.Name, d.Status.ReadyReplicas, *d.Spec.Replicas)
			}
		}
	}) {
		t.FailNow()
	}
	gw := serviceURL(t, ns, componentName(name, contract.ServiceGateway), contract.DefaultAPIPort)
	adminUser, adminPass := adminCredentials(t, ns, name)
	auth := func(h http.Header) http.Header {
		req, _ := http.NewRequest("GET", "/", nil)
		req.SetBasicAuth(adminUser, adminPass)
		if h == nil {
			h = http.Header{}
		}
		h.Set("Authorization", req.Header.Get("Authorization"))
		return h
	}

	t.Run("HTTP through the gateway Service: index", func(t *testing.T) {
		r := request("GET", gw+"/cms-json/", nil, nil)
		if r.Status != 200 || r.JSON()["name"] != site.Spec.Title {
			t.Fatalf("GET /cms-json/: %s; want 200 with name %q", r, site.Spec.Title)
		}
	})

	t.Run("HTTP through the gateway Service: authenticated create", func(t *testing.T) {
		body := []byte(`{"title":"Hello from the cluster","content":"e2e","status":"publish"}`)
		jsonHeader := http.Header{"Content-Type": {"application/json"}}
		if r := request("POST", gw+"/cms-json/cms/v2/posts", body, jsonHeader.Clone()); r.Status != 401 {
			t.Fatalf("anonymous create: %s; want 401", r)
		}
		r := request("POST", gw+"/cms-json/cms/v2/posts", body, auth(jsonHeader.Clone()))
		if r.Status != 201 {
			t.Fatalf("create as the bootstrap admin: %s; want 201", r)
		}
		id := r.JSON()["id"]
		got := request("GET", fmt.Sprintf("%s/cms-json/cms/v2/posts/%v", gw, id), nil, nil)
		if got.Status != 200 || !strings.Contains(string(got.Body), "Hello from the cluster") {
			t.Fatalf("read back post %v: %s", id, got)
		}
	})

	t.Run("HTTP through the gateway Service: media upload", func(t *testing.T) {
		var img bytes.Buffer
		m := image.NewRGBA(image.Rect(0, 0, 64, 48))
		for x := range 64 {
			m.Set(x, x%48, color.RGBA{200, 30, 30, 255})
		}
		if err := jpeg.Encode(&img, m, nil); err != nil {
			t.Fatal(err)
		}
		r := request("POST", gw+"/cms-json/cms/v2/media?title=e2e", img.Bytes(), auth(http.Header{
			"Content-Type": {"image/jpeg"}, "Content-Disposition": {`attachment; filename="e2e.jpg"`}}))
		if r.Status != 201 {
			t.Fatalf("upload: %s; want 201", r)
		}
		src, _ := r.JSON()["source_url"].(string)
		i := strings.Index(src, "/cms-content/uploads/")
		if i < 0 {
			t.Fatalf("source_url %q is not an upload URL", src)
		}
		file := request("GET", gw+src[i:], nil, nil)
		if file.Status != 200 || !bytes.Equal(file.Body, img.Bytes()) {
			t.Fatalf("GET %s: %d, %d bytes; want the uploaded %d bytes", src[i:], file.Status, len(file.Body), img.Len())
		}
	})

	t.Run("HTTP through the gateway Service: marketplace with the generated key", func(t *testing.T) {
		// Known operator bug on main (issue 16): the key's account is
		// created by nothing, so this answers 401 while the Site says Ready.
		if r := request("GET", gw+"/api/account/details", nil, nil); r.Status != 401 && r.Status != 400 && r.Status != 403 {
			t.Fatalf("marketplace without a key: %s; want it refused", r)
		}
		key := apiKey(t, ns, name+"-apikey-author")
		r := marketplace(gw, key)
		if r.Status != 200 {
			t.Fatalf("marketplace with the operator's key: %s; want 200 (a 401 here is the account nothing creates, issue 16)", r)
		}
	})

	t.Run("the administrator signs in; sign-in throttling counts the client behind the proxy", func(t *testing.T) {
		signInBehindProxy(t, ns, name, gw)
	})

	t.Run("memory limits reach the services", func(t *testing.T) {
		memoryLimits(t, ns, name)
	})

	t.Run("metrics of the services are scrapeable", func(t *testing.T) {
		for _, c := range components {
			u := serviceURL(t, ns, componentName(name, c), contract.DefaultMetricsPort) + contract.MetricsPath
			r := request("GET", u, nil, nil)
			if r.Status != 200 || !strings.Contains(string(r.Body), "siteplane_http_requests_total") {
				t.Errorf("%s: %.200s; want 200 with siteplane_http_requests_total", u, r.String())
			}
		}
	})

	t.Run("metrics of the operator are scrapeable", func(t *testing.T) {
		checkOperatorMetrics(t, ns, name)
	})

	t.Run("a changed title rolls exactly the pods that mount the site settings, and the rolling update fails no request", func(t *testing.T) {
		// Every settings-mounting component rolls (one replica each: a new
		// pod first, then the old one, unready but serving for its shutdown
		// delay); a REST read goes through the gateway and content meanwhile.
		gw := serviceURL(t, ns, componentName(name, contract.ServiceGateway), contract.DefaultAPIPort)
		stop := startLoad(gw+"/cms-json/cms/v2/posts?per_page=1&_fields=id", nil, 4)
		stopped := false
		defer func() {
			if !stopped { // a failed check ended the test: stop the load
				stop()
			}
		}()
		titleChangeRolls(t, ns, name)
		res, stopped := stop(), true
		t.Logf("under the rolling update: %d requests, %d failed", res.sent, res.failed)
		if res.failed > 0 {
			t.Errorf("%d of %d requests failed during the rolling update; first: %v", res.failed, res.sent, res.failures)
		}
		if res.sent < 100 {
			t.Errorf("only %d requests were sent during the rolling update: the load did not cover it", res.sent)
		}
	})

	// The two rotations wait on clocks (a grace period, a propagation
	// delay), touch different Secrets and pods, and run side by side.
	t.Run("key rotations", func(t *testing.T) {
		gw := serviceURL(t, ns, componentName(name, contract.ServiceGateway), contract.DefaultAPIPort)
		t.Run("API-key rotation keeps the old key for the grace period, then refuses it", func(t *testing.T) {
			t.Parallel()
			keyRotation(t, ns, name, gw)
		})
		t.Run("internal-key rotation under load fails no request, and the senders switch after the propagation delay", func(t *testing.T) {
			t.Parallel()
			internalKeyRotation(t, ns, name, gw, auth(nil))
		})
	})

	t.Run("deleting the Site removes its children", func(t *testing.T) {
		var s sitev1.Site
		if err := env.c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &s); err != nil {
			t.Fatal(err)
		}
		if err := env.c.Delete(ctx, &s); err != nil {
			t.Fatal(err)
		}
		eventually(t, "Site and children gone", 90*time.Second, func() (bool, string) {
			left := children(t, ns, name)
			if err := env.c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &s); !apierrors.IsNotFound(err) {
				left = append(left, "Site/"+name)
			}
			return len(left) == 0, strings.Join(left, " ")
		})
	})
}

func waitReady(t *testing.T, ns, name string, timeout time.Duration) {
	t.Helper()
	eventually(t, "Site Ready", timeout, func() (bool, string) {
		var s sitev1.Site
		if err := env.c.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &s); err != nil {
			return false, err.Error()
		}
		c := meta.FindStatusCondition(s.Status.Conditions, sitev1.ConditionReady)
		if c == nil {
			return false, "no Ready condition"
		}
		why := fmt.Sprintf("Ready=%s %s: %s", c.Status, c.Reason, c.Message)
		return c.Status == metav1.ConditionTrue && c.ObservedGeneration == s.Generation, why
	})
}

func deployment(t *testing.T, ns, name string) *appsv1.Deployment {
	t.Helper()
	d, err := env.kube.AppsV1().Deployments(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func secretValue(t *testing.T, ns, name, key string) string {
	t.Helper()
	s, err := env.kube.CoreV1().Secrets(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v, ok := s.Data[key]
	if !ok {
		t.Fatalf("Secret %s/%s has no %q", ns, name, key)
	}
	return string(v)
}

func adminCredentials(t *testing.T, ns, site string) (string, string) {
	t.Helper()
	return secretValue(t, ns, site+"-admin", contract.AdminUsernameKey), secretValue(t, ns, site+"-admin", contract.AdminPasswordKey)
}

func apiKey(t *testing.T, ns, secret string) string {
	t.Helper()
	return strings.TrimSpace(secretValue(t, ns, secret, contract.KeyDirAPIKeyFile))
}

func marketplace(gw, key string) response {
	return request("GET", gw+"/api/account/details", nil, http.Header{"Authorization": {"Bearer " + key}})
}

// readyPods maps each component to the UIDs of its pods.
func podsByComponent(t *testing.T, ns, site string) map[string][]string {
	t.Helper()
	pods, err := env.kube.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: instanceLabel + "=" + site})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, p := range pods.Items {
		if p.DeletionTimestamp != nil {
			continue
		}
		c := p.Labels["app.kubernetes.io/component"]
		out[c] = append(out[c], string(p.UID))
	}
	for c := range out {
		sort.Strings(out[c])
	}
	return out
}

// mountsSettings tells whether a Deployment's pods mount the site settings
// file (site.json of the <site>-config ConfigMap).
func mountsSettings(d *appsv1.Deployment, site string) bool {
	for _, v := range d.Spec.Template.Spec.Volumes {
		cm := v.ConfigMap
		if cm == nil || cm.Name != site+"-config" {
			continue
		}
		if len(cm.Items) == 0 {
			return true
		}
		for _, it := range cm.Items {
			if it.Key == contract.SiteFileName {
				return true
			}
		}
	}
	return false
}

func rolledOut(d *appsv1.Deployment) bool {
	r := *d.Spec.Replicas
	return d.Status.ObservedGeneration >= d.Generation && d.Status.UpdatedReplicas == r &&
		d.Status.ReadyReplicas == r && d.Status.Replicas == r
}

func keyRotation(t *testing.T, ns, name, gw string) {
	ctx := context.Background()
	current := name + "-apikey-author"
	k0 := apiKey(t, ns, current)
	if r := marketplace(gw, k0); r.Status != 200 {
		t.Fatalf("the key before rotation does not work: %s (issue 16: the account nothing creates)", r)
	}
	// Short enough for a test (the CRD's minimum period is 1m). The key was
	// issued with the Site, so it rotates as soon as it is 80 s old; the
	// grace period ends 40 s before the next rotation, so the old key is
	// refused because it expired, not because a second rotation pushed it
	// out (checked below; the refusal takes the operator's pass, the
	// kubelet's delivery and the marketplace's 5 s re-read: 15 s measured).
	// The rotation adds the previous key to the marketplace's key
	// directory, which rolls its pod: the grace period covers that too
	// (both keys answered within 10 s measured).
	patch := []byte(`{"spec":{"marketplace":{"apiKeys":[{"name":"author","account":"acme","rotation":{"period":"80s","gracePeriod":"40s"}}]}}}`)
	var s sitev1.Site
	s.Name, s.Namespace = name, ns
	if err := env.c.Patch(ctx, &s, client.RawPatch(types.MergePatchType, patch)); err != nil {
		t.Fatal(err)
	}
	var expires time.Time
	eventually(t, "the key rotated", 3*time.Minute, func() (bool, string) {
		if err := env.c.Get(ctx, client.ObjectKeyFromObject(&s), &s); err != nil {
			return false, err.Error()
		}
		for _, k := range s.Status.Secrets.APIKeys {
			if k.Name == "author" && k.PreviousSecretName != "" && k.PreviousExpiresAt != nil {
				expires = k.PreviousExpiresAt.Time
				return true, ""
			}
		}
		b, _ := json.Marshal(s.Status.Secrets.APIKeys)
		return false, string(b)
	})
	k1 := apiKey(t, ns, current)
	if k1 == k0 {
		t.Fatal("the current key Secret still holds the old key after the rotation")
	}
	eventually(t, "the new key works and the old one still does", 40*time.Second, func() (bool, string) {
		if time.Now().After(expires) {
			return false, "grace period over before both keys were seen working"
		}
		r1, r0 := marketplace(gw, k1), marketplace(gw, k0)
		return r1.Status == 200 && r0.Status == 200, "new: " + r1.String() + " old: " + r0.String()
	})
	t.Logf("old key expires at %s (%.0fs from now)", expires.Format(time.RFC3339), time.Until(expires).Seconds())
	eventually(t, "the old key refused after its grace period", time.Until(expires)+time.Minute, func() (bool, string) {
		r := marketplace(gw, k0)
		return r.Status == 401 && time.Now().After(expires), "old key: " + r.String()
	})
	t.Logf("old key refused %.1fs after it expired", time.Since(expires).Seconds())
	// Refused because it expired: the key that replaced it is still the
	// current one (no second rotation has pushed the old key out yet).
	if k := apiKey(t, ns, current); k != k1 {
		t.Errorf("the old key was refused only after a second rotation: its expiry was not enforced")
	}
}

// children lists what is left of a Site's objects in ns.
func children(t *testing.T, ns, site string) []string {
	t.Helper()
	ctx := context.Background()
	sel := metav1.ListOptions{LabelSelector: instanceLabel + "=" + site}
	var left []string
	if l, err := env.kube.AppsV1().Deployments(ns).List(ctx, sel); err == nil {
		for _, o := range l.Items {
			left = append(left, "Deployment/"+o.Name)
		}
	}
	if l, err := env.kube.CoreV1().Services(ns).List(ctx, sel); err == nil {
		for _, o := range l.Items {
			left = append(left, "Service/"+o.Name)
		}
	}
	if l, err := env.kube.CoreV1().ConfigMaps(ns).List(ctx, sel); err == nil {
		for _, o := range l.Items {
			left = append(left, "ConfigMap/"+o.Name)
		}
	}
	if l, err := env.kube.CoreV1().Secrets(ns).List(ctx, sel); err == nil {
		for _, o := range l.Items {
			left = append(left, "Secret/"+o.Name)
		}
	}
	if l, err := env.kube.CoreV1().Pods(ns).List(ctx, sel); err == nil {
		for _, o := range l.Items {
			left = append(left, "Pod/"+o.Name)
		}
	}
	return left
}

// mediaVolume gives the Site's media claim a volume where the cluster has
// no default StorageClass (the local provider): a hostPath PersistentVolume
// bound to <site>-media, in a directory the non-root media user may write.
func mediaVolume(t *testing.T, ns, site string) {
	t.Helper()
	ctx := context.Background()
	scs, err := env.kube.StorageV1().StorageClasses().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scs.Items {
		if sc.Annotations["storageclass.kubernetes.io/is-default-class"] == "true" {
			return
		}
	}
	dir := pvDir(t, ns+"-"+site)
	pv := &corev1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: "e2e-" + ns + "-" + site + "-media"},
		Spec: corev1.PersistentVolumeSpec{
			Capacity:                      corev1.ResourceList{corev1.ResourceStorage: mustQuantity("10Gi")},
			AccessModes:                   []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce, corev1.ReadWriteMany},
			PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimDelete,
			ClaimRef:                      &corev1.ObjectReference{Namespace: ns, Name: site + "-media"},
			PersistentVolumeSource:        corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: dir}},
		},
	}
	_ = env.kube.CoreV1().PersistentVolumes().Delete(ctx, pv.Name, metav1.DeleteOptions{})
	if _, err := env.kube.CoreV1().PersistentVolumes().Create(ctx, pv, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = env.kube.CoreV1().PersistentVolumes().Delete(context.Background(), pv.Name, metav1.DeleteOptions{})
	})
}
