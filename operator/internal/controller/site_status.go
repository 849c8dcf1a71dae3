package controller

import (
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// componentCondition says whether a component's Deployment has rolled out
// its current generation with every desired replica available.
func componentCondition(component string, d *appsv1.Deployment, desired int32) metav1.Condition {
	c := metav1.Condition{Type: sitev1.ComponentConditionType(component), Status: metav1.ConditionFalse, Reason: sitev1.ReasonProgressing}
	st := d.Status
	for _, dc := range st.Conditions {
		if dc.Type == appsv1.DeploymentProgressing && dc.Status == corev1.ConditionFalse {
			c.Reason = sitev1.ReasonDeploymentFailed
			c.Message = fmt.Sprintf("Deployment %s: %s", d.Name, dc.Message)
			return c
		}
		if dc.Type == appsv1.DeploymentReplicaFailure && dc.Status == corev1.ConditionTrue {
			c.Reason = sitev1.ReasonDeploymentFailed
			c.Message = fmt.Sprintf("Deployment %s: %s", d.Name, dc.Message)
			return c
		}
	}
	switch {
	case st.ObservedGeneration < d.Generation:
		c.Message = fmt.Sprintf("Deployment %s: generation %d not yet observed", d.Name, d.Generation)
	case st.UpdatedReplicas < desired || st.AvailableReplicas < desired || st.Replicas > st.UpdatedReplicas:
		c.Message = fmt.Sprintf("Deployment %s: %d/%d replicas updated and available", d.Name, min(st.UpdatedReplicas, st.AvailableReplicas), desired)
	case desired == 0:
		c.Status, c.Reason, c.Message = metav1.ConditionTrue, sitev1.ReasonScaledToZero, fmt.Sprintf("Deployment %s is scaled to zero", d.Name)
	default:
		c.Status, c.Reason = metav1.ConditionTrue, sitev1.ReasonAvailable
		c.Message = fmt.Sprintf("Deployment %s: %d/%d replicas available", d.Name, st.AvailableReplicas, desired)
	}
	return c
}

// stallAfter is how long a Site may stay not Ready, its spec unchanged,
// before Ready says Stalled and the phase turns Degraded: a rollout, an
// image pull or a claim binding on a working cluster takes seconds to a
// couple of minutes, so ten minutes means something needs a person.
const stallAfter = 10 * time.Minute

// updateReadiness sets the aggregated Ready condition, the phase and the
// ready-components count from the other conditions, and reports whether
// the site is ready.
func (r *SiteReconciler) updateReadiness(site *sitev1.Site) bool {
	types := []string{sitev1.ConditionSecretsReady, sitev1.ConditionRoutesReady}
	for _, c := range contract.Services {
		types = append(types, sitev1.ComponentConditionType(c))
	}
	types = append(types, sitev1.ConditionExposed)
	if site.Spec.Database.UsesCNPG() {
		types = append(types, sitev1.ConditionDatabaseReady)
	}
	var notReady, why []string
	failed, degraded, pending := false, false, false
	available := 0
	for _, t := range types {
		c := findCondition(site, t)
		if c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == site.Generation {
			if t != sitev1.ConditionSecretsReady && t != sitev1.ConditionRoutesReady && t != sitev1.ConditionExposed && t != sitev1.ConditionDatabaseReady {
				available++
			}
			continue
		}
		notReady = append(notReady, t)
		if c == nil {
			continue
		}
		why = append(why, t+": "+c.Message)
		switch c.Reason {
		case sitev1.ReasonInvalidSettings:
			failed = true
		case sitev1.ReasonDeploymentFailed:
			degraded = true
		case sitev1.ReasonDatabaseSecretMissing, sitev1.ReasonDatabaseKeyMissing, sitev1.ReasonGatewayAPIMissing,
			sitev1.ReasonMediaCredentialsSecretMissing, sitev1.ReasonMediaCredentialsKeyMissing,
			sitev1.ReasonAdminPasswordSecretMissing, sitev1.ReasonAdminPasswordKeyMissing,
			sitev1.ReasonCNPGNotInstalled, sitev1.ReasonDatabaseClusterMissing, sitev1.ReasonMediaCopyRequired:
			pending = true
		}
	}
	site.Status.Components = fmt.Sprintf("%d/%d", available, len(contract.Services))
	ready := metav1.Condition{Type: sitev1.ConditionReady, Status: metav1.ConditionTrue, Reason: sitev1.ReasonAllReady,
		Message: "every component is available, the site is configured and answers through its Service"}
	if len(notReady) > 0 {
		ready.Status, ready.Reason = metav1.ConditionFalse, sitev1.ReasonComponentsNotReady
		// The blocking conditions' own messages, so `kubectl describe site`
		// explains a waiting Site without a look at each condition or log.
		ready.Message = "not ready: " + strings.Join(notReady, ", ")
		if len(why) > 0 {
			ready.Message += " (" + strings.Join(why, "; ") + ")"
		}
		if since := r.notReadySince(site); !since.IsZero() && r.Clock.Since(since) >= stallAfter && !failed && !pending {
			ready.Reason = sitev1.ReasonStalled
			// Minutes only: the message changes, and the status is written,
			// once a minute at most while the Site stays stalled.
			ready.Message = fmt.Sprintf("not ready for %s: %s", r.Clock.Since(since).Truncate(time.Minute), ready.Message[len("not ready: "):])
			degraded = true
		}
	}
	setCondition(site, ready)
	switch {
	case len(notReady) == 0:
		site.Status.Phase = sitev1.PhaseReady
	case failed:
		site.Status.Phase = sitev1.PhaseFailed
	case pending:
		site.Status.Phase = sitev1.PhasePending
	case degraded:
		site.Status.Phase = sitev1.PhaseDegraded
	default:
		site.Status.Phase = sitev1.PhaseProvisioning
	}
	return len(notReady) == 0
}

// notReadySince is when Ready last turned False, or zero when it is True
// or unknown.
func (r *SiteReconciler) notReadySince(site *sitev1.Site) time.Time {
	c := findCondition(site, sitev1.ConditionReady)
	if c == nil || c.Status == metav1.ConditionTrue {
		return time.Time{}
	}
	return c.LastTransitionTime.Time
}

// maxRejectionMessage bounds the API server's message copied into Ready.
const maxRejectionMessage = 1024

// reportRejection makes a refusal by the API server visible on the Site:
// Ready=False (ApplyRejected, with the server's message) and phase
// Degraded, so `kubectl get site` says why nothing appears instead of
// leaving it to the operator's log. Transient failures (timeouts,
// throttling, conflicts) leave the status alone; the pass is retried
// either way, and the next complete pass recomputes Ready.
func reportRejection(site *sitev1.Site, err error) {
	if !apierrors.IsForbidden(err) && !apierrors.IsInvalid(err) && !apierrors.IsBadRequest(err) {
		return
	}
	msg := err.Error()
	if len(msg) > maxRejectionMessage {
		// Cut at a byte count, then drop a rune the cut may have split.
		msg = strings.ToValidUTF8(msg[:maxRejectionMessage], "") + "…"
	}
	setCondition(site, metav1.Condition{Type: sitev1.ConditionReady, Status: metav1.ConditionFalse,
		Reason: sitev1.ReasonApplyRejected, Message: msg})
	site.Status.Phase = sitev1.PhaseDegraded
}

// recordTransitions emits an event for every phase change, and for a
// change of Ready's reason within a phase (Provisioning → Stalled), never
// on a pass that changed neither. The note carries Ready's reason and
// message, so `kubectl events` alone tells the story of a Site.
func (r *SiteReconciler) recordTransitions(before, after *sitev1.Site) {
	readyBefore, readyAfter := findCondition(before, sitev1.ConditionReady), findCondition(after, sitev1.ConditionReady)
	reasonChanged := readyAfter != nil && (readyBefore == nil || readyBefore.Reason != readyAfter.Reason)
	if before.Status.Phase == after.Status.Phase && !reasonChanged {
		return
	}
	reason, msg := "", ""
	if readyAfter != nil {
		reason, msg = readyAfter.Reason, readyAfter.Message
	}
	switch after.Status.Phase {
	case sitev1.PhaseReady:
		r.event(after, nil, corev1.EventTypeNormal, "Ready", "Reconcile", "site is ready at %s (Service %s)", after.Status.URL, after.Status.Endpoint)
	case sitev1.PhaseDegraded, sitev1.PhaseFailed:
		r.event(after, nil, corev1.EventTypeWarning, string(after.Status.Phase), "Reconcile", "site is %s (%s): %s", after.Status.Phase, reason, msg)
	case sitev1.PhaseSuspended:
		r.event(after, nil, corev1.EventTypeNormal, "Suspended", "Reconcile", "reconciliation suspended")
	case sitev1.PhasePending, sitev1.PhaseProvisioning:
		r.event(after, nil, corev1.EventTypeNormal, string(after.Status.Phase), "Reconcile", "site is %s (%s): %s", after.Status.Phase, reason, msg)
	}
}

func findCondition(site *sitev1.Site, t string) *metav1.Condition {
	return meta.FindStatusCondition(site.Status.Conditions, t)
}

// statusEqual compares statuses semantically. The times the operator sets
// are cut to seconds (ptrTime) as the API server stores them, so a status
// read back compares equal to the one computed from it.
func statusEqual(a, b sitev1.SiteStatus) bool {
	return equality.Semantic.DeepEqual(a, b)
}

// event records an event about site. related names the child it concerns:
// the recorder folds events of the same regarding object, related object,
// reason and action into one series and keeps only the first note, so two
// Secrets generated in one pass would otherwise show as one event naming
// one Secret.
func (r *SiteReconciler) event(site *sitev1.Site, related *corev1.ObjectReference, eventType, reason, action, note string, args ...any) {
	if r.Recorder == nil {
		return
	}
	var rel runtime.Object
	if related != nil {
		rel = related
	}
	r.Recorder.Eventf(site, rel, eventType, reason, action, note, args...)
}

// secretRef refers to a Secret of site, for an event's related object.
func secretRef(site *sitev1.Site, name string) *corev1.ObjectReference {
	return &corev1.ObjectReference{APIVersion: "v1", Kind: "Secret", Namespace: site.Namespace, Name: name}
}

// deploymentRef refers to a Deployment of site.
func deploymentRef(site *sitev1.Site, name string) *corev1.ObjectReference {
	return &corev1.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: site.Namespace, Name: name}
}
