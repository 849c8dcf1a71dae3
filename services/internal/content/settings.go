package content

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// Site settings (WP_REST_Settings_Controller): GET and update by
// administrators (manage_options).
//
// Decision: the content service owns the persisted settings (table
// settings); a missing value falls back to the site file the operator
// renders (contract.Site), then to WordPress's default. The gateway builds
// the index (GET /) from the same values through the internal
// contract.SettingsPath endpoint, so a change through /cms/v2/settings shows
// in GET / at once. url stays the operator's (it decides routing and TLS):
// it is shown here but cannot be written. The timezone setting also sets
// the time zone of the service's dates (Service.location).

// setting is one exposed option: its name, schema and default.
type setting struct {
	name   string
	schema *rest.Schema
	def    func(site contract.Site) any
}

func constant(v any) func(contract.Site) any { return func(contract.Site) any { return v } }

var siteSettings = []setting{
	{"title", &rest.Schema{Type: "string", Description: "Site title."}, func(s contract.Site) any { return s.Title }},
	{"description", &rest.Schema{Type: "string", Description: "Site tagline."}, func(s contract.Site) any { return s.Description }},
	{"url", &rest.Schema{Type: "string", Format: "uri", Description: "Site URL."}, func(s contract.Site) any { return s.URL }},
	{"email", &rest.Schema{Type: "string", Format: "email", Description: "This address is used for admin purposes, like new user notification."}, constant("")},
	{"timezone", &rest.Schema{Type: "string", Description: "A city in the same timezone as you."}, func(s contract.Site) any { return s.Timezone }},
	{"date_format", &rest.Schema{Type: "string", Description: "A date format for all date strings."}, constant("F j, Y")},
	{"time_format", &rest.Schema{Type: "string", Description: "A time format for all time strings."}, constant("g:i a")},
	{"start_of_week", &rest.Schema{Type: "integer", Description: "A day number of the week that the week should start on."}, constant(int64(1))},
	{"language", &rest.Schema{Type: "string", Description: "WordPress locale code."}, constant("en_US")},
	{"use_smilies", &rest.Schema{Type: "boolean", Description: "Convert emoticons like :-) and :-P to graphics on display."}, constant(true)},
	{"default_category", &rest.Schema{Type: "integer", Description: "Default post category."}, constant(int64(store.DefaultCategoryID))},
	{"default_post_format", &rest.Schema{Type: "string", Description: "Default post format."}, constant("0")},
	{"posts_per_page", &rest.Schema{Type: "integer", Description: "Blog pages show at most."}, constant(int64(10))},
	{"show_on_front", &rest.Schema{Type: "string", Enum: strEnum("posts", "page"), Description: "What to show on the front page"}, func(s contract.Site) any { return s.ShowOnFront }},
	{"page_on_front", &rest.Schema{Type: "integer", Minimum: rest.Ptr(0.0), Description: "The ID of the page that should be displayed on the front page"}, func(s contract.Site) any { return s.PageOnFront }},
	{"page_for_posts", &rest.Schema{Type: "integer", Minimum: rest.Ptr(0.0), Description: "The ID of the page that should display the latest posts"}, func(s contract.Site) any { return s.PageForPosts }},
	{"default_ping_status", &rest.Schema{Type: "string", Enum: strEnum("open", "closed"), Description: "Allow link notifications from other blogs (pingbacks and trackbacks) on new articles."}, constant("open")},
	{"default_comment_status", &rest.Schema{Type: "string", Enum: strEnum("open", "closed"), Description: "Allow people to submit comments on new posts."}, constant("open")},
	// an unset site_logo is null: WordPress reads the missing option as
	// false, which is no integer, so the settings controller answers null
	{"site_logo", &rest.Schema{Type: "integer", Description: "Site logo."}, constant(nil)},
	{"site_icon", &rest.Schema{Type: "integer", Description: "Site icon."}, constant(int64(0))},
}

func settingsSchema() *rest.Schema {
	props := make(rest.Props, 0, len(siteSettings))
	for _, st := range siteSettings {
		sc := *st.schema
		props = append(props, rest.Prop{Name: st.name, Schema: &sc})
	}
	return &rest.Schema{Title: "settings", Type: "object", Properties: props}
}

