package controller

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
		if err := r.apply(ctx, resources.MediaPVC(site)); err != nil {
			return fmt.Errorf("apply PersistentVolumeClaim: %w", err)
		}
	}
	for _, component := range contract.Services {
		name := resources.ComponentName(site.Name, component)
		oldHashes, err := r.podTemplateHashes(ctx, site, name)
		if err != nil {
			return err
		}
		desired := resources.Deployment(site, component, r.Images, p.mounted)
		if err := r.apply(ctx, desired); err != nil {
			return fmt.Errorf("apply Deployment %s: %w", name, err)
		}
		if oldHashes != nil {
			newHashes := desired.Spec.Template.Annotations
			if oldHashes[resources.AnnotationConfigHash] != newHashes[resources.AnnotationConfigHash] ||
				oldHashes[resources.AnnotationSecretHash] != newHashes[resources.AnnotationSecretHash] {
				r.event(site, deploymentRef(site, name), corev1.EventTypeNormal, "RollingOut", "Rollout",
					"configuration or Secrets of %s changed; rolling the pods of Deployment %s", component, name)
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
		setCondition(site, componentCondition(component, dep, want))

		if err := r.apply(ctx, resources.Service(site, component)); err != nil {
			return fmt.Errorf("apply Service %s: %w", name, err)
		}
	}
	return nil
}

// podTemplateHashes returns the hash annotations of an existing Deployment's
// pod template, or nil when there is none yet.
func (r *SiteReconciler) podTemplateHashes(ctx context.Context, site *sitev1.Site, name string) (map[string]string, error) {
	var d appsv1.Deployment
	err := r.Get(ctx, client.ObjectKey{Namespace: site.Namespace, Name: name}, &d)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get Deployment %s: %w", name, err)
	}
	if d.Spec.Template.Annotations == nil {
		return map[string]string{}, nil
	}
	return d.Spec.Template.Annotations, nil
}
