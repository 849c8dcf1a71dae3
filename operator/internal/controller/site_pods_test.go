package controller

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func waitingPod(reason, message string) corev1.Pod {
	return corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodPending, ContainerStatuses: []corev1.ContainerStatus{{
		Name: "content", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: message}}}}}}
}

func TestPodProblems(t *testing.T) {
	pullFailed := waitingPod("ImagePullBackOff", `Back-off pulling image "ghcr.io/siteplane/content:v9"`)
	crashing := corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{{
		Name:                 "content",
		State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 5m0s restarting failed container"}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error"}},
	}}}}
	unbound := corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{
		Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable",
		Message: "0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.\n preemption: 0/1 nodes are available"}}}}
	initWaiting := corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodPending, InitContainerStatuses: []corev1.ContainerStatus{{
		Name: "init", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CreateContainerConfigError", Message: `secret "blog-db" not found`}}}}}}
	exited := corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodFailed, ContainerStatuses: []corev1.ContainerStatus{{
		Name: "media", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled"}}}}}}
	starting := waitingPod("ContainerCreating", "")
	running := corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{{
		Name: "content", Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}}}
	gone := waitingPod("ErrImagePull", "x")
	gone.DeletionTimestamp = &metav1.Time{}

	tests := []struct {
		name string
		pods []corev1.Pod
		want string
	}{
		{"no pods", nil, ""},
		{"healthy and starting pods", []corev1.Pod{running, starting}, ""},
		{"image pull failure", []corev1.Pod{pullFailed, running},
			`1 pod: ImagePullBackOff (Back-off pulling image "ghcr.io/siteplane/content:v9")`},
		{"same problem counted once", []corev1.Pod{pullFailed, pullFailed, crashing},
			`2 pods: ImagePullBackOff (Back-off pulling image "ghcr.io/siteplane/content:v9"); 1 pod: CrashLoopBackOff (container content exited with code 1, Error)`},
		{"unbound claim, whitespace folded", []corev1.Pod{unbound},
			"1 pod: Unschedulable (0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/1 nodes are available)"},
		{"init container", []corev1.Pod{initWaiting}, `1 pod: CreateContainerConfigError (secret "blog-db" not found)`},
		{"terminated with an error", []corev1.Pod{exited}, "1 pod: container media exited with code 137 (OOMKilled)"},
		{"deleted pod ignored", []corev1.Pod{gone}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := podProblems(tt.pods); got != tt.want {
				t.Errorf("podProblems =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}

	long := waitingPod("ErrImagePull", strings.Repeat("é", 400))
	if got := podProblems([]corev1.Pod{long}); len(got) > maxPodMessage+len("…") || !strings.HasSuffix(got, "…") || !strings.HasPrefix(got, "1 pod: ErrImagePull (") {
		t.Errorf("long message not bounded: %d bytes %q", len(got), got[:40])
	}
}
