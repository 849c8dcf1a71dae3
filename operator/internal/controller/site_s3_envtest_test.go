package controller

import (
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// validS3 is an S3 setting the CRD accepts, naming the Secret "s3-creds".
func validS3() *sitev1.MediaS3Spec {
	return &sitev1.MediaS3Spec{
		Endpoint:             "http://minio.storage:9000",
		Bucket:               "site-media",
		PathStyle:            true,
		CredentialsSecretRef: sitev1.S3CredentialsSecretRef{Name: "s3-creds"},
	}
}

// waitSecretsReason returns the SecretsReady condition once its reason is want.
func waitSecretsReason(t *testing.T, ns, name, want string) *metav1.Condition {
	t.Helper()
	return waitReason(t, ns, name, sitev1.ConditionSecretsReady, want)
}

// waitReason returns the condType condition once its reason is want.
func waitReason(t *testing.T, ns, name, condType, want string) *metav1.Condition {
	t.Helper()
	var c *metav1.Condition
	eventually(t, condType+" reason "+want, func() error {
		s := getSite(t, ns, name)
		c = meta.FindStatusCondition(s.Status.Conditions, condType)
		if c == nil || c.Reason != want || c.ObservedGeneration != s.Generation {
			return fmt.Errorf("%s %+v", condType, c)
		}
		return nil
	})
	return c
}

func containerEnv(d *appsv1.Deployment) map[string]string {
	m := map[string]string{}
	for _, e := range d.Spec.Template.Spec.Containers[0].Env {
		m[e.Name] = e.Value
	}
	return m
}

// TestMediaS3 follows an S3 site from a missing credentials Secret (a clear
// condition, the Deployment written, no claim) to Ready with three media
// replicas, then rolls the media pods, and only them, on new credentials.
func TestMediaS3(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "pics-db")
	site := newSite(ns, "pics")
	site.Spec.Media.S3 = validS3()
	site.Spec.Media.S3.Prefix = "pics/"
	site.Spec.Components.Media.Replicas = ptr.To[int32](3)
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatalf("an S3 site with three media replicas is refused: %v", err)
	}

	// No credentials Secret: Pending with the reason, never a crash loop;
	// the Deployment exists (its pods wait for the volume).
	c := waitSecretsReason(t, ns, "pics", sitev1.ReasonMediaCredentialsSecretMissing)
	if c.Status != metav1.ConditionFalse || c.Message != `media S3 credentials Secret "s3-creds" does not exist` {
		t.Errorf("SecretsReady %+v", c)
	}
	if s := getSite(t, ns, "pics"); s.Status.Phase != sitev1.PhasePending {
		t.Errorf("phase %q, want Pending", s.Status.Phase)
	}
	var media appsv1.Deployment
	eventually(t, "the media Deployment", func() error { return k8s.Get(ctx, key(ns, "pics-media"), &media) })
	env := containerEnv(&media)
	want := map[string]string{
		contract.EnvMediaStorage:               contract.MediaStorageS3,
		contract.EnvMediaS3Endpoint:            "http://minio.storage:9000",
		contract.EnvMediaS3Bucket:              "site-media",
		contract.EnvMediaS3Region:              contract.DefaultMediaS3Region,
		contract.EnvMediaS3Prefix:              "pics/",
		contract.EnvMediaS3PathStyle:           "true",
		contract.EnvMediaS3AccessKeyIDFile:     contract.MediaS3MountPath + "/" + contract.S3AccessKeyIDSecretKey,
		contract.EnvMediaS3SecretAccessKeyFile: contract.MediaS3MountPath + "/" + contract.S3SecretAccessKeySecretKey,
	}
	for k, v := range want {
		if env[k] != v {
			t.Errorf("media env %s = %q, want %q", k, env[k], v)
		}
	}
	if _, ok := env[contract.EnvMediaDir]; ok {
		t.Errorf("%s set with S3", contract.EnvMediaDir)
	}
	if *media.Spec.Replicas != 3 || media.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
		t.Errorf("media replicas %d strategy %q", *media.Spec.Replicas, media.Spec.Strategy.Type)
	}
	// Three replicas get a PodDisruptionBudget, as any scaled component.
	eventually(t, "the media PDB", func() error { return k8s.Get(ctx, key(ns, "pics-media"), &policyv1.PodDisruptionBudget{}) })

	// A Secret with one key only: the missing key is named.
	creds := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s3-creds", Namespace: ns},
		Data: map[string][]byte{contract.S3AccessKeyIDSecretKey: []byte("AKIDEXAMPLE")}}
	if err := k8s.Create(ctx, creds); err != nil {
		t.Fatal(err)
	}
	c = waitSecretsReason(t, ns, "pics", sitev1.ReasonMediaCredentialsKeyMissing)
	if !strings.Contains(c.Message, `media S3 credentials Secret "s3-creds" has no key "secret-access-key"`) ||
		strings.Contains(c.Message, "AKIDEXAMPLE") {
		t.Errorf("SecretsReady message %q", c.Message)
	}

	creds.Data[contract.S3SecretAccessKeySecretKey] = []byte("secret-1")
	if err := k8s.Update(ctx, creds); err != nil {
		t.Fatal(err)
	}
	waitCondition(t, ns, "pics", sitev1.ConditionSecretsReady, metav1.ConditionTrue)
	setAllAvailable(t, ns, "pics")
	s := waitCondition(t, ns, "pics", sitev1.ConditionReady, metav1.ConditionTrue)
	if s.Status.Phase != sitev1.PhaseReady {
		t.Errorf("phase %q", s.Status.Phase)
	}

	// No claim was ever written.
	if err := get(t, ns, resources.MediaPVCName("pics"), &corev1.PersistentVolumeClaim{}); !apierrors.IsNotFound(err) {
		t.Errorf("media claim of an S3 site: %v", err)
	}
	// The media pods may reach the endpoint's port.
	var np networkingv1.NetworkPolicy
	if err := get(t, ns, "pics-media", &np); err != nil {
		t.Fatal(err)
	}
	if !egressAllowsPort(np, 9000) {
		t.Errorf("media NetworkPolicy does not let port 9000 out: %+v", np.Spec.Egress)
	}

	// New credentials roll the media pods and nothing else.
	hashes := func() map[string]string {
		out := map[string]string{}
		for _, c := range contract.Services {
			var d appsv1.Deployment
			_ = get(t, ns, resources.ComponentName("pics", c), &d)
			out[c] = d.Spec.Template.Annotations[resources.AnnotationSecretHash]
		}
		return out
	}
	before := hashes()
	creds.Data[contract.S3SecretAccessKeySecretKey] = []byte("secret-2")
	if err := k8s.Update(ctx, creds); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the media pods to roll", func() error {
		if hashes()[contract.ServiceMedia] == before[contract.ServiceMedia] {
			return fmt.Errorf("media secret hash unchanged")
		}
		return nil
	})
	after := hashes()
	for _, c := range []string{contract.ServiceGateway, contract.ServiceContent, contract.ServiceMarketplace} {
		if after[c] != before[c] {
			t.Errorf("%s rolled on new S3 credentials", c)
		}
	}

	// Media may also be autoscaled beyond one pod.
	updateSite(t, ns, "pics", func(s *sitev1.Site) {
		s.Spec.Components.Media.Autoscaling = &sitev1.AutoscalingSpec{MaxReplicas: 6}
	})
	eventually(t, "the media HorizontalPodAutoscaler", func() error {
		return k8s.Get(ctx, key(ns, "pics-media"), &autoscalingv2.HorizontalPodAutoscaler{})
	})
}

