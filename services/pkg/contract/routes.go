package contract

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// RouteFileVersion is the only route-file format the gateway understands.
const RouteFileVersion = 1

// RouteFile is the gateway's routing table. The operator renders it into the
// site ConfigMap (RoutesFileName); `make run` writes one for local processes.
//
// A request is sent to the service of the longest matching Prefix; prefixes
// are matched on whole path segments against the REST route (the part after
// /cms-json, or the rest_route value) or, for Public routes, the raw URL path.
type RouteFile struct {
	Version  int       `json:"version"`
	Services []Backend `json:"services"`
	Routes   []Route   `json:"routes"`
}

// Backend is one upstream service.
type Backend struct {
	// Name is a contract Service* name.
	Name string `json:"name"`
	// URL is the service's base URL, e.g. http://site-content:8080.
	URL string `json:"url"`
	// Describes reports whether the service publishes route descriptions at
	// RouteDescriptionsPath (content and media do; marketplace does not).
	Describes bool `json:"describes,omitempty"`
}

// Route maps a path prefix to a backend.
type Route struct {
	// Prefix starts with "/": "/cms/v2/media" or, for Public routes, "/api/".
	Prefix string `json:"prefix"`
	// Service names a Backend.
	Service string `json:"service"`
	// Public routes match the raw URL path instead of the REST route, and are
	// proxied without REST-level handling (the marketplace API, upload files).
	Public bool `json:"public,omitempty"`
	// Site marks the public website route (Public too): the gateway
	// forwards the page request to the service under SitePath, with the
	// caller's signed identity, so one service renders every page.
	Site bool `json:"site,omitempty"`
}

// Validate reports every problem of the file at once.
func (f *RouteFile) Validate() error {
	var errs []error
	if f.Version != RouteFileVersion {
		errs = append(errs, fmt.Errorf("version %d is not supported (want %d)", f.Version, RouteFileVersion))
	}
	names := map[string]bool{}
	for i, b := range f.Services {
		switch {
		case b.Name == "":
			errs = append(errs, fmt.Errorf("services[%d]: name is empty", i))
		case names[b.Name]:
			errs = append(errs, fmt.Errorf("services[%d]: duplicate name %q", i, b.Name))
		}
		names[b.Name] = true
		u, err := url.Parse(b.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("services[%d] (%s): url %q is not an absolute http(s) URL", i, b.Name, b.URL))
		}
	}
	seen := map[string]bool{}
	for i, r := range f.Routes {
		if !strings.HasPrefix(r.Prefix, "/") {
			errs = append(errs, fmt.Errorf("routes[%d]: prefix %q must start with /", i, r.Prefix))
		}
		key := fmt.Sprintf("%t %s", r.Public, strings.ToLower(strings.TrimSuffix(r.Prefix, "/")))
		if seen[key] {
			errs = append(errs, fmt.Errorf("routes[%d]: duplicate prefix %q", i, r.Prefix))
		}
		seen[key] = true
		if r.Site && !r.Public {
			errs = append(errs, fmt.Errorf("routes[%d]: a site route must be public", i))
		}
		if !names[r.Service] {
			errs = append(errs, fmt.Errorf("routes[%d]: unknown service %q", i, r.Service))
		}
	}
	return errors.Join(errs...)
}

// Backend returns the named backend.
func (f *RouteFile) Backend(name string) (Backend, bool) {
	for _, b := range f.Services {
		if b.Name == name {
			return b, true
		}
	}
	return Backend{}, false
}

// Marshal renders the file deterministically (routes sorted), so the operator's
// config hash changes only when the content does.
func (f RouteFile) Marshal() ([]byte, error) {
	routes := append([]Route(nil), f.Routes...)
	sort.SliceStable(routes, func(i, j int) bool {
		if routes[i].Public != routes[j].Public {
			return !routes[i].Public
		}
		return routes[i].Prefix < routes[j].Prefix
	})
	f.Routes = routes
	return json.MarshalIndent(f, "", "  ")
}

// ParseRouteFile decodes and validates a route file; unknown fields are errors
// so that a typo cannot silently drop a route.
func ParseRouteFile(data []byte) (*RouteFile, error) {
	var f RouteFile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("route file: %w", err)
	}
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("route file: %w", err)
	}
	return &f, nil
}

// SiteReserved are the public path prefixes the website never renders,
// whether or not a route serves them now: the marketplace API, uploads and
// the admin and login pages the gateway serves. An unrouted reserved path
// answers rest_no_route, as before the website existed.
var SiteReserved = []string{"/api", "/cms-content", "/cms-admin", "/cms-login.php", "/cms-json"}

// IsSiteReserved reports whether path lies under a SiteReserved prefix
// (whole segments, case-insensitively).
func IsSiteReserved(path string) bool {
	lp := strings.ToLower(path)
	for _, p := range SiteReserved {
		if lp == p || strings.HasPrefix(lp, p+"/") {
			return true
		}
	}
	return false
}

// ThemesPath is where a supplied theme's files are public (fonts, images),
// served by the content service from the theme directory it loaded.
const ThemesPath = "/cms-content/themes"

// FontsPath is where the fonts installed through the font library are
// public (WordPress's wp-content/uploads/fonts), served by the content
// service from its database.
const FontsPath = "/cms-content/fonts"

// DefaultRoutes is the standard table for a site whose services are reachable
// at the given base URLs (keyed by service name). Services missing from urls
// are left out, with their routes.
func DefaultRoutes(urls map[string]string) RouteFile {
	f := RouteFile{Version: RouteFileVersion}
	add := func(name string, describes bool, routes ...Route) {
		u, ok := urls[name]
		if !ok {
			return
		}
		f.Services = append(f.Services, Backend{Name: name, URL: u, Describes: describes})
		f.Routes = append(f.Routes, routes...)
	}
	add(ServiceMarketplace, false, Route{Prefix: "/api/", Service: ServiceMarketplace, Public: true})
	// The website: every public path no other route owns is a page the
	// content service renders from the theme (docs/website.md).
	// cms-block-editor/v1 is content's (navigation-fallback) but for
	// url-details, which the gateway serves itself; cms-abilities/v1 is
	// content's (an empty abilities registry).
	add(ServiceContent, true, Route{Prefix: "/cms/v2", Service: ServiceContent},
		Route{Prefix: "/cms-block-editor/v1", Service: ServiceContent},
		Route{Prefix: ThemesPath + "/", Service: ServiceContent, Public: true},
		Route{Prefix: FontsPath + "/", Service: ServiceContent, Public: true},
		Route{Prefix: "/cms-abilities/v1", Service: ServiceContent},
		Route{Prefix: "/", Service: ServiceContent, Public: true, Site: true})
	add(ServiceMedia, true,
		Route{Prefix: "/cms/v2/media", Service: ServiceMedia},
		Route{Prefix: "/cms-content/uploads/", Service: ServiceMedia, Public: true})
	return f
}
