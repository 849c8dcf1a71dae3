//go:build e2e

package e2e

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"siteplane.dev/services/pkg/contract"
)

// versitygw, the S3-compatible server the media service's tests use, runs in
// the cluster from the image `E2E_IMAGES=1 make images` builds
// (hack/cluster/versitygw.sh: the same Deployment as its manifests), with
// its buckets in an emptyDir.
const (
	s3Namespace = "e2e-s3"
	s3Name      = "versitygw"
	s3Image     = "siteplane.local/versitygw:1.8.0"
	s3Port      = 7070
	s3Region    = "us-east-1"
)

// s3Server is the running versitygw: its root credentials and where the
// host and the pods reach it.
type s3Server struct {
	accessKeyID, secretAccessKey string
	hostURL                      string // from this test process
	clusterURL                   string // from the pods (the Service's DNS name)
}

// startS3 deploys versitygw in its own namespace (once per cluster: a rerun
// finds it and its credentials Secret) and waits until it serves.
func startS3(t *testing.T) *s3Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	k := env.kube
	if _, err := k.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: s3Namespace}},
		metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	sec, err := k.CoreV1().Secrets(s3Namespace).Get(ctx, s3Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		sec, err = k.CoreV1().Secrets(s3Namespace).Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: s3Name},
			Data: map[string][]byte{contract.S3AccessKeyIDSecretKey: []byte("e2e-" + randomHex(4)),
				contract.S3SecretAccessKeySecretKey: []byte(randomHex(20))},
		}, metav1.CreateOptions{})
	}
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{"app": s3Name}
	secretEnv := func(name, key string) corev1.EnvVar {
		return corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
			LocalObjectReference: corev1.LocalObjectReference{Name: s3Name}, Key: key}}}
	}
	dep := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: s3Name, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					SecurityContext: &corev1.PodSecurityContext{RunAsUser: ptr.To[int64](65532), RunAsGroup: ptr.To[int64](65532),
						FSGroup: ptr.To[int64](65532), RunAsNonRoot: ptr.To(true)},
					Containers: []corev1.Container{{
						Name: s3Name, Image: s3Image, ImagePullPolicy: corev1.PullNever,
						Args: []string{"--port", fmt.Sprintf(":%d", s3Port), "--region", s3Region, "posix", "/data"},
						Env: []corev1.EnvVar{secretEnv("ROOT_ACCESS_KEY_ID", contract.S3AccessKeyIDSecretKey),
							secretEnv("ROOT_SECRET_ACCESS_KEY", contract.S3SecretAccessKeySecretKey)},
						Ports: []corev1.ContainerPort{{Name: "s3", ContainerPort: s3Port}},
						ReadinessProbe: &corev1.Probe{PeriodSeconds: 1,
							ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromString("s3")}}},
						VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
					}},
					Volumes: []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
				},
			},
		},
	}
	if _, err := k.AppsV1().Deployments(s3Namespace).Create(ctx, dep, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: s3Name},
		Spec: corev1.ServiceSpec{Selector: labels,
			Ports: []corev1.ServicePort{{Name: "s3", Port: s3Port, TargetPort: intstr.FromString("s3")}}},
	}
	if _, err := k.CoreV1().Services(s3Namespace).Create(ctx, svc, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	eventually(t, "versitygw ready", 90*time.Second, func() (bool, string) {
		d, err := k.AppsV1().Deployments(s3Namespace).Get(ctx, s3Name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return d.Status.ReadyReplicas >= 1, fmt.Sprintf("%d ready", d.Status.ReadyReplicas)
	})
	return &s3Server{
		accessKeyID:     string(sec.Data[contract.S3AccessKeyIDSecretKey]),
		secretAccessKey: string(sec.Data[contract.S3SecretAccessKeySecretKey]),
		hostURL:         serviceURL(t, s3Namespace, s3Name, s3Port),
		clusterURL:      fmt.Sprintf("http://%s.%s.svc:%d", s3Name, s3Namespace, s3Port),
	}
}

// credentialsSecret copies the root credentials into a Secret of ns for a
// Site's spec.media.s3 (the contract's key names, the CRD's defaults).
func (s *s3Server) credentialsSecret(t *testing.T, ns, name string) {
	t.Helper()
	if _, err := env.kube.CoreV1().Secrets(ns).Create(context.Background(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Data: map[string][]byte{contract.S3AccessKeyIDSecretKey: []byte(s.accessKeyID),
			contract.S3SecretAccessKeySecretKey: []byte(s.secretAccessKey)},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// do sends one path-style S3 request signed with AWS Signature Version 4.
// query must be in canonical form already (sorted, escaped).
func (s *s3Server) do(method, path, query string, body []byte) response {
	now := time.Now().UTC()
	stamp, day := now.Format("20060102T150405Z"), now.Format("20060102")
	payloadHash := sha256Hex(string(body))
	host := strings.TrimPrefix(s.hostURL, "http://")
	canonical := strings.Join([]string{method, path, query,
		"host:" + host, "x-amz-content-sha256:" + payloadHash, "x-amz-date:" + stamp, "",
		"host;x-amz-content-sha256;x-amz-date", payloadHash}, "\n")
	scope := day + "/" + s3Region + "/s3/aws4_request"
	toSign := strings.Join([]string{"AWS4-HMAC-SHA256", stamp, scope, sha256Hex(canonical)}, "\n")
	key := []byte("AWS4" + s.secretAccessKey)
	for _, part := range []string{day, s3Region, "s3", "aws4_request"} {
		key = hmacSHA256(key, part)
	}
	sig := hex.EncodeToString(hmacSHA256(key, toSign))
	u := s.hostURL + path
	if query != "" {
		u += "?" + query
	}
	return requestOnce(method, u, body, http.Header{
		"X-Amz-Date":           {stamp},
		"X-Amz-Content-Sha256": {payloadHash},
		"Authorization": {fmt.Sprintf("AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=%s",
			s.accessKeyID, scope, sig)},
	})
}

func sha256Hex(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }

func hmacSHA256(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

// createBucket makes an empty bucket (an existing one of ours is fine).
func (s *s3Server) createBucket(t *testing.T, bucket string) {
	t.Helper()
	// The Service may refuse connections for a moment after the pod is
	// ready, until kube-proxy has its endpoint.
	eventually(t, "create bucket "+bucket, 30*time.Second, func() (bool, string) {
		r := s.do("PUT", "/"+bucket, "", nil)
		return r.Status == 200 || strings.Contains(string(r.Body), "BucketAlreadyOwnedByYou"), r.String()
	})
}

var s3Key = regexp.MustCompile(`<Key>([^<]+)</Key>`)

// keys lists up to 1,000 object keys of bucket under prefix.
func (s *s3Server) keys(t *testing.T, bucket, prefix string) []string {
	t.Helper()
	r := s.do("GET", "/"+bucket, "list-type=2&prefix="+strings.ReplaceAll(prefix, "/", "%2F"), nil)
	if r.Status != 200 {
		t.Fatalf("list bucket %s: %s", bucket, r)
	}
	var keys []string
	for _, m := range s3Key.FindAllStringSubmatch(string(r.Body), -1) {
		keys = append(keys, m[1])
	}
	return keys
}

// put stores one object.
func (s *s3Server) put(t *testing.T, bucket, key string, data []byte) {
	t.Helper()
	if r := s.do("PUT", "/"+bucket+"/"+key, "", data); r.Status != 200 {
		t.Fatalf("put %s/%s: %s", bucket, key, r)
	}
}
