package stack

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/pkg/contract"
)

// An attachment's link (/?attachment_id={id}) through the gateway, with
// both settings of wp_attachment_pages_enabled: off (as WordPress 6.9
// installs, and unset) a 301 to the file, which is served; on, the
// attachment's page rendered with the theme (the attachment template
// hierarchy falling back to single), its title, its description with the
// image linked to the file, its canonical link. No such attachment is a
// 404 either way.
func TestWebsiteAttachmentLink(t *testing.T) {
	needs(t, contract.ServiceContent, contract.ServiceMedia)
	img := uploadJPEG(t, "attached.jpg", 640, 480).Obj()
	link, file := img["link"].(string), img["source_url"].(string)
	title := img["title"].(map[string]any)["rendered"].(string)
	for _, setting := range []string{"", "0", "1"} {
		setAttachmentPages(t, setting)
		on := setting == "1"
		for _, tt := range []struct {
			name, path string
			status     int
			location   string
			body       []string
		}{
			{"the attachment's link", mustPath(t, link), map[bool]int{false: 301, true: 200}[on], map[bool]string{false: file}[on],
				[]string{`<h1 class="wp-block-post-title">` + title + `</h1>`, `<p class="attachment"><a href='` + file + `'><img `,
					`src="` + strings.TrimSuffix(file, ".jpg") + "-300x225.jpg",
					`<link rel="canonical" href="` + link + `">`, "attachment single single-attachment"}},
			{"no such attachment", "/?attachment_id=987654", 404, "", nil},
			{"not an id", "/?attachment_id=abc", 404, "", nil},
		} {
			r := page(t, "GET", tt.path)
			if r.Status != tt.status || r.Header.Get("Location") != tt.location {
				t.Errorf("setting %q: %s (%s): %d %q, want %d %q", setting, tt.name, tt.path, r.Status, r.Header.Get("Location"), tt.status, tt.location)
				continue
			}
			if r.Status != 200 {
				continue
			}
			if got := r.Header.Get("X-Siteplane-Template"); got != "single" {
				t.Errorf("setting %q: %s: template %q, want single (no attachment template in the theme)", setting, tt.name, got)
			}
			for _, w := range tt.body {
				if !strings.Contains(string(r.Raw), w) {
					t.Errorf("setting %q: %s: no %q in %.3000s", setting, tt.name, w, r.Raw)
				}
			}
		}
	}
	if r := page(t, "GET", uploadPath(t, file)); r.Status != 200 {
		t.Errorf("the file: %d", r.Status)
	}
}

// setAttachmentPages stores wp_attachment_pages_enabled ("" removes it) in
// the content schema's settings table, as an operator would (WordPress has
// no REST field for it), then makes a REST write so that the website's
// next page starts a new change generation; the option is removed again
// when the test ends.
func setAttachmentPages(t *testing.T, value string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, st.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	table := pgx.Identifier{contract.ServiceContent, "settings"}.Sanitize()
	sql, args := "DELETE FROM "+table+" WHERE name = 'wp_attachment_pages_enabled'", []any{}
	if value != "" {
		sql = "INSERT INTO " + table + " (name, value) VALUES ('wp_attachment_pages_enabled', to_jsonb($1::text)) " +
			"ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value"
		args = append(args, value)
	}
	if _, err := conn.Exec(ctx, sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	create(t, "posts", map[string]any{"title": "Attachment pages " + value, "status": "draft"})
	if value != "" {
		t.Cleanup(func() { setAttachmentPages(t, "") })
	}
}
