package controller

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
)

// TestComponentConditionSaysWhy: a component whose pod cannot pull its
// image says so in its condition, not only "0/1 replicas". (envtest runs
// no kubelet, so the test writes the pod status a kubelet would.)
func TestComponentConditionSaysWhy(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "why-db")
	if err := k8s.Create(ctx, newSite(ns, "why")); err != nil {
		t.Fatal(err)
	}
	s := waitCondition(t, ns, "why", sitev1.ConditionRoutesReady, metav1.ConditionTrue)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "why-content-abc", Namespace: ns, Labels: resources.SelectorLabels(s, "content")},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "content", Image: "example.test/siteplane/content:nope"}}},
	}
	if err := k8s.Create(ctx, pod); err != nil {
		t.Fatal(err)
	}
	pod.Status = corev1.PodStatus{Phase: corev1.PodPending, ContainerStatuses: []corev1.ContainerStatus{{
		Name: "content", Image: pod.Spec.Containers[0].Image,
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff",
			Message: `Back-off pulling image "example.test/siteplane/content:nope"`}}}}}
	if err := k8s.Status().Update(ctx, pod); err != nil {
		t.Fatal(err)
	}
	// The Deployment controller has acted on the generation: 0 available.
	setDeploymentAvailable(t, ns, "why-content", false)
	poke(t, ns, "why")
	eventually(t, "the pull failure in ContentReady", func() error {
		c := meta.FindStatusCondition(getSite(t, ns, "why").Status.Conditions, "ContentReady")
		if c == nil || c.Status != metav1.ConditionFalse || !strings.Contains(c.Message, `1 pod: ImagePullBackOff (Back-off pulling image "example.test/siteplane/content:nope")`) {
			return fmt.Errorf("ContentReady %+v", c)
		}
		return nil
	})
	// Other components' conditions do not borrow the content pod's problem.
	c := meta.FindStatusCondition(getSite(t, ns, "why").Status.Conditions, "GatewayReady")
	if c == nil || strings.Contains(c.Message, "ImagePullBackOff") {
		t.Errorf("GatewayReady %+v", c)
	}
}
