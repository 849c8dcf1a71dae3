package controller

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
)

// maxPodMessage bounds the part of a condition message that podProblems
// adds; a kubelet message (an image pull error) can be long.
const maxPodMessage = 300

// podProblems says why the pods of a component are not available, from
// what the scheduler and the kubelet report: a container waiting (image
// pull failure, crash loop, missing config), a container that keeps
// failing, or a pod that cannot be scheduled (an unbound claim, no node
// with room). Pods with the same problem are counted together; the result
// is "" when no pod reports one (pods merely starting up). Deleted pods
// are skipped: their problems are the past.
func podProblems(pods []corev1.Pod) string {
	type problem struct {
		text  string
		count int
	}
	var problems []*problem
	add := func(text string) {
		for _, p := range problems {
			if p.text == text {
				p.count++
				return
			}
		}
		problems = append(problems, &problem{text: text, count: 1})
	}
	for i := range pods {
		pod := &pods[i]
		if pod.DeletionTimestamp != nil || pod.Status.Phase == corev1.PodSucceeded {
			continue
		}
		if text := podProblem(pod); text != "" {
			add(text)
		}
	}
	if len(problems) == 0 {
		return ""
	}
	// The most frequent first, then by text, so the message is stable.
	sort.SliceStable(problems, func(i, j int) bool {
		if problems[i].count != problems[j].count {
			return problems[i].count > problems[j].count
		}
		return problems[i].text < problems[j].text
	})
	parts := make([]string, 0, len(problems))
	for _, p := range problems {
		n := "1 pod"
		if p.count > 1 {
			n = fmt.Sprintf("%d pods", p.count)
		}
		parts = append(parts, n+": "+p.text)
	}
	msg := strings.Join(parts, "; ")
	if len(msg) > maxPodMessage {
		msg = strings.ToValidUTF8(msg[:maxPodMessage], "") + "…"
	}
	return msg
}

// podProblem is the first problem one pod reports, or "".
func podProblem(pod *corev1.Pod) string {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse && c.Reason != "" {
			return joinReason(c.Reason, c.Message)
		}
	}
	statuses := slices.Concat(pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses)
	for _, cs := range statuses {
		if w := cs.State.Waiting; w != nil && w.Reason != "" && w.Reason != "ContainerCreating" && w.Reason != "PodInitializing" {
			text := joinReason(w.Reason, w.Message)
			if t := cs.LastTerminationState.Terminated; t != nil && w.Reason == "CrashLoopBackOff" {
				// The back-off message says nothing of why it crashed.
				text = fmt.Sprintf("CrashLoopBackOff (container %s exited with code %d, %s)", cs.Name, t.ExitCode, orDefault(t.Reason, "Error"))
			}
			return text
		}
	}
	for _, cs := range statuses {
		if t := cs.State.Terminated; t != nil && t.ExitCode != 0 {
			return fmt.Sprintf("container %s exited with code %d (%s)", cs.Name, t.ExitCode, orDefault(t.Reason, "Error"))
		}
	}
	return ""
}

func joinReason(reason, message string) string {
	message = strings.Join(strings.Fields(message), " ")
	if message == "" {
		return reason
	}
	return reason + " (" + message + ")"
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// componentPodProblems lists the component's pods, uncached and only while
// the component is not available: a cache would mean watching every pod
// of the cluster for a message needed only when something is wrong.
func (r *SiteReconciler) componentPodProblems(ctx context.Context, site *sitev1.Site, component string) (string, error) {
	var pods corev1.PodList
	if err := r.APIReader.List(ctx, &pods, client.InNamespace(site.Namespace),
		client.MatchingLabels(resources.SelectorLabels(site, component))); err != nil {
		return "", fmt.Errorf("list the pods of %s: %w", component, err)
	}
	return podProblems(pods.Items), nil
}
