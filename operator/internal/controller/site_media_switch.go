package controller

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// mediaSwitchHeld tells whether the media Deployment must be left as it is,
// and with what MediaReady condition: the spec names a bucket, the live
// Deployment still mounts the Site's claim, and the Site does not carry
// siteplane.dev/media-copied-to-s3=true. Switching at once would point every
// uploaded file's URL at an empty bucket; the files are copied by a person
// (docs/operator.md), who then annotates the Site. Once the Deployment runs
// on S3 the hold is over for good, whatever the annotation says later.
func mediaSwitchHeld(site *sitev1.Site, live *appsv1.Deployment) (metav1.Condition, bool) {
	s3 := site.Spec.Media.S3
	if s3 == nil || live == nil || site.Annotations[sitev1.AnnotationMediaCopiedToS3] == "true" {
		return metav1.Condition{}, false
	}
	claim := resources.MediaPVCName(site.Name)
	for _, v := range live.Spec.Template.Spec.Volumes {
		if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == claim {
			return metav1.Condition{
				Type: sitev1.ComponentConditionType(contract.ServiceMedia), Status: metav1.ConditionFalse,
				Reason: sitev1.ReasonMediaCopyRequired,
				Message: fmt.Sprintf("spec.media.s3 names bucket %q, but the media pods keep their files on claim %s: "+
					"copy the files to the bucket (docs/operator.md, switching from a claim to S3), then "+
					"`kubectl annotate site %s %s=true`; until then Deployment %s is left as it is",
					s3.Bucket, claim, site.Name, sitev1.AnnotationMediaCopiedToS3, live.Name),
			}, true
		}
	}
	return metav1.Condition{}, false
}