// settingsArgs are the update arguments: each setting's schema, where null
// resets the setting to its default (the settings controller's
// sanitize_callback lets null through).
func settingsArgs() rest.Props {
	args := make(rest.Props, 0, len(siteSettings))
	for _, st := range siteSettings {
		plain := *st.schema
		sc := plain
		sc.Sanitize = func(_ *rest.Request, v any, param string) (any, error) {
			if v == nil {
				return nil, nil
			}
			clean, err := rest.ParseArg(v, &plain, param)
			if err != nil {
				return nil, err
			}
			return clean, nil
		}
		args = append(args, rest.Prop{Name: st.name, Schema: &sc})
	}
	return args
}

func (s *Service) settingsRoutes() []rest.Route {
	return []rest.Route{{Namespace: Namespace, Path: "/settings", Schema: settingsSchema(), Endpoints: []rest.Endpoint{
		{Methods: rest.Readable, Args: rest.Props{}, Permission: settingsPermission, Handler: s.getSettings},
		{Methods: rest.Editable, Args: settingsArgs(), Permission: settingsPermission, Handler: s.updateSettings},
	}}}
}

func settingsPermission(c *rest.Request) error {
	if !caller(c).Can("manage_options") {
		return rest.Denied(c, "rest_forbidden", msgForbidden)
	}
	return nil
}

// loadSettings is every setting's current value: stored, else the default.
func (s *Service) loadSettings(ctx context.Context, q store.Querier) (map[string]any, error) {
	stored, err := store.ReadSettings(ctx, q)
	if err != nil {
		return nil, err
	}
	return s.settingsOver(stored)
}

// settingsOver returns the site file's values with the stored ones over them.
func (s *Service) settingsOver(stored map[string][]byte) (map[string]any, error) {
	out := make(map[string]any, len(siteSettings))
	for _, st := range siteSettings {
		out[st.name] = st.def(s.site)
	}
	for name, raw := range stored {
		if _, known := out[name]; !known {
			continue
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("setting %s: %w", name, err)
		}
		if n, ok := v.(json.Number); ok {
			i, _ := n.Int64()
			v = i
		}
		out[name] = v
	}
	return out, nil
}

func settingsObject(values map[string]any) rest.Object {
	o := make(rest.Object, 0, len(siteSettings))
	for _, st := range siteSettings {
		o = append(o, rest.Member{Key: st.name, Value: values[st.name]})
	}
	return o
}

// getSettings is GET /cms/v2/settings.
func (s *Service) getSettings(c *rest.Request) (*rest.Response, error) {
	values, err := s.loadSettings(c.Context(), s.db(c.Context()))
	if err != nil {
		return nil, err
	}
	return rest.OK(settingsObject(values)), nil
}

// updateSettings is POST/PUT/PATCH /cms/v2/settings: the given settings in
// one transaction; null resets one to its default.
func (s *Service) updateSettings(c *rest.Request) (*rest.Response, error) {
	var values map[string]any
	err := s.inTx(c.Context(), func(tx pgx.Tx) error {
		for _, st := range siteSettings {
			reset := isNull(c, st.name)
			if !reset && !c.Has(st.name) {
				continue
			}
			if st.name == "url" {
				return invalidParam("url", "rest_invalid_param", "The site URL is set by the operator (the Site resource) and cannot be changed here.", nil)
			}
			if reset {
				if err := store.ResetSetting(c.Context(), tx, st.name); err != nil {
					return err
				}
				continue
			}
			v := c.Param(st.name)
			if st.name == "timezone" {
				if _, err := time.LoadLocation(v.(string)); err != nil {
					return invalidParam("timezone", "rest_invalid_param", "timezone is not a valid time zone.", nil)
				}
			}
			raw, err := json.Marshal(v)
			if err != nil {
				return fmt.Errorf("encode setting %s: %w", st.name, err)
			}
			if err := store.SaveSetting(c.Context(), tx, st.name, raw); err != nil {
				return err
			}
		}
		// the control channel first: a replica reloads the settings before
		// it hears the write as a write (postgres.NotifyControl)
		if err := postgres.NotifyControl(c.Context(), tx, contract.SettingsChangedPayload); err != nil {
			return err
		}
		if err := postgres.NotifyChanged(c.Context(), tx, contract.SettingsChangedPayload); err != nil {
			return err
		}
		var err error
		values, err = s.loadSettings(c.Context(), tx)
		return err
	})
	if err != nil {
		return nil, err
	}
	// committed: this replica's dates and pages follow at once (the others
	// when they hear contract.SettingsChangedPayload)
	if s.applySettings(values) {
		s.announceSite(c.Context(), slog.Default())
	}
	return rest.OK(settingsObject(values)), nil
}

