package resources

import (
	"fmt"

	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// SiteSettings renders the site settings file from the spec. The result is
// validated with the contract's own rules, which also catch what CEL cannot
// (an unknown time zone).
func SiteSettings(site *sitev1.Site) (contract.Site, error) {
	s := contract.Site{
		Title:        site.Spec.Title,
		Description:  site.Spec.Description,
		URL:          site.PublicURL(),
		Timezone:     site.Spec.Timezone,
		ShowOnFront:  site.Spec.FrontPage.Show,
		PageOnFront:  site.Spec.FrontPage.PageOnFront,
		PageForPosts: site.Spec.FrontPage.PageForPosts,
		Extensions: contract.Extensions{
			CachePlugin: sitev1.BoolOr(site.Spec.Extensions.CachePlugin, true),
			HostTools:   sitev1.BoolOr(site.Spec.Extensions.HostTools, true),
		},
		WPAlias: sitev1.BoolOr(site.Spec.WPAlias, false),
		Theme:   siteTheme(site),
	}
	if s.ShowOnFront == "" {
		s.ShowOnFront = "posts"
	}
	if s.Timezone == "UTC" {
		// The contract spells UTC as the empty zone.
		s.Timezone = ""
	}
	if err := s.Validate(); err != nil {
		return contract.Site{}, err
	}
	return s, nil
}

// Routes renders the gateway's route file: every service at its in-cluster
// Service address.
func Routes(site *sitev1.Site) (contract.RouteFile, error) {
	urls := map[string]string{}
	for _, c := range contract.Services {
		if c != contract.ServiceGateway {
			urls[c] = ServiceURL(site.Name, c)
		}
	}
	f := contract.DefaultRoutes(urls)
	if err := f.Validate(); err != nil {
		return contract.RouteFile{}, err
	}
	return f, nil
}

// ConfigData renders the ConfigMap's data: the site file and the route file.
func ConfigData(site *sitev1.Site) (map[string]string, error) {
	// The gateway refuses to start with a trusted proxy it cannot parse;
	// the CRD's pattern lets through what only a parser catches (999.0.0.1).
	if err := ValidTrustedProxies(site.Spec.Exposure.TrustedProxies); err != nil {
		return nil, err
	}
	settings, err := SiteSettings(site)
	if err != nil {
		return nil, fmt.Errorf("site settings: %w", err)
	}
	siteJSON, err := marshalIndent(settings)
	if err != nil {
		return nil, err
	}
	routes, err := Routes(site)
	if err != nil {
		return nil, fmt.Errorf("route file: %w", err)
	}
	routesJSON, err := routes.Marshal()
	if err != nil {
		return nil, err
	}
	return map[string]string{
		contract.SiteFileName:   string(siteJSON),
		contract.RoutesFileName: string(routesJSON),
	}, nil
}

// ConfigMap is the site ConfigMap holding data.
func ConfigMap(site *sitev1.Site, data map[string]string) *corev1ac.ConfigMapApplyConfiguration {
	return corev1ac.ConfigMap(ConfigMapName(site.Name), site.Namespace).
		WithLabels(Labels(site, ComponentConfig)).
		WithOwnerReferences(OwnerReference(site)).
		WithData(data)
}
