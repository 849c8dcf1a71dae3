package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// reconcileWorkloads writes the media claim (unless the files are in S3),
// then each component's Deployment and Service, and sets the component
// conditions from the Deployments the API server returned. A claim left
// from before a switch to S3 is kept: it holds files nobody has copied
// yet, and only a person can tell.
func (r *SiteReconciler) reconcileWorkloads(ctx context.Context, site *sitev1.Site, p *pass) error {
	if resources.MediaUsesClaim(site) {
		if err := r.applyMemoized(ctx, resources.MediaPVC(site)); err != nil {
			return fmt.Errorf("apply PersistentVolumeClaim: %w", err)
		}
	}
	for _, component := range contract.Services {
		name := resources.ComponentName(site.Name, component)
		live, err := r.liveDeployment(ctx, site, name)
		if err != nil {
			return err
		}
		if cond, held := mediaSwitchHeld(site, live); held && component == contract.ServiceMedia {
			setCondition(site, cond)
			if err := r.applyMemoized(ctx, resources.Service(site, component)); err != nil {
				return fmt.Errorf("apply Service %s: %w", name, err)
			}
			continue
		}
		var oldHashes map[string]string
		oldSources := ""
		if live != nil {
			oldHashes = live.Spec.Template.Annotations
			oldSources = live.Annotations[resources.AnnotationSourceHashes]
			if oldHashes == nil {
				oldHashes = map[string]string{}
			}
			if site.Component(component).Autoscaling != nil {
				if err := r.handOverReplicas(ctx, live); err != nil {
					return err
				}
			}
		}
		desired := resources.Deployment(site, component, r.Images, p.mounted)
		if err := r.apply(ctx, desired); err != nil {
			return fmt.Errorf("apply Deployment %s: %w", name, err)
		}
		if oldHashes != nil {
			newHashes := desired.Spec.Template.Annotations
			if oldHashes[resources.AnnotationConfigHash] != newHashes[resources.AnnotationConfigHash] ||
				oldHashes[resources.AnnotationSecretHash] != newHashes[resources.AnnotationSecretHash] {
				what := "configuration or Secrets"
				if changed := resources.ChangedSources(oldSources, desired.Annotations[resources.AnnotationSourceHashes]); len(changed) > 0 {
					what = strings.Join(changed, ", ")
				}
				r.event(site, deploymentRef(site, name), corev1.EventTypeNormal, "RollingOut", "Rollout",
					"%s changed for %s; rolling the pods of Deployment %s", what, component, name)
			}
		}
		// The apply response is the live object, status included.
		dep := resources.Convert[appsv1.Deployment](desired)
		// The live replica count is the goal: the spec's, or with autoscaling
		// whatever the HorizontalPodAutoscaler last chose.
		want := site.Component(component).ReplicaCount()
		if dep.Spec.Replicas != nil {
			want = *dep.Spec.Replicas
		}
		cond := componentCondition(component, dep, want)
		if cond.Status != metav1.ConditionTrue && dep.Status.ObservedGeneration >= dep.Generation {
			// Say why, not only how many: the pods' own reports (once the
			// Deployment controller has acted on this generation; before,
			// the pods are the previous rollout's or not there yet).
			problems, err := r.componentPodProblems(ctx, site, component)
			if err != nil {
				return err
			}
			if problems != "" {
				cond.Message += "; " + problems
			}
		}
		setCondition(site, cond)

		if err := r.applyMemoized(ctx, resources.Service(site, component)); err != nil {
			return fmt.Errorf("apply Service %s: %w", name, err)
		}
	}
	return nil
}

// liveDeployment returns the component's Deployment from the cache, or nil
// when there is none yet.
func (r *SiteReconciler) liveDeployment(ctx context.Context, site *sitev1.Site, name string) (*appsv1.Deployment, error) {
	var d appsv1.Deployment
	err := r.Get(ctx, client.ObjectKey{Namespace: site.Namespace, Name: name}, &d)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get Deployment %s: %w", name, err)
	}
	return &d, nil
}

// handOverReplicas prepares a Deployment whose replicas the operator owns
// for autoscaling. With autoscaling the operator's apply leaves
// spec.replicas out; were the operator its only owner, server-side apply
// would remove the field and the API server would default it to 1, scaling
// a busy component down until the autoscaler scales it up again. So first
// a second field manager applies the live count alone: the field then has
// another owner and keeps its value when the operator lets go, until the
// autoscaler (an update, which takes ownership) changes it. This is the
// hand-over the server-side apply documentation describes.
func (r *SiteReconciler) handOverReplicas(ctx context.Context, live *appsv1.Deployment) error {
	if live.Spec.Replicas == nil || !ownsReplicas(live.ManagedFields, resources.FieldManager) {
		return nil
	}
	ac := appsv1ac.Deployment(live.Name, live.Namespace).
		WithSpec(appsv1ac.DeploymentSpec().WithReplicas(*live.Spec.Replicas))
	// No force: should someone else have changed the count meanwhile, the
	// conflict fails the pass, which retries from the fresh object.
	if err := r.Apply(ctx, ac, client.FieldOwner(resources.ReplicasHandoverManager)); err != nil {
		return fmt.Errorf("hand the replicas of Deployment %s over to its autoscaler: %w", live.Name, err)
	}
	return nil
}

// ownsReplicas reports whether manager's apply owns spec.replicas.
func ownsReplicas(fields []metav1.ManagedFieldsEntry, manager string) bool {
	for _, f := range fields {
		if f.Manager != manager || f.Operation != metav1.ManagedFieldsOperationApply || f.FieldsV1 == nil {
			continue
		}
		var set struct {
			Spec map[string]json.RawMessage `json:"f:spec"`
		}
		if err := json.Unmarshal(f.FieldsV1.GetRawBytes(), &set); err != nil {
			continue
		}
		if _, ok := set.Spec["f:replicas"]; ok {
			return true
		}
	}
	return false
}
