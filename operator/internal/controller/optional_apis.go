package controller

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/source"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
)

// optionalAPIs follows the kinds a cluster may or may not serve (HTTPRoute,
// ServiceMonitor). A kind installed after the operator started gets its
// watch started then, without a restart, and every Site a pass, so Sites
// that asked for it get it at once.
type optionalAPIs struct {
	kinds    []schema.GroupVersionKind
	watching map[schema.GroupVersionKind]bool // only followOptionalAPIs' goroutine and setup touch it
	ctrl     controller.Controller
	cache    cache.Cache
	mapper   meta.RESTMapper
	scheme   *runtime.Scheme
}

// checkOptionalAPIs asks the cluster afresh about each optional kind not
// watched yet (the answer also refreshes what the passes see), starts the
// watch of each one now served, and reports whether any was.
func (r *SiteReconciler) checkOptionalAPIs(ctx context.Context) (bool, error) {
	o := r.optional
	started := false
	for _, gvk := range o.kinds {
		if o.watching[gvk] {
			continue
		}
		served, err := r.served.refresh(o.mapper, gvk, r.Clock.Now())
		if err != nil {
			return started, err
		}
		if !served {
			continue
		}
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(gvk)
		// The same watch Owns sets up: events of a child reach its Site.
		h := handler.TypedEnqueueRequestForOwner[*unstructured.Unstructured](o.scheme, o.mapper, &sitev1.Site{}, handler.OnlyControllerOwner())
		if gvk == resources.CNPGClusterGVK {
			// A Cluster reaches every Site whose database is on it, owned
			// (managed) or not (existing, shared).
			h = handler.TypedEnqueueRequestsFromMapFunc(r.sitesOnCluster)
		}
		src := source.Kind[*unstructured.Unstructured](o.cache, u, h)
		if err := o.ctrl.Watch(src); err != nil {
			return started, err
		}
		o.watching[gvk] = true
		started = true
		logf.FromContext(ctx).Info("watching an optional API", "kind", gvk.String())
	}
	return started, nil
}

// followOptionalAPIs re-checks the optional kinds every OptionalAPIInterval
// until ctx ends, and queues every Site when one appeared.
func (r *SiteReconciler) followOptionalAPIs(ctx context.Context) error {
	log := logf.FromContext(ctx).WithName("optional-apis")
	ctx = logf.IntoContext(ctx, log)
	t := time.NewTicker(r.OptionalAPIInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		started, err := r.checkOptionalAPIs(ctx)
		if err != nil {
			// Discovery can fail for a while (an aggregated API down); the
			// next tick tries again.
			log.Error(err, "discovery of the optional APIs failed")
			continue
		}
		if started {
			r.wakeAllSites(ctx)
		}
	}
}

// wakeAllSites queues a pass of every Site.
func (r *SiteReconciler) wakeAllSites(ctx context.Context) {
	var sites sitev1.SiteList
	if err := r.List(ctx, &sites); err != nil {
		logf.FromContext(ctx).Error(err, "list Sites to wake")
		return
	}
	for i := range sites.Items {
		select {
		case r.wake <- event.GenericEvent{Object: &sites.Items[i]}:
		case <-ctx.Done():
			return
		}
	}
}
