package contract

// SettingsPath is the content service's internal endpoint with the site
// settings stored through /cms/v2/settings, merged over the site file: the
// gateway's index (GET /) reads name, description, timezone and the front
// page values from it, so a settings change shows there.
const SettingsPath = "/internal/settings"

// SiteSettings is the body of SettingsPath: what the index shows.
type SiteSettings struct {
	Title        string `json:"title"`
	Description  string `json:"description"`
	Timezone     string `json:"timezone"`
	ShowOnFront  string `json:"show_on_front"`
	PageOnFront  int64  `json:"page_on_front"`
	PageForPosts int64  `json:"page_for_posts"`
}

// Apply returns site with the settings' values.
func (s SiteSettings) Apply(site Site) Site {
	site.Title, site.Description, site.Timezone = s.Title, s.Description, s.Timezone
	site.ShowOnFront, site.PageOnFront, site.PageForPosts = s.ShowOnFront, s.PageOnFront, s.PageForPosts
	return site
}
