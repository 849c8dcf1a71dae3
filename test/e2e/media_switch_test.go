//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// TestMediaClaimToS3 moves a running Site's media from its claim to a
// bucket as docs/operator.md says: the spec change alone leaves the media
// pods on the claim (MediaReady=False, MediaCopyRequired) and the uploaded
// file served; the files are copied (here by this test from the claim's
// host directory, with the object keys the documented copy gives); the
// annotation then moves the pods to the bucket, and the file uploaded
// before the switch is served from it.
func TestMediaClaimToS3(t *testing.T) {
	if env.provider != "local" {
		t.Skip("the copy reads the claim's hostPath directory: the local provider's node is this host")
	}
	ns := namespace(t, "e2e-media-switch")
	const name, bucket = "move", "e2e-media-switch"
	s3 := startS3(t)
	s3.createBucket(t, bucket)
	s3.credentialsSecret(t, ns, name+"-s3")
	mediaVolume(t, ns, name)
	site := plainSite(t, ns, name, "E2E Move")
	ctx := context.Background()
	if err := env.c.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	waitReady(t, ns, name, 4*time.Minute)
	gw := serviceURL(t, ns, componentName(name, contract.ServiceGateway), contract.DefaultAPIPort)
	user, pass := adminCredentials(t, ns, name)
	img := testJPEG(t, 34)
	path := uploadJPEG(t, gw, http.Header{"Authorization": {"Basic " + basicAuth(user, pass)}}, "before-the-move.jpg", img)

	patch := fmt.Sprintf(`{"spec":{"media":{"storage":null,"s3":{"endpoint":%q,"bucket":%q,"prefix":%q,"pathStyle":true,"credentialsSecretRef":{"name":%q}}}}}`,
		s3.clusterURL, bucket, name, name+"-s3")
	var s sitev1.Site
	s.Name, s.Namespace = name, ns
	if err := env.c.Patch(ctx, &s, client.RawPatch(types.MergePatchType, []byte(patch))); err != nil {
		t.Fatal(err)
	}
	eventually(t, "MediaReady=False MediaCopyRequired", time.Minute, func() (bool, string) {
		if err := env.c.Get(ctx, client.ObjectKeyFromObject(&s), &s); err != nil {
			return false, err.Error()
		}
		c := meta.FindStatusCondition(s.Status.Conditions, sitev1.ComponentConditionType(contract.ServiceMedia))
		return c != nil && c.Reason == sitev1.ReasonMediaCopyRequired && c.ObservedGeneration == s.Generation &&
			s.Status.Phase == sitev1.PhasePending, fmt.Sprintf("phase %s, %+v", s.Status.Phase, c)
	})
	if f := request("GET", gw+path, nil, nil); f.Status != 200 || string(f.Body) != string(img) {
		t.Fatalf("the file uploaded before the switch while the copy is pending: %d, %d bytes", f.Status, len(f.Body))
	}

	// The documented copy: every file under the claim to <prefix>/<path>.
	dir := claimDir(t, ns, name+"-media")
	copied := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s3.put(t, bucket, name+"/"+filepath.ToSlash(rel), data)
		copied++
		return nil
	})
	if err != nil || copied == 0 {
		t.Fatalf("copy %s: %d files, %v", dir, copied, err)
	}
	t.Logf("copied %d files from the claim to the bucket", copied)
	if err := env.c.Patch(ctx, &s, client.RawPatch(types.MergePatchType,
		[]byte(`{"metadata":{"annotations":{"`+sitev1.AnnotationMediaCopiedToS3+`":"true"}}}`))); err != nil {
		t.Fatal(err)
	}
	waitReady(t, ns, name, 3*time.Minute)
	d := deployment(t, ns, componentName(name, contract.ServiceMedia))
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			t.Errorf("media still mounts claim %s after the annotation", v.PersistentVolumeClaim.ClaimName)
		}
	}
	eventually(t, "no media pod on the claim left", 2*time.Minute, func() (bool, string) {
		return rolledOut(deployment(t, ns, componentName(name, contract.ServiceMedia))), "media rolling"
	})
	if f := request("GET", gw+path, nil, nil); f.Status != 200 || string(f.Body) != string(img) {
		t.Errorf("the file uploaded before the switch, now from the bucket: %d, %d bytes", f.Status, len(f.Body))
	}
}

// claimDir is the host directory behind a bound claim: a hostPath or local
// PersistentVolume (the local provider's default class, or mediaVolume's).
func claimDir(t *testing.T, ns, claim string) string {
	t.Helper()
	ctx := context.Background()
	pvc, err := env.kube.CoreV1().PersistentVolumeClaims(ns).Get(ctx, claim, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pv, err := env.kube.CoreV1().PersistentVolumes().Get(ctx, pvc.Spec.VolumeName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	switch src := pv.Spec.PersistentVolumeSource; {
	case src.HostPath != nil:
		return src.HostPath.Path
	case src.Local != nil:
		return src.Local.Path
	}
	t.Skipf("claim %s is bound to %s, which is no host directory", claim, pv.Name)
	return ""
}
