package resources

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// spec.theme: a supplied theme is an image volume on the content pods at
// the themes directory, that directory in their environment and the name in
// the site file; the built-in theme adds nothing. Other components never
// see it.
func TestThemeImageVolume(t *testing.T) {
	const ref = "registry.example.com/themes/twentytwentythree:1.6"
	tests := []struct {
		name      string
		theme     sitev1.ThemeSpec
		component string
		wantMount string // "" : no theme volume
		wantTheme string // the site file's theme
	}{
		{name: "built-in by default", component: contract.ServiceContent},
		{name: "built-in by name", theme: sitev1.ThemeSpec{Name: "siteplane"}, component: contract.ServiceContent},
		{name: "supplied", theme: sitev1.ThemeSpec{Name: "twentytwentythree", Image: &sitev1.ThemeImageSpec{Reference: ref}},
			component: contract.ServiceContent, wantMount: ThemesMountPath + "/twentytwentythree", wantTheme: "twentytwentythree"},
		{name: "not on the gateway", theme: sitev1.ThemeSpec{Name: "twentytwentythree", Image: &sitev1.ThemeImageSpec{Reference: ref}},
			component: contract.ServiceGateway, wantTheme: "twentytwentythree"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := testSite()
			site.Spec.Theme = tt.theme
			d := typed[appsv1.Deployment](t, Deployment(site, tt.component, PodDefaults{}, testMounted()))
			c := d.Spec.Template.Spec.Containers[0]
			var vol *corev1.Volume
			for i, v := range d.Spec.Template.Spec.Volumes {
				if v.Name == volTheme {
					vol = &d.Spec.Template.Spec.Volumes[i]
				}
			}
			if tt.wantMount == "" {
				if vol != nil || envMap(c)[contract.EnvThemesDir] != "" {
					t.Fatalf("theme volume or env on %s: %+v", tt.component, vol)
				}
			} else {
				if vol == nil || vol.Image == nil || vol.Image.Reference != ref || vol.Image.PullPolicy != corev1.PullIfNotPresent {
					t.Fatalf("theme volume %+v", vol)
				}
				if got := mountMap(c)[volTheme]; got != tt.wantMount {
					t.Errorf("mounted at %q, want %q", got, tt.wantMount)
				}
				for _, m := range c.VolumeMounts {
					if m.Name == volTheme && !m.ReadOnly {
						t.Error("theme mounted writable")
					}
				}
				if got := envMap(c)[contract.EnvThemesDir]; got != ThemesMountPath {
					t.Errorf("%s = %q", contract.EnvThemesDir, got)
				}
			}
			s, err := SiteSettings(site)
			if err != nil || s.Theme != tt.wantTheme {
				t.Errorf("site file theme %q (%v), want %q", s.Theme, err, tt.wantTheme)
			}
		})
	}
}
