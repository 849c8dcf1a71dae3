package controller

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// These unit tests need no API server; they run with or without envtest.

func TestComponentCondition(t *testing.T) {
	dep := func(gen, observed int64, replicas, updated, available int32, conds ...appsv1.DeploymentCondition) *appsv1.Deployment {
		d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "s-content", Generation: gen}}
		d.Status = appsv1.DeploymentStatus{ObservedGeneration: observed, Replicas: replicas, UpdatedReplicas: updated,
			AvailableReplicas: available, Conditions: conds}
		return d
	}
	tests := []struct {
		name       string
		d          *appsv1.Deployment
		desired    int32
		wantStatus metav1.ConditionStatus
		wantReason string
	}{
		{"all available", dep(2, 2, 2, 2, 2), 2, metav1.ConditionTrue, sitev1.ReasonAvailable},
		{"new generation not observed", dep(3, 2, 2, 2, 2), 2, metav1.ConditionFalse, sitev1.ReasonProgressing},
		{"rolling: old pods remain", dep(2, 2, 3, 2, 2), 2, metav1.ConditionFalse, sitev1.ReasonProgressing},
		{"not enough available", dep(1, 1, 2, 2, 1), 2, metav1.ConditionFalse, sitev1.ReasonProgressing},
		{"fresh Deployment without status", dep(1, 0, 0, 0, 0), 1, metav1.ConditionFalse, sitev1.ReasonProgressing},
		{"scaled to zero", dep(1, 1, 0, 0, 0), 0, metav1.ConditionTrue, sitev1.ReasonScaledToZero},
		{"progress deadline exceeded", dep(1, 1, 1, 1, 0, appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing,
			Status: corev1.ConditionFalse, Reason: "ProgressDeadlineExceeded", Message: "timed out"}), 1,
			metav1.ConditionFalse, sitev1.ReasonDeploymentFailed},
		{"replica failure", dep(1, 1, 0, 0, 0, appsv1.DeploymentCondition{Type: appsv1.DeploymentReplicaFailure,
			Status: corev1.ConditionTrue, Message: "quota"}), 1, metav1.ConditionFalse, sitev1.ReasonDeploymentFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := componentCondition("content", tt.d, tt.desired)
			if c.Type != "ContentReady" || c.Status != tt.wantStatus || c.Reason != tt.wantReason || c.Message == "" {
				t.Errorf("got %+v, want %s/%s", c, tt.wantStatus, tt.wantReason)
			}
		})
	}
}

