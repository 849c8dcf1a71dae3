// Package controller reconciles Sites. The reconciler is split by concern,
// one file each: secrets, config, workloads, policies, exposure, monitoring
// and status; the objects themselves come from the pure builders of package
// resources.
package controller

import (
	"context"
	"errors"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
)

// Requeue intervals for waiting states. Waiting is not an error: returning an
// error would put the Site on exponential back-off and log it as a failure.
const (
	// requeueWaitingSecret re-checks a missing database Secret (its creation
	// also triggers a pass through the Secret watch).
	requeueWaitingSecret = 30 * time.Second
	// requeueProgressing re-checks components that are rolling out (their
	// Deployment status changes also trigger passes).
	requeueProgressing = 20 * time.Second
	// requeueStale retries a pass that started from a cached Site older than
	// the stored one. Status writes trigger no pass, so nothing else would
	// bring the Site back; a second is ample for the cache to catch up.
	requeueStale = time.Second
)

// SiteReconciler turns a Site into its running children.
type SiteReconciler struct {
	client.Client
	// APIReader reads the generated Secrets uncached: a stale cache must
	// never make the operator think a key is missing and generate another.
	APIReader client.Reader
	Scheme    *runtime.Scheme
	Recorder  events.EventRecorder
	// Images makes the default image of each component.
	Images resources.PodDefaults
	// Clock drives key rotation; tests replace it to skip time.
	Clock clock.PassiveClock
	// OnReconcile, when set, is called at the start of every pass (tests
	// count passes with it to prove there is no hot loop).
	OnReconcile func(types.NamespacedName)
	// Probe asks a gateway for the REST index (Exposed); nil skips the
	// request, for an operator run outside the cluster, which cannot reach
	// Service addresses.
	Probe Prober
	// ProbeURL, when set, replaces the gateway Service's address in the
	// probe (tests point it at a server of their own).
	ProbeURL func(*sitev1.Site) string
	// OptionalAPIInterval is how often the cluster is asked whether the
	// optional APIs (Gateway API HTTPRoute, Prometheus Operator
	// ServiceMonitor) are served (default: a minute).
	OptionalAPIInterval time.Duration

	served   servedKinds
	memo     applyMemo
	optional *optionalAPIs
	wake     chan event.GenericEvent
}