// SettingsHandler serves contract.SettingsPath: the values GET / shows.
func (s *Service) SettingsHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		stored, err := store.ReadSettings(r.Context(), s.pool)
		if err != nil {
			http.Error(w, "settings unavailable", http.StatusServiceUnavailable)
			return
		}
		values, err := s.settingsOver(stored)
		if err != nil {
			http.Error(w, "settings unavailable", http.StatusServiceUnavailable)
			return
		}
		site := s.effectiveSite(values)
		out := contract.SiteSettings{Title: site.Title, Description: site.Description, Timezone: site.Timezone,
			ShowOnFront: site.ShowOnFront, PageOnFront: site.PageOnFront, PageForPosts: site.PageForPosts,
			Stored: []string{}}
		for _, name := range contract.SiteSettingNames {
			if _, ok := stored[name]; ok {
				out.Stored = append(out.Stored, name)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	})
}

// effectiveSite is the site file's values with the settings' values
// (settingsOver) over them: the one place the site pages show is made.
func (s *Service) effectiveSite(values map[string]any) contract.Site {
	str := func(k string) string { v, _ := values[k].(string); return v }
	num := func(k string) int64 { v, _ := values[k].(int64); return v }
	site := s.site
	site.Title, site.Description, site.Timezone = str("title"), str("description"), str("timezone")
	site.ShowOnFront, site.PageOnFront, site.PageForPosts = str("show_on_front"), num("page_on_front"), num("page_for_posts")
	return site
}

// applySettings makes the settings' values (loadSettings) this replica's:
// the time zone of its dates and the site its website shows. It reports
// whether that site changed.
func (s *Service) applySettings(values map[string]any) bool {
	site := s.effectiveSite(values)
	s.applyTimezone(site.Timezone)
	return s.web.SetSite(site)
}

// announceSite says on the change channel that this replica's website
// shows a new site: a gateway that heard the settings write before this
// replica swapped may have edge-cached a page this replica rendered with
// the old site in between; the notification drops it (one per content
// replica and settings change; settings writes are rare).
func (s *Service) announceSite(ctx context.Context, logger *slog.Logger) {
	if err := postgres.NotifyChanged(ctx, s.pool, contract.ServiceContent); err != nil && logger != nil {
		logger.Warn("announce the new site settings", "error", err)
	}
}

// location is the site's current time zone: dates are shown and read in it.
func (s *Service) location() *time.Location { return s.tz.Load() }

// applyTimezone makes the timezone value (a setting or the site file's)
// the service's time zone; an unknown name keeps the current one.
func (s *Service) applyTimezone(name string) {
	if loc, err := time.LoadLocation(name); err == nil {
		s.tz.Store(loc)
	}
}

// RefreshSettings reloads the stored settings (the time zone, the website's
// title, tagline and front page) every interval, in case the listener was
// offline when a change was announced; LoadSettings has loaded them before
// the service serves. A change heard on the change channel is reloaded at
// once (heard), so every replica follows one made through another as soon
// as its notification arrives.
func (s *Service) RefreshSettings(ctx context.Context, interval time.Duration, logger *slog.Logger) {
	for {
		s.reloadSettings(ctx, logger, true)
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

// LoadSettings applies the stored settings at start-up, before the service
// serves: no page shows the site file's title when a stored one exists.
func (s *Service) LoadSettings(ctx context.Context, logger *slog.Logger) {
	s.reloadSettings(ctx, logger, false)
}

// reloadSettings reads the stored settings and applies them (announce: a
// change is announced, announceSite); on an error the current ones stay.
func (s *Service) reloadSettings(ctx context.Context, logger *slog.Logger, announce bool) {
	values, err := s.loadSettings(ctx, s.pool)
	if err != nil {
		if ctx.Err() == nil && logger != nil {
			logger.Warn("reload settings", "error", err)
		}
		return
	}
	if s.applySettings(values) && announce {
		s.announceSite(ctx, logger)
	}
}

// heard receives every control notification's payload, before the website's
// generation moves: a settings write is reloaded here, in the listener, so
// the website swaps its site before any page of the new generation is
// rendered (a page, or an edge-cached answer, with the old title cannot be
// made after the notification was heard).
func (s *Service) heard(payload string) {
	if payload == contract.SettingsChangedPayload {
		ctx, cancel := context.WithTimeout(context.Background(), settingsReloadTimeout)
		defer cancel()
		s.reloadSettings(ctx, slog.Default(), true)
	}
}

// settingsReloadTimeout bounds the listener's wait for the settings: past
// it the periodic reload catches up.
const settingsReloadTimeout = 5 * time.Second
