package resources

import (
	"path"

	corev1 "k8s.io/api/core/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// A supplied theme (spec.theme.image) is an OCI image or artifact mounted
// into the content pods as an image volume at ThemesMountPath/{name}, so
// the content service finds it as WordPress finds wp-content/themes/{name}.
// The reference is in the pod template: a new one rolls the pods.

// ThemesMountPath is the themes directory of the content pods.
const ThemesMountPath = "/var/lib/siteplane/themes"

const volTheme = "theme"

// SuppliedTheme reports whether site uses a theme other than the built-in.
func SuppliedTheme(site *sitev1.Site) bool {
	t := site.Spec.Theme
	return t.Image != nil && t.Name != "" && t.Name != contract.ActiveTheme
}

// themeMount is the content pods' theme volume, when there is one.
func themeMount(site *sitev1.Site, component string) (mount, bool) {
	if component != contract.ServiceContent || !SuppliedTheme(site) {
		return mount{}, false
	}
	img := site.Spec.Theme.Image
	policy := img.PullPolicy
	if policy == "" {
		policy = corev1.PullIfNotPresent
	}
	return mount{
		volume: corev1ac.Volume().WithName(volTheme).WithImage(corev1ac.ImageVolumeSource().
			WithReference(img.Reference).WithPullPolicy(policy)),
		mountPath: path.Join(ThemesMountPath, site.Spec.Theme.Name),
	}, true
}

// themeEnv points the content service at the themes directory.
func themeEnv(site *sitev1.Site, component string) []corev1.EnvVar {
	if component != contract.ServiceContent || !SuppliedTheme(site) {
		return nil
	}
	return []corev1.EnvVar{{Name: contract.EnvThemesDir, Value: ThemesMountPath}}
}

// siteTheme is the site file's theme: "" for the built-in one.
func siteTheme(site *sitev1.Site) string {
	if !SuppliedTheme(site) {
		return ""
	}
	return site.Spec.Theme.Name
}
