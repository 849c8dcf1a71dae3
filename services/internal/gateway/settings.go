package gateway

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// settingsRoute is a route of the service that owns the site settings: the
// backend serving it answers contract.SettingsPath.
const settingsRoute = "/cms/v2/settings"

// siteSettings returns the site as the index shows it: the operator's site
// file with the settings the content service stores over it (settings
// written through /cms/v2/settings show in GET / at once). When the
// content service cannot answer quickly, the site file's values stand.
func (g *Gateway) siteSettings(ctx context.Context) contract.Site {
	site := g.cfg.Site
	t := g.cfg.Routes.Current()
	if t == nil {
		return site
	}
	b, ok := t.MatchREST(settingsRoute)
	if !ok {
		return site
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.Base.String()+contract.SettingsPath, nil)
	if err != nil {
		return site
	}
	res, err := g.desc.client.Do(req)
	if err != nil {
		g.cfg.Logger.Warn("site settings unavailable, the index shows the site file's", "error", err)
		return site
	}
	defer res.Body.Close()
	var s contract.SiteSettings
	if res.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&s) != nil {
		return site
	}
	return s.Apply(site)
}
