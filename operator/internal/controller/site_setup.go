package controller

import (
	"context"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// userSecretIndex indexes Sites by the names of the Secrets the user
// provides (the database's, the media S3 credentials, the administrator's
// sign-in password), so a change of one
// of them reaches its Sites.
const userSecretIndex = ".spec.userSecrets"

// SetupWithManager registers the reconciler: the Site itself, every child it
// owns, the user's Secrets it references, and the optional kinds that the
// cluster serves at start-up.
func (r *SiteReconciler) SetupWithManager(mgr ctrl.Manager) error {
	if r.Clock == nil {
		r.Clock = clock.RealClock{}
	}
	if r.APIReader == nil {
		r.APIReader = mgr.GetAPIReader()
	}
	if r.OptionalAPIInterval <= 0 {
		r.OptionalAPIInterval = servedTTL
	}
	r.wake = make(chan event.GenericEvent)
	if err := mgr.GetFieldIndexer().IndexField(context.Background(), &sitev1.Site{}, userSecretIndex,
		func(o client.Object) []string {
			site := o.(*sitev1.Site)
			var names []string
			if ref := site.Spec.Database.SecretRef; ref != nil {
				names = append(names, ref.Name)
			}
			if cluster := resources.CNPGClusterName(site); cluster != "" && site.Spec.Database.Shared == nil {
				// CloudNativePG writes the application Secret after the
				// bootstrap: its arrival (or a new password) wakes the Site.
				names = append(names, resources.CNPGAppSecretName(cluster))
			}
			if s3 := site.Spec.Media.S3; s3 != nil && !slices.Contains(names, s3.CredentialsSecretRef.Name) {
				names = append(names, s3.CredentialsSecretRef.Name)
			}
			if ref := site.Spec.Admin.PasswordSecretRef; ref != nil && !slices.Contains(names, ref.Name) {
				names = append(names, ref.Name)
			}
			return names
		}); err != nil {
		return err
	}
	if err := mgr.GetFieldIndexer().IndexField(context.Background(), &sitev1.Site{}, cnpgClusterIndex,
		func(o client.Object) []string {
			if name := resources.CNPGClusterName(o.(*sitev1.Site)); name != "" {
				return []string{name}
			}
			return nil
		}); err != nil {
		return err
	}
	b := ctrl.NewControllerManagedBy(mgr).
		Named("site").
		// A status write changes neither the generation nor labels or
		// annotations, so the operator's own status patch triggers no pass.
		For(&sitev1.Site{}, builder.WithPredicates(predicate.Or(
			predicate.GenerationChangedPredicate{}, predicate.AnnotationChangedPredicate{}, predicate.LabelChangedPredicate{}))).
		Owns(&appsv1.Deployment{}).
		Owns(&corev1.Service{}).
		Owns(&corev1.ConfigMap{}).
		Owns(&corev1.Secret{}).
		Owns(&corev1.PersistentVolumeClaim{}).
		Owns(&policyv1.PodDisruptionBudget{}).
		// The autoscaler rewrites its status every few seconds; only a change
		// of its spec (or its deletion) concerns the Site.
		Owns(&autoscalingv2.HorizontalPodAutoscaler{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Owns(&networkingv1.NetworkPolicy{}).
		Owns(&networkingv1.Ingress{}).
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(r.sitesForUserSecret)).
		// The gateway Service's endpoints decide Exposed; slices are owned
		// by their Service, not the Site, so map them by our labels.
		Watches(&discoveryv1.EndpointSlice{}, handler.EnqueueRequestsFromMapFunc(siteForGatewaySlice)).
		// Wake-ups of every Site when an optional API appears.
		WatchesRawSource(source.Channel(r.wake, &handler.EnqueueRequestForObject{}))
	c, err := b.Build(r)
	if err != nil {
		return err
	}
	r.optional = &optionalAPIs{
		kinds: []schema.GroupVersionKind{resources.HTTPRouteGVK, resources.ServiceMonitorGVK,
			resources.CNPGClusterGVK, resources.CNPGDatabaseGVK},
		watching: map[schema.GroupVersionKind]bool{},
		ctrl:     c,
		cache:    mgr.GetCache(),
		mapper:   mgr.GetRESTMapper(),
		scheme:   mgr.GetScheme(),
	}
	// Kinds served now are watched from the start, like every other child.
	if _, err := r.checkOptionalAPIs(context.Background()); err != nil {
		return err
	}
	return mgr.Add(manager.RunnableFunc(r.followOptionalAPIs))
}

// cnpgClusterIndex indexes Sites by the CloudNativePG Cluster their
// database is on.
const cnpgClusterIndex = ".spec.database.cnpgCluster"

// sitesOnCluster maps a CloudNativePG Cluster to the Sites whose database
// is on it.
func (r *SiteReconciler) sitesOnCluster(ctx context.Context, o *unstructured.Unstructured) []reconcile.Request {
	return r.sitesByIndex(ctx, o.GetNamespace(), cnpgClusterIndex, o.GetName())
}

// sitesForUserSecret maps a Secret to the Sites using it as database or
// media S3 credentials.
func (r *SiteReconciler) sitesForUserSecret(ctx context.Context, o client.Object) []reconcile.Request {
	return r.sitesByIndex(ctx, o.GetNamespace(), userSecretIndex, o.GetName())
}

// sitesByIndex lists the Sites of namespace whose index holds value.
func (r *SiteReconciler) sitesByIndex(ctx context.Context, namespace, index, value string) []reconcile.Request {
	var sites sitev1.SiteList
	if err := r.List(ctx, &sites, client.InNamespace(namespace), client.MatchingFields{index: value}); err != nil {
		return nil
	}
	reqs := make([]reconcile.Request, 0, len(sites.Items))
	for _, s := range sites.Items {
		reqs = append(reqs, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: s.Namespace, Name: s.Name}})
	}
	return reqs
}

// siteForGatewaySlice maps an EndpointSlice of a Site's gateway Service to
// the Site (the slice controller copies the Service's labels).
func siteForGatewaySlice(_ context.Context, o client.Object) []reconcile.Request {
	l := o.GetLabels()
	if l[resources.LabelManagedBy] != resources.FieldManager || l[resources.LabelComponent] != contract.ServiceGateway || l[resources.LabelInstance] == "" {
		return nil
	}
	return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: o.GetNamespace(), Name: l[resources.LabelInstance]}}}
}