func egressAllowsPort(np networkingv1.NetworkPolicy, port int) bool {
	for _, e := range np.Spec.Egress {
		for _, p := range e.Ports {
			if p.Port != nil && p.Port.IntValue() == port && len(e.To) == 0 {
				return true
			}
		}
	}
	return false
}

// TestMediaCustomCredentialKeys: a bucket Secret written by a provisioner
// (Rook's ObjectBucketClaim names its keys AWS_ACCESS_KEY_ID and
// AWS_SECRET_ACCESS_KEY) is used as it is.
func TestMediaCustomCredentialKeys(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "obc-db")
	creds := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "obc-bucket", Namespace: ns},
		Data: map[string][]byte{"AWS_ACCESS_KEY_ID": []byte("id"), "AWS_SECRET_ACCESS_KEY": []byte("key")}}
	if err := k8s.Create(ctx, creds); err != nil {
		t.Fatal(err)
	}
	site := newSite(ns, "obc")
	site.Spec.Media.S3 = validS3()
	site.Spec.Media.S3.CredentialsSecretRef = sitev1.S3CredentialsSecretRef{Name: "obc-bucket",
		AccessKeyIDKey: "AWS_ACCESS_KEY_ID", SecretAccessKeyKey: "AWS_SECRET_ACCESS_KEY"}
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	waitCondition(t, ns, "obc", sitev1.ConditionSecretsReady, metav1.ConditionTrue)
	var d appsv1.Deployment
	eventually(t, "the media Deployment", func() error { return k8s.Get(ctx, key(ns, "obc-media"), &d) })
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Secret == nil || v.Secret.SecretName != "obc-bucket" {
			continue
		}
		items := map[string]string{}
		for _, it := range v.Secret.Items {
			items[it.Key] = it.Path
		}
		if items["AWS_ACCESS_KEY_ID"] != contract.S3AccessKeyIDSecretKey || items["AWS_SECRET_ACCESS_KEY"] != contract.S3SecretAccessKeySecretKey {
			t.Errorf("credential items %v", items)
		}
		return
	}
	t.Errorf("no volume of Secret obc-bucket: %+v", d.Spec.Template.Spec.Volumes)
}

