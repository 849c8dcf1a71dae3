package contract

import "testing"

func TestSiteSettingsApply(t *testing.T) {
	ours := Site{Title: "New title", Description: "New tagline", Timezone: "UTC", ShowOnFront: "posts"}
	answer := SiteSettings{Title: "Old title", Description: "Stored tagline", Timezone: "Europe/Paris", ShowOnFront: "page", PageOnFront: 7}
	for _, tt := range []struct {
		name   string
		stored []string
		want   Site
	}{
		{"a content service without the field: every value", nil,
			Site{Title: "Old title", Description: "Stored tagline", Timezone: "Europe/Paris", ShowOnFront: "page", PageOnFront: 7}},
		{"nothing stored: the gateway's own site file (a replica on the previous spec.title)", []string{},
			ours},
		{"only what was stored", []string{"description", "page_on_front"},
			Site{Title: "New title", Description: "Stored tagline", Timezone: "UTC", ShowOnFront: "posts", PageOnFront: 7}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := answer
			s.Stored = tt.stored
			if got := s.Apply(ours); got != tt.want {
				t.Errorf("Apply = %+v, want %+v", got, tt.want)
			}
		})
	}
}
