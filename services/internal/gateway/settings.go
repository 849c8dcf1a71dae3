package gateway

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// settingsRoute is a route of the service that owns the site settings: the
// backend serving it answers contract.SettingsPath.
const settingsRoute = "/cms/v2/settings"

// settingsMemo keeps the settings last read, for the edge cache's
// generation they were read in: settings change only by a committed write,
// and every committed write starts a new generation (edgecache), so the
// index asks content again only after one.
type settingsMemo struct {
	mu   sync.Mutex
	gen  uint64
	site contract.Site
	ok   bool
}

// siteSettings returns the site as the index shows it: the operator's site
// file with the settings the content service stores over it (settings
// written through /cms/v2/settings show in GET / at once). When the
// content service cannot answer quickly, the site file's values stand.
func (g *Gateway) siteSettings(ctx context.Context) contract.Site {
	c := g.cfg.Changes
	if c == nil {
		site, _ := g.readSettings(ctx)
		return site
	}
	gen, online := c.Generation()
	m := &g.settings
	m.mu.Lock()
	if online && m.ok && m.gen == gen {
		site := m.site
		m.mu.Unlock()
		return site
	}
	m.mu.Unlock()
	site, fresh := g.readSettings(ctx)
	if fresh && online {
		m.mu.Lock()
		m.gen, m.site, m.ok = gen, site, true
		m.mu.Unlock()
	}
	return site
}

// readSettings asks content for the stored settings; fresh is false when
// the site file's values stand in for an answer.
func (g *Gateway) readSettings(ctx context.Context) (site contract.Site, fresh bool) {
	site = g.cfg.Site
	t := g.cfg.Routes.Current()
	if t == nil {
		return site, false
	}
	b, ok := t.MatchREST(settingsRoute)
	if !ok {
		return site, false
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.Base.String()+contract.SettingsPath, nil)
	if err != nil {
		return site, false
	}
	res, err := g.desc.client.Do(req)
	if err != nil {
		g.cfg.Logger.Warn("site settings unavailable, the index shows the site file's", "error", err)
		return site, false
	}
	defer res.Body.Close()
	var s contract.SiteSettings
	if res.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&s) != nil {
		return site, false
	}
	return s.Apply(site), true
}