// TestMediaSwitchToS3KeepsTheClaim: a claim site may move to S3 (the rules
// that freeze the claim do not apply across the switch), but the media pods
// stay on the claim, with MediaReady False (MediaCopyRequired, phase
// Pending), until the Site says the files were copied
// (siteplane.dev/media-copied-to-s3=true); then they move to the bucket.
// The operator stops writing the claim but never deletes it.
func TestMediaSwitchToS3KeepsTheClaim(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "move-db")
	if err := k8s.Create(ctx, newSite(ns, "move")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the media claim", func() error {
		return k8s.Get(ctx, key(ns, "move-media"), &corev1.PersistentVolumeClaim{})
	})
	// Two replicas on the claim are refused; with the switch to S3 in the
	// same update they are accepted.
	err := tryUpdate(t, ns, "move", func(s *sitev1.Site) { s.Spec.Components.Media.Replicas = ptr.To[int32](2) })
	if err == nil || !strings.Contains(err.Error(), "needs media.s3 or media.storage.accessMode ReadWriteMany") {
		t.Errorf("two replicas on the default claim: %v", err)
	}
	if err := tryUpdate(t, ns, "move", func(s *sitev1.Site) {
		s.Spec.Media = sitev1.MediaSpec{S3: validS3()}
		s.Spec.Components.Media.Replicas = ptr.To[int32](2)
	}); err != nil {
		t.Fatalf("switch to S3 refused: %v", err)
	}
	if err := k8s.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s3-creds", Namespace: ns},
		Data: map[string][]byte{contract.S3AccessKeyIDSecretKey: []byte("AKID"), contract.S3SecretAccessKeySecretKey: []byte("s")}}); err != nil {
		t.Fatal(err)
	}
	c := waitReason(t, ns, "move", sitev1.ComponentConditionType(contract.ServiceMedia), sitev1.ReasonMediaCopyRequired)
	if c.Status != metav1.ConditionFalse || !strings.Contains(c.Message, `names bucket "site-media"`) ||
		!strings.Contains(c.Message, "kubectl annotate site move siteplane.dev/media-copied-to-s3=true") {
		t.Errorf("MediaReady while the files are on the claim: %+v", c)
	}
	if s := getSite(t, ns, "move"); s.Status.Phase != sitev1.PhasePending {
		t.Errorf("phase %s while the switch waits for the copy, want Pending", s.Status.Phase)
	}
	var held appsv1.Deployment
	if err := get(t, ns, "move-media", &held); err != nil {
		t.Fatal(err)
	}
	if containerEnv(&held)[contract.EnvMediaS3Bucket] != "" || *held.Spec.Replicas != 1 {
		t.Errorf("the media Deployment changed before the files were copied: env %v, %d replicas", containerEnv(&held), *held.Spec.Replicas)
	}
	if err := tryUpdate(t, ns, "move", func(s *sitev1.Site) {
		s.Annotations = map[string]string{sitev1.AnnotationMediaCopiedToS3: "true"}
	}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the media Deployment on S3", func() error {
		var d appsv1.Deployment
		if err := k8s.Get(ctx, key(ns, "move-media"), &d); err != nil {
			return err
		}
		if containerEnv(&d)[contract.EnvMediaS3Bucket] != "site-media" {
			return fmt.Errorf("not on S3 yet")
		}
		for _, v := range d.Spec.Template.Spec.Volumes {
			if v.PersistentVolumeClaim != nil {
				return fmt.Errorf("still mounts claim %s", v.PersistentVolumeClaim.ClaimName)
			}
		}
		return nil
	})
	settle(t, ns, "move")
	var pvc corev1.PersistentVolumeClaim
	if err := get(t, ns, "move-media", &pvc); err != nil || !pvc.DeletionTimestamp.IsZero() {
		t.Errorf("the old claim was removed: %v %v", err, pvc.DeletionTimestamp)
	}
}