func TestUpdateReadiness(t *testing.T) {
	all := []string{"SecretsReady", "RoutesReady", "GatewayReady", "ContentReady", "MediaReady", "MarketplaceReady", "Exposed"}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		notReady  map[string]string // condition type → reason of a False condition
		stale     bool              // conditions carry an older generation
		falseFor  time.Duration     // Ready has been False this long (0: no Ready yet)
		wantPhase sitev1.SitePhase
		// wantReason and wantComponents, when set, are Ready's reason and
		// status.components.
		wantReason, wantComponents string
	}{
		{name: "every component up but not reachable", notReady: map[string]string{"Exposed": sitev1.ReasonNoReadyEndpoints},
			wantPhase: sitev1.PhaseProvisioning, wantReason: sitev1.ReasonComponentsNotReady, wantComponents: "4/4"},
		{name: "reachable once exposed", wantPhase: sitev1.PhaseReady, wantReason: sitev1.ReasonAllReady, wantComponents: "4/4"},
		{name: "provisioning for a while is not yet stalled", notReady: map[string]string{"MediaReady": sitev1.ReasonProgressing},
			falseFor: 9 * time.Minute, wantPhase: sitev1.PhaseProvisioning, wantReason: sitev1.ReasonComponentsNotReady, wantComponents: "3/4"},
		{name: "stuck provisioning stalls", notReady: map[string]string{"MediaReady": sitev1.ReasonProgressing},
			falseFor: 11 * time.Minute, wantPhase: sitev1.PhaseDegraded, wantReason: sitev1.ReasonStalled, wantComponents: "3/4"},
		{name: "waiting for the user's Secret never stalls", notReady: map[string]string{"SecretsReady": sitev1.ReasonDatabaseSecretMissing},
			falseFor: time.Hour, wantPhase: sitev1.PhasePending, wantReason: sitev1.ReasonComponentsNotReady},
		{name: "admin password Secret missing", notReady: map[string]string{"SecretsReady": sitev1.ReasonAdminPasswordSecretMissing},
			wantPhase: sitev1.PhasePending},
		{name: "all true", wantPhase: sitev1.PhaseReady},
		{name: "rolling out", notReady: map[string]string{"ContentReady": sitev1.ReasonProgressing}, wantPhase: sitev1.PhaseProvisioning},
		{name: "database missing", notReady: map[string]string{"SecretsReady": sitev1.ReasonDatabaseSecretMissing,
			"ContentReady": sitev1.ReasonProgressing}, wantPhase: sitev1.PhasePending},
		{name: "media S3 credentials missing", notReady: map[string]string{"SecretsReady": sitev1.ReasonMediaCredentialsSecretMissing,
			"MediaReady": sitev1.ReasonProgressing}, wantPhase: sitev1.PhasePending},
		{name: "media S3 credential key missing", notReady: map[string]string{"SecretsReady": sitev1.ReasonMediaCredentialsKeyMissing},
			wantPhase: sitev1.PhasePending},
		{name: "failed rollout", notReady: map[string]string{"MediaReady": sitev1.ReasonDeploymentFailed}, wantPhase: sitev1.PhaseDegraded},
		{name: "invalid settings", notReady: map[string]string{"RoutesReady": sitev1.ReasonInvalidSettings}, wantPhase: sitev1.PhaseFailed},
		{name: "conditions of an older generation do not count", stale: true, wantPhase: sitev1.PhaseProvisioning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := &sitev1.Site{ObjectMeta: metav1.ObjectMeta{Generation: 4}}
			for _, ct := range all {
				c := metav1.Condition{Type: ct, Status: metav1.ConditionTrue, Reason: "OK", ObservedGeneration: 4}
				if reason, ok := tt.notReady[ct]; ok {
					c.Status, c.Reason = metav1.ConditionFalse, reason
				}
				if tt.stale {
					c.ObservedGeneration = 3
				}
				site.Status.Conditions = append(site.Status.Conditions, c)
			}
			if tt.falseFor > 0 {
				site.Status.Conditions = append(site.Status.Conditions, metav1.Condition{Type: sitev1.ConditionReady,
					Status: metav1.ConditionFalse, Reason: sitev1.ReasonComponentsNotReady, ObservedGeneration: 4,
					LastTransitionTime: metav1.NewTime(now.Add(-tt.falseFor))})
			}
			r := &SiteReconciler{Clock: clocktesting.NewFakePassiveClock(now)}
			ready := r.updateReadiness(site)
			if ready != (tt.wantPhase == sitev1.PhaseReady) || site.Status.Phase != tt.wantPhase {
				t.Errorf("ready %v phase %q, want %q", ready, site.Status.Phase, tt.wantPhase)
			}
			c := findCondition(site, sitev1.ConditionReady)
			if c == nil || c.ObservedGeneration != 4 || (c.Status == metav1.ConditionTrue) != ready {
				t.Errorf("Ready condition %+v", c)
			}
			if tt.wantReason != "" && c.Reason != tt.wantReason {
				t.Errorf("Ready reason %s (%s), want %s", c.Reason, c.Message, tt.wantReason)
			}
			if tt.wantComponents != "" && site.Status.Components != tt.wantComponents {
				t.Errorf("components %q, want %q", site.Status.Components, tt.wantComponents)
			}
			if c.Status == metav1.ConditionFalse {
				for ct := range tt.notReady {
					if !strings.Contains(c.Message, ct+": ") {
						t.Errorf("Ready message %q does not explain %s", c.Message, ct)
					}
				}
			}
		})
	}
}

