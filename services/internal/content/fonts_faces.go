package content

import (
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// Font faces: created with their settings and font files (uploaded in the
// same multipart request, each named by its key in src, or URLs), deleted
// with their files.

// fontFaceSettingsSchema is the item schema's font_face_settings object.
var fontFaceSettingsSchema = func() *rest.Schema {
	str := func() *rest.Schema { return &rest.Schema{Type: "string"} }
	props := rest.Props{
		{Name: "fontFamily", Schema: str()},
		{Name: "fontStyle", Schema: str()},
		{Name: "fontWeight", Schema: &rest.Schema{Types: []string{"string", "integer"}}},
		{Name: "fontDisplay", Schema: &rest.Schema{Type: "string", Enum: strEnum("auto", "block", "fallback", "swap", "optional")}},
		{Name: "src", Schema: &rest.Schema{AnyOf: []*rest.Schema{{Type: "string"}, {Type: "array", Items: &rest.Schema{Type: "string"}}}}},
	}
	for _, k := range fontFaceKeys[5 : len(fontFaceKeys)-1] {
		props = append(props, rest.Prop{Name: k, Schema: str()})
	}
	props = append(props, rest.Prop{Name: "preview", Schema: &rest.Schema{Type: "string", Format: "uri"}})
	return &rest.Schema{Type: "object", AdditionalProperties: false, RequiredProps: []string{"fontFamily", "src"}, Properties: props}
}()

func (s *Service) fontFaceCreateArgs() rest.Props {
	callbacks := map[string]func(any) any{"fontFamily": sanitizeFontFamily, "preview": urlField, "src": s.sanitizeFontSrc}
	for _, k := range fontFaceKeys {
		if callbacks[k] == nil {
			callbacks[k] = textField
		}
	}
	return rest.Props{fontFamilyIDArg(), fontThemeJSONArg(), {Name: "font_face_settings", Schema: &rest.Schema{
		Description: "font-face declaration in theme.json format, encoded as a string.", Type: "string", Required: true,
		Validate: s.validateFontFaceSettings, Sanitize: sanitizeFontSettings(callbacks)}}}
}

// fontSrcs is a face's src as a list.
func fontSrcs(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			out = append(out, phpStr(e))
		}
		return out
	}
	return nil
}

// sanitizeFontSrc is sanitize_src for one src or each of a list: a URL is
// sanitize_url'd, a file key kept.
func (s *Service) sanitizeFontSrc(v any) any {
	one := func(src string) any {
		src = strings.TrimLeft(src, " \t\n\r\x00\x0B")
		if !s.validFontURL(src) {
			return src
		}
		return urlField(src)
	}
	if list, ok := v.([]any); ok {
		out := make([]any, len(list))
		for i, e := range list {
			out[i] = one(phpStr(e))
		}
		return out
	}
	return one(phpStr(v))
}

// validFontURL is wp_http_validate_url as far as it can be decided
// without resolving the host (this site makes no outside lookups): an
// http or https URL with a host and no user or password; on another host
// than the site's, a web port (80, 443, 8080) and no loopback, private or
// unspecified IPv4 address.
func (s *Service) validFontURL(src string) bool {
	u, err := url.Parse(src)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return false
	}
	if site, err := url.Parse(s.site.URL); err == nil && strings.EqualFold(site.Host, u.Host) {
		return true
	}
	if ip := net.ParseIP(strings.Trim(u.Hostname(), ".")).To4(); ip != nil &&
		(ip[0] == 127 || ip[0] == 10 || ip[0] == 0 || ip[0] == 172 && ip[1] >= 16 && ip[1] <= 31 || ip[0] == 192 && ip[1] == 168) {
		return false
	}
	switch u.Port() {
	case "", "80", "443", "8080":
		return true
	}
	return false
}

// validateFontFaceSettings is validate_create_font_face_settings.
func (s *Service) validateFontFaceSettings(r *rest.Request, v any, _ string) error {
	decoded := decodeFontSettings(v)
	if decoded == nil {
		return fontParamError("font_face_settings parameter must be a valid JSON string.")
	}
	if err := rest.Validate(decoded, fontFaceSettingsSchema, "font_face_settings"); err != nil {
		return withStatus400(err)
	}
	settings := decoded.(map[string]any)
	if err := emptyRequired(settings, fontFaceSettingsSchema.RequiredProps, "font_face_setting"); err != nil {
		return err
	}
	srcs := fontSrcs(settings["src"])
	for _, src := range srcs {
		src = strings.TrimLeft(src, " \t\n\r\x00\x0B")
		if src == "" || src == "0" {
			return fontParamError("font_face_settings[src] values must be non-empty strings.")
		}
		if _, isFile := r.Files[src]; !isFile && !s.validFontURL(src) {
			return fontParamError(`font_face_settings[src] value "` + src + `" must be a valid URL or file reference.`)
		}
	}
	keys := make([]string, 0, len(r.Files))
	for k := range r.Files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(srcs, k) {
			return fontParamError("File " + k + " must be used in font_face_settings[src].")
		}
	}
	return nil
}

