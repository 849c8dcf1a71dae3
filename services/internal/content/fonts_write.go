package content

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// Installing fonts: font families created, updated and deleted, font faces
// created (with uploaded files or URLs) and deleted, each write in one
// transaction, with the font controllers' validation and messages.

// fontFamilySettingsSchema is the font_family_settings object of the item
// schema, against which the decoded settings are validated.
var fontFamilySettingsSchema = &rest.Schema{Type: "object", AdditionalProperties: false, RequiredProps: []string{"name", "slug", "fontFamily"},
	Properties: rest.Props{
		{Name: "name", Schema: &rest.Schema{Type: "string"}},
		{Name: "slug", Schema: &rest.Schema{Type: "string"}},
		{Name: "fontFamily", Schema: &rest.Schema{Type: "string"}},
		{Name: "preview", Schema: &rest.Schema{Type: "string", Format: "uri"}},
	}}

// fontFamilyUpdateSchema is the same without required properties: an
// update sends only what changes.
var fontFamilyUpdateSchema = func() *rest.Schema {
	s := *fontFamilySettingsSchema
	s.RequiredProps = nil
	return &s
}()

func (s *Service) fontFamilyWriteArgs(id rest.Props) rest.Props {
	return append(id, fontThemeJSONArg(), rest.Prop{Name: "font_family_settings", Schema: &rest.Schema{
		Description: "font-family declaration in theme.json format, encoded as a string.", Type: "string", Required: true,
		Validate: validateFontFamilySettings, Sanitize: sanitizeFontSettings(map[string]func(any) any{
			"name": textField, "slug": func(v any) any { return store.SanitizeTitle(phpStr(v)) },
			"fontFamily": sanitizeFontFamily, "preview": urlField})}})
}

// decodeFontSettings is json_decode( $value, true ) of a settings string:
// nil for anything that is no JSON (or is JSON null).
func decodeFontSettings(v any) any {
	str, ok := v.(string)
	if !ok {
		return nil
	}
	var out any
	if json.Unmarshal([]byte(str), &out) != nil {
		return nil
	}
	return out
}

func fontParamError(msg string) *rest.Error {
	return rest.NewError("rest_invalid_param", msg, http.StatusBadRequest)
}

// withStatus400 is WP_Error::add_data( array( 'status' => 400 ) ): the
// schema error's own data moves to additional_data.
func withStatus400(e *rest.Error) *rest.Error {
	if e.Data != nil {
		e.AdditionalData = append(e.AdditionalData, e.Data)
	}
	e.Data = rest.Object{{Key: "status", Value: http.StatusBadRequest}}
	return e
}

// validateFontFamilySettings is validate_font_family_settings.
func validateFontFamilySettings(r *rest.Request, v any, _ string) error {
	settings := decodeFontSettings(v)
	if settings == nil {
		return fontParamError("font_family_settings parameter must be a valid JSON string.")
	}
	schema := fontFamilySettingsSchema
	if r.Has("id") {
		schema = fontFamilyUpdateSchema
		if m, ok := settings.(map[string]any); ok && m["slug"] != nil {
			return fontParamError("font_family_settings[slug] cannot be updated.")
		}
	}
	if err := rest.Validate(settings, schema, "font_family_settings"); err != nil {
		return withStatus400(err)
	}
	return emptyRequired(settings.(map[string]any), fontFamilySettingsSchema.RequiredProps, "font_family_settings")
}

// emptyRequired is the controllers' check that no required setting sent
// is empty (PHP's falsy values: "", "0", 0, false, [], null).
func emptyRequired(settings map[string]any, required []string, label string) error {
	for _, k := range required {
		if v, ok := settings[k]; ok && v != nil && phpFalsy(v) {
			return fontParamError(label + "[ " + k + " ] cannot be empty.")
		}
	}
	return nil
}

