package contract

import "slices"

// SettingsPath is the content service's internal endpoint with the site
// settings stored through /cms/v2/settings, merged over the site file: the
// gateway's index (GET /) reads name, description, timezone and the front
// page values from it, so a settings change shows there.
const SettingsPath = "/internal/settings"

// SettingsChangedPayload is the notification of a settings write, on the
// site's control channel (every content replica reloads the settings when
// it hears it) and on its change channel, where listeners that only care
// that something was written (the edge cache) treat it as any write's.
const SettingsChangedPayload = "content:settings"

// SiteSettings is the body of SettingsPath: what the index shows.
type SiteSettings struct {
	Title        string `json:"title"`
	Description  string `json:"description"`
	Timezone     string `json:"timezone"`
	ShowOnFront  string `json:"show_on_front"`
	PageOnFront  int64  `json:"page_on_front"`
	PageForPosts int64  `json:"page_for_posts"`
	// Stored names the settings written through the REST API; the others
	// are the answering replica's site file's values. During a rollout that
	// replica may still run the previous site file (an old spec.title), so
	// the gateway takes only the stored values and its own site file's for
	// the rest. Nil (a content service from before this field) means all,
	// so an empty list must reach the wire as [] (no omitempty: it would
	// drop the empty list and the gateway would take the old title).
	Stored []string `json:"stored"`
}

// SiteSettingNames are the settings SiteSettings carries, by their REST names.
var SiteSettingNames = []string{"title", "description", "timezone", "show_on_front", "page_on_front", "page_for_posts"}

// Apply returns site with the settings' values: the stored ones when
// Stored says which, else all.
func (s SiteSettings) Apply(site Site) Site {
	take := func(name string) bool { return s.Stored == nil || slices.Contains(s.Stored, name) }
	if take("title") {
		site.Title = s.Title
	}
	if take("description") {
		site.Description = s.Description
	}
	if take("timezone") {
		site.Timezone = s.Timezone
	}
	if take("show_on_front") {
		site.ShowOnFront = s.ShowOnFront
	}
	if take("page_on_front") {
		site.PageOnFront = s.PageOnFront
	}
	if take("page_for_posts") {
		site.PageForPosts = s.PageForPosts
	}
	return site
}