// fontFaceSlug is WP_Font_Utils::get_font_face_slug: the key that makes
// a face unique (family, style, weight, stretch, unicode range).
func fontFaceSlug(settings map[string]any) string {
	get := func(k, def string) string {
		if v, ok := settings[k]; ok && v != nil {
			return phpStr(v)
		}
		return def
	}
	weight := strings.NewReplacer("normal", "400", "bold", "700").Replace(strings.ToLower(get("fontWeight", "400")))
	stretch := strings.NewReplacer("ultra-condensed", "50%", "extra-condensed", "62.5%", "semi-condensed", "87.5%", "condensed", "75%",
		"normal", "100%", "semi-expanded", "112.5%", "extra-expanded", "150%", "ultra-expanded", "200%", "expanded", "125%").
		Replace(strings.ToLower(get("fontStretch", "100%")))
	parts := []string{strings.ToLower(get("fontFamily", "")), strings.ToLower(get("fontStyle", "normal")), weight, stretch,
		strings.ToUpper(get("unicodeRange", "U+0-10FFFF"))}
	clean := strings.NewReplacer(`"`, "", "'", "", ";", "")
	for i, p := range parts {
		parts[i] = commaSpace.ReplaceAllString(strings.TrimSpace(clean.Replace(p)), ",")
	}
	return textField(strings.Join(parts, ";")).(string)
}

// commaSpace is the whitespace after a comma that the face slug drops.
var commaSpace = regexp.MustCompile(`,\s+`)

func (s *Service) createFontFace(c *rest.Request) (*rest.Response, error) {
	family, err := s.fontParent(c)
	if err != nil {
		return nil, err
	}
	fs := settingsParam(c, "font_face_settings")
	settings := fs.vals
	title := fontFaceSlug(settings)
	files, err := readFontUploads(c, fontSrcs(settings["src"]))
	if err != nil {
		return nil, err
	}
	var p *fontPost
	err = s.inTx(c.Context(), func(tx pgx.Tx) error {
		if _, err := tx.Exec(c.Context(), `SELECT pg_advisory_xact_lock(hashtext('wp_font_face:' || $1))`, title); err != nil {
			return err
		}
		if taken, err := fontSlugTaken(c.Context(), tx, fontFaceType, "title", title); err != nil || taken {
			if taken {
				return rest.NewError("rest_duplicate_font_face", "A font face matching those settings already exists.", http.StatusBadRequest)
			}
			return err
		}
		id, err := store.NextPostID(c.Context(), tx)
		if err != nil {
			return err
		}
		srcs, err := s.storeFontFiles(c.Context(), tx, id, fontSrcs(settings["src"]), files)
		if err != nil {
			return err
		}
		if len(srcs) == 1 {
			settings["src"] = srcs[0]
		} else {
			settings["src"] = srcs
		}
		p = &fontPost{ID: id, Parent: family.ID, Title: title, Slug: store.SanitizeTitle(title), Content: fs.json()}
		return insertFontFaceWithID(c, tx, p)
	})
	if err != nil {
		return nil, err
	}
	return rest.Created(c, "/"+Namespace+"/font-families/"+itoa(family.ID)+"/font-faces/"+itoa(p.ID), s.fontFaceItem(p)), nil
}

func insertFontFaceWithID(c *rest.Request, tx pgx.Tx, p *fontPost) error {
	now := time.Now().UTC()
	_, err := tx.Exec(c.Context(), `INSERT INTO posts (id, type, status, author, date_gmt, modified_gmt, slug, title, content, parent,
 comment_status, ping_status) VALUES ($1, $2, 'publish', $3, $4, $4, $5, $6, $7, $8, 'closed', 'closed')`,
		p.ID, fontFaceType, caller(c).UserID, now, p.Slug, p.Title, p.Content, p.Parent)
	return err
}

func (s *Service) deleteFontFace(c *rest.Request) (*rest.Response, error) {
	p, err := s.fontFaceOf(c)
	if err != nil {
		return nil, err
	}
	if !c.Bool("force") {
		return nil, errTrashNotSupported()
	}
	prev := s.fontFaceItem(p)
	err = s.inTx(c.Context(), func(tx pgx.Tx) error {
		if err := deleteFontFiles(c.Context(), tx, p.ID); err != nil {
			return err
		}
		return deleteFontPosts(c.Context(), tx, p.ID)
	})
	if err != nil {
		return nil, err
	}
	return rest.OK(rest.Object{{Key: "deleted", Value: true}, {Key: "previous", Value: prev.Data}}), nil
}