func phpFalsy(v any) bool {
	switch x := v.(type) {
	case string:
		return x == "" || x == "0"
	case float64:
		return x == 0
	case json.Number:
		return x == "0"
	case bool:
		return !x
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return v == nil
}

// sanitizeFontSettings decodes the settings string and runs each key's
// sanitize callback (every key has one: validation refused the others).
func sanitizeFontSettings(callbacks map[string]func(any) any) rest.SanitizeFunc {
	return func(_ *rest.Request, v any, _ string) (any, error) {
		settings, _ := decodeFontSettings(v).(map[string]any)
		for k, val := range settings {
			if f := callbacks[k]; f != nil {
				settings[k] = f(val)
			}
		}
		raw, _ := v.(string)
		return &fontSettings{keys: jsonKeys(raw), vals: settings}, nil
	}
}

// fontSettings are decoded, sanitised settings with the order the client
// sent their keys in (PHP's arrays keep it: a face's settings are stored
// and shown back that way).
type fontSettings struct {
	keys []string
	vals map[string]any
}

// settingsParam is the sanitised settings argument name.
func settingsParam(c *rest.Request, name string) *fontSettings {
	if fs, ok := c.Param(name).(*fontSettings); ok && fs.vals != nil {
		return fs
	}
	return &fontSettings{vals: map[string]any{}}
}

// jsonKeys are the top-level keys of a JSON object, in order.
func jsonKeys(raw string) []string {
	dec := json.NewDecoder(strings.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
		k, _ := t.(string)
		keys = append(keys, k)
	}
	return keys
}

// json is the settings as a JSON object in their keys' order.
func (fs *fontSettings) json() string {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for _, k := range fs.keys {
		v, ok := fs.vals[k]
		if !ok {
			continue
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(v)
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.String()
}

func phpStr(v any) string {
	out, _ := rest.Sanitize(v, &rest.Schema{Type: "string"}, "")
	str, _ := out.(string)
	return str
}

func textField(v any) any {
	out, _ := rest.Sanitize(v, &rest.Schema{Type: "string", Format: "text-field"}, "")
	return out
}

func urlField(v any) any {
	out, _ := rest.Sanitize(v, &rest.Schema{Type: "string", Format: "uri"}, "")
	return out
}

// fontFamilyBare matches the items WP_Font_Utils::maybe_add_quotes leaves
// unquoted: letters and hyphens only, or generic(letters and hyphens).
var fontFamilyBare = regexp.MustCompile(`^(?:[a-zA-Z\-]+|generic\([a-zA-Z\-]+\))$`)

// sanitizeFontFamily is WP_Font_Utils::sanitize_font_family: each
// comma-separated name quoted unless it is a plain keyword.
func sanitizeFontFamily(v any) any {
	if phpFalsy(v) {
		return ""
	}
	quote := func(item string) string {
		item = strings.TrimSpace(item)
		if item == "" || fontFamilyBare.MatchString(item) {
			return item
		}
		return `"` + strings.Trim(item, `"'`) + `"`
	}
	out := textField(v).(string)
	if !strings.Contains(out, ",") {
		return quote(out)
	}
	var items []string
	for _, it := range strings.Split(out, ",") {
		if q := quote(it); q != "" && q != "0" {
			items = append(items, q)
		}
	}
	return strings.Join(items, ", ")
}

func (s *Service) createFontFamily(c *rest.Request) (*rest.Response, error) {
	settings := settingsParam(c, "font_family_settings").vals
	slug := phpStr(settings["slug"])
	p := &fontPost{Title: phpStr(settings["name"]), Slug: store.SanitizeTitle(slug), Content: fontFamilyContent(settings)}
	var it rest.Item
	err := s.inTx(c.Context(), func(tx pgx.Tx) error {
		// one family per slug, also between two concurrent creates
		if _, err := tx.Exec(c.Context(), `SELECT pg_advisory_xact_lock(hashtext('wp_font_family:' || $1))`, p.Slug); err != nil {
			return err
		}
		if taken, err := fontSlugTaken(c.Context(), tx, fontFamilyType, "slug", p.Slug); err != nil || taken {
			if taken {
				return rest.NewError("rest_duplicate_font_family", `A font family with slug "`+slug+`" already exists.`, http.StatusBadRequest)
			}
			return err
		}
		var err error
		if p.ID, err = insertFontPost(c.Context(), tx, fontFamilyType, caller(c).UserID, p, time.Now().UTC()); err != nil {
			return err
		}
		it, err = s.fontFamilyItem(c, tx, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return rest.Created(c, "/"+Namespace+"/font-families/"+itoa(p.ID), it), nil
}

// fontFamilyContent is the post content of a family: its settings but
// name and slug (the post's title and slug), as JSON.
func fontFamilyContent(settings map[string]any) string {
	kept := map[string]any{}
	for k, v := range settings {
		if k != "name" && k != "slug" {
			kept[k] = v
		}
	}
	b, _ := json.Marshal(kept) // strings only: cannot fail
	return string(b)
}

func (s *Service) updateFontFamily(c *rest.Request) (*rest.Response, error) {
	var it rest.Item
	err := s.inTx(c.Context(), func(tx pgx.Tx) error {
		p, err := readFontPost(c.Context(), tx, fontFamilyType, c.Int("id"))
		if err != nil || p == nil {
			return orInvalidID(err)
		}
		merged := map[string]any{}
		for _, m := range fontFamilySettings(p) {
			merged[m.Key] = m.Value
		}
		for k, v := range settingsParam(c, "font_family_settings").vals {
			merged[k] = v
		}
		p.Title, p.Content = phpStr(merged["name"]), fontFamilyContent(merged)
		if err := updateFontPost(c.Context(), tx, p, time.Now().UTC()); err != nil {
			return err
		}
		it, err = s.fontFamilyItem(c, tx, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return rest.OK(it), nil
}

func errTrashNotSupported() *rest.Error {
	return rest.NewError("rest_trash_not_supported", `Font faces do not support trashing. Set "force=true" to delete.`, http.StatusNotImplemented)
}

// deleteFontFamily deletes a family with its faces and their files
// (_wp_after_delete_font_family); the answer's previous is the family as
// it was, faces included.
func (s *Service) deleteFontFamily(c *rest.Request) (*rest.Response, error) {
	if !c.Bool("force") {
		return nil, errTrashNotSupported()
	}
	var prev rest.Item
	err := s.inTx(c.Context(), func(tx pgx.Tx) error {
		p, err := readFontPost(c.Context(), tx, fontFamilyType, c.Int("id"))
		if err != nil || p == nil {
			return orInvalidID(err)
		}
		if prev, err = s.fontFamilyItem(c, tx, p); err != nil {
			return err
		}
		faces, err := fontFaceIDs(c.Context(), tx, p.ID)
		if err != nil {
			return err
		}
		if err := deleteFontFiles(c.Context(), tx, faces...); err != nil {
			return err
		}
		return deleteFontPosts(c.Context(), tx, append(faces, p.ID)...)
	})
	if err != nil {
		return nil, err
	}
	return rest.OK(rest.Object{{Key: "deleted", Value: true}, {Key: "previous", Value: prev.Data}}), nil
}

func itoa(n int64) string { return store.Itoa(n) }
