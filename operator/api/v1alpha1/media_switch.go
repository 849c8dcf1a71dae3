package v1alpha1

// A Site whose media files are on its claim and whose spec now names a
// bucket (spec.media.s3) waits for the person who made the change: the
// operator cannot see whether the files were copied, and switching the
// media pods to an empty bucket would break every uploaded file's URL.
const (
	// AnnotationMediaCopiedToS3 set to "true" on the Site says the files of
	// the claim are in the bucket, and lets the media pods switch to it.
	AnnotationMediaCopiedToS3 = "siteplane.dev/media-copied-to-s3"
	// ReasonMediaCopyRequired (MediaReady False, phase Pending): the spec
	// names a bucket, the media pods still use the claim, and the Site does
	// not say yet that the files were copied.
	ReasonMediaCopyRequired = "MediaCopyRequired"
)