// Least privilege: every write is a server-side apply (create and patch) or
// a delete, so no rule grants update except sites/finalizers, which setting
// blockOwnerDeletion on a child requires. Delete is granted only for the
// kinds the operator removes itself (key Secrets, and the children a spec
// change switches off); Deployments, Services, ConfigMaps and the media
// claim only ever go with the Site, through the garbage collector. The
// envtest suite runs the reconciler as a user holding only the generated
// role.
// +kubebuilder:rbac:groups=siteplane.dev,resources=sites,verbs=get;list;watch
// +kubebuilder:rbac:groups=siteplane.dev,resources=sites/status,verbs=get;patch
// +kubebuilder:rbac:groups=siteplane.dev,resources=sites/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get;list;watch;create;patch;delete
// +kubebuilder:rbac:groups="",resources=configmaps;services;persistentvolumeclaims,verbs=get;list;watch;create;patch
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;patch
// +kubebuilder:rbac:groups="",resources=pods,verbs=list
// +kubebuilder:rbac:groups=policy,resources=poddisruptionbudgets,verbs=get;list;watch;create;patch;delete
// +kubebuilder:rbac:groups=autoscaling,resources=horizontalpodautoscalers,verbs=get;list;watch;create;patch;delete
// +kubebuilder:rbac:groups=networking.k8s.io,resources=ingresses;networkpolicies,verbs=get;list;watch;create;patch;delete
// +kubebuilder:rbac:groups=discovery.k8s.io,resources=endpointslices,verbs=get;list;watch
// +kubebuilder:rbac:groups=gateway.networking.k8s.io,resources=httproutes,verbs=get;list;watch;create;patch;delete
// +kubebuilder:rbac:groups=monitoring.coreos.com,resources=servicemonitors,verbs=get;list;watch;create;patch;delete
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile is the outer pass: fetch, suspend, run the ordered steps, then
// write the status once.
func (r *SiteReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	if r.OnReconcile != nil {
		r.OnReconcile(req.NamespacedName)
	}
	site := &sitev1.Site{}
	if err := r.Get(ctx, req.NamespacedName, site); err != nil {
		if apierrors.IsNotFound(err) {
			r.forgetSite(req.Namespace, req.Name)
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !site.DeletionTimestamp.IsZero() {
		// Children carry owner references; the garbage collector removes them.
		return ctrl.Result{}, nil
	}
	original := site.DeepCopy()

	var (
		res ctrl.Result
		err error
	)
	if site.Spec.Suspend {
		// Touch nothing but the status: the user asked the operator to keep
		// its hands off (for a manual repair or a migration).
		site.Status.Phase = sitev1.PhaseSuspended
		site.Status.ObservedGeneration = site.Generation
	} else {
		res, err = r.reconcile(ctx, site)
		if err == nil {
			site.Status.ObservedGeneration = site.Generation
		} else {
			reportRejection(site, err)
		}
	}
	switch serr := r.writeStatus(ctx, original, site); {
	case serr == nil:
		// Transitions are announced by the pass that stored them. A pass
		// started from a stale Site (an error retry can run before the
		// previous pass's status write reaches the cache) would otherwise
		// announce the same transition again.
		r.recordTransitions(original, site)
	case apierrors.IsConflict(serr):
		if err == nil {
			return ctrl.Result{RequeueAfter: requeueStale}, nil
		}
	default:
		err = errors.Join(err, serr)
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	return res, nil
}

// pass carries what one pass has learned between the steps.
type pass struct {
	mounted resources.Mounted
	// next is the earliest time-driven change (key rotation or expiry).
	next time.Time
	// waiting is the shortest wait a step asked for; zero when none.
	waiting time.Duration
}

func (p *pass) waitFor(d time.Duration) {
	if p.waiting == 0 || d < p.waiting {
		p.waiting = d
	}
}

// reconcile runs the steps in dependency order: the Secrets and the config
// are hashed into the pod templates, so they come first.
func (r *SiteReconciler) reconcile(ctx context.Context, site *sitev1.Site) (ctrl.Result, error) {
	p := &pass{}
	site.Status.URL = site.PublicURL()
	if err := r.reconcileSecrets(ctx, site, p); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.reconcileDatabase(ctx, site, p); err != nil {
		return ctrl.Result{}, err
	}
	ok, err := r.reconcileConfig(ctx, site, p)
	if err != nil || !ok {
		// Invalid settings are a spec problem: report it, don't retry.
		r.updateReadiness(site)
		return ctrl.Result{}, err
	}
	steps := []func(context.Context, *sitev1.Site, *pass) error{
		r.reconcileWorkloads,
		r.reconcilePolicies,
		r.reconcileExposure,
		r.reconcileMonitoring,
		r.reconcileReachability,
	}
	for _, step := range steps {
		if err := step(ctx, site, p); err != nil {
			return ctrl.Result{}, err
		}
	}
	if !r.updateReadiness(site) {
		p.waitFor(requeueProgressing)
	}
	return p.result(r.Clock.Now()), nil
}

// result turns the pass's waits and timers into a requeue.
func (p *pass) result(now time.Time) ctrl.Result {
	after := p.waiting
	if !p.next.IsZero() {
		until := p.next.Sub(now)
		if until < time.Second {
			until = time.Second
		}
		if after == 0 || until < after {
			after = until
		}
	}
	return ctrl.Result{RequeueAfter: after}
}

// writeStatus patches the status when it changed: one write per pass at
// most, none in steady state. The patch carries the resourceVersion the
// pass started from, so a pass that worked from a stale cached Site gets a
// Conflict instead of diffing against old values: a field equal in the
// stale copy and the result would be left out of a plain merge patch and
// keep whatever the stored Site says.
func (r *SiteReconciler) writeStatus(ctx context.Context, original, site *sitev1.Site) error {
	if statusEqual(original.Status, site.Status) {
		return nil
	}
	if err := r.Status().Patch(ctx, site, client.MergeFromWithOptions(original, client.MergeFromWithOptimisticLock{})); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}
	logf.FromContext(ctx).V(1).Info("status updated", "phase", site.Status.Phase)
	return nil
}

// apply writes one object with server-side apply under the operator's field
// manager, taking over fields another manager set (the spec is the truth).
func (r *SiteReconciler) apply(ctx context.Context, obj runtime.ApplyConfiguration) error {
	return r.Apply(ctx, obj, client.FieldOwner(resources.FieldManager), client.ForceOwnership)
}

// deleteIfOwned deletes the named child when it exists and this Site
// controls it; objects of someone else are left alone.
func (r *SiteReconciler) deleteIfOwned(ctx context.Context, site *sitev1.Site, obj client.Object, name string) error {
	err := r.Get(ctx, client.ObjectKey{Namespace: site.Namespace, Name: name}, obj)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = r.deleteOwned(ctx, site, obj)
	return err
}

// deleteOwned deletes obj (already read) when this Site controls it, and
// reports whether this call deleted it. The UID precondition keeps a
// same-named object created meanwhile safe. An object already gone (read
// from a cache that had not seen its deletion yet) was not deleted by this
// pass, so the caller records no second event for it.
func (r *SiteReconciler) deleteOwned(ctx context.Context, site *sitev1.Site, obj client.Object) (bool, error) {
	if !metav1.IsControlledBy(obj, site) {
		return false, nil
	}
	uid := obj.GetUID()
	err := r.Delete(ctx, obj, client.Preconditions{UID: &uid})
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}
