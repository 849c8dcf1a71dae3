package resources

import (
	"net/url"
	"path"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// MediaUsesClaim reports whether the media files live on the site's
// PersistentVolumeClaim (the default) rather than in an S3 bucket.
func MediaUsesClaim(site *sitev1.Site) bool { return site.Spec.Media.S3 == nil }

// S3CredentialKeys returns the keys of the access key id and the secret
// access key in the user's S3 credentials Secret: the spec's, or the
// contract's names when unset (a Site that never went through the API
// server's defaulting).
func S3CredentialKeys(ref sitev1.S3CredentialsSecretRef) (accessKeyID, secretAccessKey string) {
	accessKeyID, secretAccessKey = ref.AccessKeyIDKey, ref.SecretAccessKeyKey
	if accessKeyID == "" {
		accessKeyID = contract.S3AccessKeyIDSecretKey
	}
	if secretAccessKey == "" {
		secretAccessKey = contract.S3SecretAccessKeySecretKey
	}
	return accessKeyID, secretAccessKey
}

// mediaMount is the media component's storage volume: the claim, or with
// S3 the two credential keys of the user's Secret, mounted under the
// contract's file names whatever their keys (as the DSN is). Their content
// goes into the secret hash, so new credentials roll the media pods.
func mediaMount(site *sitev1.Site) mount {
	s3 := site.Spec.Media.S3
	if s3 == nil {
		return mount{
			volume: corev1ac.Volume().WithName(volMedia).WithPersistentVolumeClaim(
				corev1ac.PersistentVolumeClaimVolumeSource().WithClaimName(MediaPVCName(site.Name))),
			mountPath: contract.MediaMountPath,
		}
	}
	name := s3.CredentialsSecretRef.Name
	idKey, secretKey := S3CredentialKeys(s3.CredentialsSecretRef)
	return mount{
		volume: corev1ac.Volume().WithName(volMediaS3).WithSecret(corev1ac.SecretVolumeSource().
			WithSecretName(name).
			WithItems(
				corev1ac.KeyToPath().WithKey(idKey).WithPath(contract.S3AccessKeyIDSecretKey),
				corev1ac.KeyToPath().WithKey(secretKey).WithPath(contract.S3SecretAccessKeySecretKey))),
		mountPath:  contract.MediaS3MountPath,
		secretKeys: map[string][]string{name: {idKey, secretKey}},
	}
}

// mediaEnv is the media component's storage settings: the files'
// directory, or the bucket and the credential files.
func mediaEnv(site *sitev1.Site) []corev1.EnvVar {
	s3 := site.Spec.Media.S3
	if s3 == nil {
		return []corev1.EnvVar{{Name: contract.EnvMediaDir, Value: contract.MediaMountPath}}
	}
	region := s3.Region
	if region == "" {
		region = contract.DefaultMediaS3Region
	}
	env := []corev1.EnvVar{
		{Name: contract.EnvMediaStorage, Value: contract.MediaStorageS3},
		{Name: contract.EnvMediaS3Endpoint, Value: s3.Endpoint},
		{Name: contract.EnvMediaS3Bucket, Value: s3.Bucket},
		{Name: contract.EnvMediaS3Region, Value: region},
		{Name: contract.EnvMediaS3PathStyle, Value: strconv.FormatBool(s3.PathStyle)},
	}
	if s3.Prefix != "" {
		env = append(env, corev1.EnvVar{Name: contract.EnvMediaS3Prefix, Value: s3.Prefix})
	}
	return append(env,
		corev1.EnvVar{Name: contract.EnvMediaS3AccessKeyIDFile, Value: path.Join(contract.MediaS3MountPath, contract.S3AccessKeyIDSecretKey)},
		corev1.EnvVar{Name: contract.EnvMediaS3SecretAccessKeyFile, Value: path.Join(contract.MediaS3MountPath, contract.S3SecretAccessKeySecretKey)})
}

// S3EndpointPort is the TCP port of the S3 endpoint (explicit, or the
// scheme's), which the media pods' NetworkPolicy must let out; zero when
// the site does not use S3 or the endpoint does not parse (the CRD's rules
// make that impossible for a stored Site).
func S3EndpointPort(site *sitev1.Site) int32 {
	if site.Spec.Media.S3 == nil {
		return 0
	}
	u, err := url.Parse(site.Spec.Media.S3.Endpoint)
	if err != nil || u.Host == "" {
		return 0
	}
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil || n == 0 {
			return 0
		}
		return int32(n)
	}
	if u.Scheme == "http" {
		return 80
	}
	return 443
}

// MediaPVC is the claim of the media files. With deletionPolicy Retain it has
// no owner, so deleting the Site keeps the uploads. Only written while the
// site stores its files on a claim (MediaUsesClaim).
func MediaPVC(site *sitev1.Site) *corev1ac.PersistentVolumeClaimApplyConfiguration {
	st := site.Spec.Media.Storage
	size := resource.MustParse("10Gi")
	if st.Size != nil {
		size = *st.Size
	}
	mode := st.AccessMode
	if mode == "" {
		mode = corev1.ReadWriteOnce
	}
	spec := corev1ac.PersistentVolumeClaimSpec().
		WithAccessModes(mode).
		WithResources(corev1ac.VolumeResourceRequirements().WithRequests(corev1.ResourceList{corev1.ResourceStorage: size}))
	if st.StorageClassName != nil {
		spec.WithStorageClassName(*st.StorageClassName)
	}
	pvc := corev1ac.PersistentVolumeClaim(MediaPVCName(site.Name), site.Namespace).
		WithLabels(Labels(site, contract.ServiceMedia)).
		WithSpec(spec)
	if st.DeletionPolicy != "Retain" {
		pvc.WithOwnerReferences(OwnerReference(site))
	}
	return pvc
}
