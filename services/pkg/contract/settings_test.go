package contract

import (
	"encoding/json"
	"testing"
)

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
			// through the wire, as the gateway reads content's answer
			sent := answer
			sent.Stored = tt.stored
			b, err := json.Marshal(sent)
			if err != nil {
				t.Fatal(err)
			}
			var s SiteSettings
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			if got := s.Apply(ours); got != tt.want {
				t.Errorf("Apply = %+v, want %+v", got, tt.want)
			}
		})
	}
}