func TestPassResult(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		p    pass
		want time.Duration
	}{
		{"nothing to wait for", pass{}, 0},
		{"waiting", pass{waiting: 20 * time.Second}, 20 * time.Second},
		{"timer sooner than waiting", pass{waiting: 20 * time.Second, next: now.Add(5 * time.Second)}, 5 * time.Second},
		{"timer later than waiting", pass{waiting: 20 * time.Second, next: now.Add(time.Hour)}, 20 * time.Second},
		{"timer only", pass{next: now.Add(time.Hour)}, time.Hour},
		{"overdue timer retries soon, not in a tight loop", pass{next: now.Add(-time.Minute)}, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.result(now); got != (ctrl.Result{RequeueAfter: tt.want}) {
				t.Errorf("got %+v, want %s", got, tt.want)
			}
		})
	}
	var p pass
	p.waitFor(time.Minute)
	p.waitFor(10 * time.Second)
	p.waitFor(time.Hour)
	if p.waiting != 10*time.Second {
		t.Errorf("waitFor keeps the shortest wait, got %s", p.waiting)
	}
}

func TestComponentConditionType(t *testing.T) {
	for in, want := range map[string]string{"gateway": "GatewayReady", "marketplace": "MarketplaceReady", "": "Ready"} {
		if got := sitev1.ComponentConditionType(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

func TestReportRejection(t *testing.T) {
	gr := schema.GroupResource{Resource: "persistentvolumeclaims"}
	tests := []struct {
		name     string
		err      error
		reported bool
	}{
		{"quota or policy (Forbidden)", fmt.Errorf("apply PersistentVolumeClaim: %w",
			apierrors.NewForbidden(gr, "s-media", errors.New("exceeded quota"))), true},
		{"invalid object", apierrors.NewInvalid(schema.GroupKind{Kind: "Deployment"}, "s-content", nil), true},
		{"bad request", apierrors.NewBadRequest("no"), true},
		{"timeout", apierrors.NewTimeoutError("slow", 1), false},
		{"throttled", apierrors.NewTooManyRequests("later", 1), false},
		{"conflict", apierrors.NewConflict(gr, "s-media", errors.New("changed")), false},
		{"network", errors.New("connection refused"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := &sitev1.Site{ObjectMeta: metav1.ObjectMeta{Generation: 3}}
			site.Status.Phase = sitev1.PhaseReady
			reportRejection(site, tt.err)
			c := findCondition(site, sitev1.ConditionReady)
			if !tt.reported {
				if c != nil || site.Status.Phase != sitev1.PhaseReady {
					t.Errorf("a transient error changed the status: %+v, phase %s", c, site.Status.Phase)
				}
				return
			}
			if c == nil || c.Status != metav1.ConditionFalse || c.Reason != sitev1.ReasonApplyRejected ||
				c.Message != tt.err.Error() || c.ObservedGeneration != 3 || site.Status.Phase != sitev1.PhaseDegraded {
				t.Errorf("condition %+v, phase %s", c, site.Status.Phase)
			}
		})
	}
}

// A long message (an admission policy may explain at length) is cut to a
// bounded, still valid UTF-8 string.
func TestReportRejectionBoundsMessage(t *testing.T) {
	site := &sitev1.Site{}
	err := apierrors.NewForbidden(schema.GroupResource{Resource: "deployments"}, "d",
		errors.New("x"+strings.Repeat("é", maxRejectionMessage))) // two bytes each
	if utf8.ValidString(err.Error()[:maxRejectionMessage]) {
		t.Fatal("the test message must make a plain byte cut split a rune")
	}
	reportRejection(site, err)
	msg := findCondition(site, sitev1.ConditionReady).Message
	if len(msg) > maxRejectionMessage+len("…") || !utf8.ValidString(msg) || !strings.HasSuffix(msg, "…") {
		t.Errorf("message of %d bytes, valid UTF-8 %t", len(msg), utf8.ValidString(msg))
	}
}
