package contract

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"
)

// Site is the site settings file (SiteFileName) rendered by the operator from
// the Site spec and read by the gateway (index) and content (dates, links).
type Site struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	// URL is the public site address, without a trailing slash.
	URL string `json:"url"`
	// Timezone is an IANA name ("Europe/Paris") or "" for UTC.
	Timezone string `json:"timezone"`
	// ShowOnFront is "posts" or "page".
	ShowOnFront  string     `json:"show_on_front"`
	PageOnFront  int64      `json:"page_on_front"`
	PageForPosts int64      `json:"page_for_posts"`
	Extensions   Extensions `json:"extensions"`
	// WPAlias also serves the REST API as WordPress names it: the /wp-json/
	// root and the wp/v2 namespace, answered by the cms/v2 handlers with
	// links in the names the client used (docs/api.md). Off by default: the
	// seed's cms/v2 stays the primary namespace.
	WPAlias bool `json:"wp_alias,omitempty"`
	// Theme is the stylesheet (directory name) of the site's block theme:
	// "" or ActiveTheme for the built-in one, else a directory under
	// EnvThemesDir (docs/website.md#themes).
	Theme string `json:"theme,omitempty"`
}

// ActiveTheme is the stylesheet of the theme built into the content
// service, the site's theme unless Site.Theme names another.
const ActiveTheme = "siteplane"

// Stylesheet is the stylesheet of the site's theme: the gateway names it in
// the index's wp:active-theme link and the admin's boot data.
func (s *Site) Stylesheet() string {
	if s.Theme == "" {
		return ActiveTheme
	}
	return s.Theme
}

// Extensions switches the optional extension namespaces.
type Extensions struct {
	CachePlugin bool `json:"cache_plugin"`
	HostTools   bool `json:"host_tools"`
}

// Validate reports every problem of the settings at once.
func (s *Site) Validate() error {
	var errs []error
	u, err := url.Parse(s.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("url %q is not an absolute http(s) URL", s.URL))
	}
	if _, err := time.LoadLocation(s.Timezone); err != nil {
		errs = append(errs, fmt.Errorf("timezone %q: %v", s.Timezone, err))
	}
	switch s.ShowOnFront {
	case "posts", "page":
	default:
		errs = append(errs, fmt.Errorf("show_on_front %q must be posts or page", s.ShowOnFront))
	}
	if s.PageOnFront < 0 || s.PageForPosts < 0 {
		errs = append(errs, errors.New("page_on_front and page_for_posts must not be negative"))
	}
	return errors.Join(errs...)
}

// Location returns the site's time zone (UTC when unset).
func (s *Site) Location() *time.Location {
	loc, err := time.LoadLocation(s.Timezone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// DefaultSite is used when no site file is configured (local runs, tests).
func DefaultSite(siteURL string) Site {
	return Site{Title: "Siteplane", Description: "Just another Siteplane site", URL: siteURL, ShowOnFront: "posts",
		Extensions: Extensions{CachePlugin: true, HostTools: true}}
}

// ReadSiteFile reads and validates a site settings file.
func ReadSiteFile(path string) (*Site, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Site
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("site file: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("site file: %w", err)
	}
	return &s, nil
}
