package stack

import (
	"testing"

	"siteplane.dev/services/pkg/contract"
)

// An attachment's link (/?attachment_id={id}) through the gateway: as
// WordPress 6.9 installs (attachment pages off), a 301 to the file, which is
// served; no such attachment is a 404.
func TestWebsiteAttachmentLink(t *testing.T) {
	needs(t, contract.ServiceContent, contract.ServiceMedia)
	img := uploadJPEG(t, "attached.jpg", 64, 48).Obj()
	link, file := img["link"].(string), img["source_url"].(string)
	for _, tt := range []struct {
		name, path string
		status     int
		location   string
	}{
		{"the attachment's link", mustPath(t, link), 301, file},
		{"no such attachment", "/?attachment_id=987654", 404, ""},
		{"not an id", "/?attachment_id=abc", 404, ""},
	} {
		r := page(t, "GET", tt.path)
		if r.Status != tt.status || r.Header.Get("Location") != tt.location {
			t.Errorf("%s (%s): %d %q, want %d %q", tt.name, tt.path, r.Status, r.Header.Get("Location"), tt.status, tt.location)
		}
	}
	if r := page(t, "GET", uploadPath(t, file)); r.Status != 200 {
		t.Errorf("the file: %d", r.Status)
	}
}
