package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/rest"
)

// cms-block-editor/v1/url-details (WordPress's wp-block-editor/v1, renamed
// as the seed renames brand stems): the title, icon, description and image
// of a page, for the block editor's link previews. The page is fetched
// through the oEmbed proxy's SSRF-safe fetcher (ssrf.go), the first 150 KB
// of it, as WordPress limits the response; answers are cached per URL for
// an hour in the oEmbed cache table (WordPress keeps the page in a site
// transient as long); failures are not cached.

const (
	blockEditorNamespace = "cms-block-editor/v1"
	urlDetailsMaxBytes   = 150 << 10
	urlDetailsTTL        = time.Hour
)

func (g *Gateway) urlDetailsRoutes() []rest.Route {
	str := func(desc, format string) *rest.Schema {
		return &rest.Schema{Description: desc, Type: "string", Format: format, Context: []string{"view", "edit", "embed"}, Readonly: true}
	}
	sch := &rest.Schema{SchemaURI: "http://json-schema.org/draft-04/schema#", Title: "url-details", Type: "object", Properties: rest.Props{
		{Name: "title", Schema: str("The contents of the <title> element from the URL.", "")},
		{Name: "icon", Schema: str(`The favicon image link of the <link rel="icon"> element from the URL.`, "uri")},
		{Name: "description", Schema: str(`The content of the <meta name="description"> element from the URL.`, "")},
		{Name: "image", Schema: str(`The Open Graph image link of the <meta property="og:image"> or <meta property="og:image:url"> element from the URL.`, "uri")},
	}}
	return []rest.Route{{Namespace: blockEditorNamespace, Path: "/url-details", Schema: sch, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
		Args: rest.Props{{Name: "url", Schema: &rest.Schema{Description: "The URL to process.", Type: "string", Format: "uri", Required: true,
			Validate: g.validateFetchURL}}},
		Permission: func(r *rest.Request) error {
			who := callerID(r)
			// edit_posts, or the edit capability of any post type
			// (pages; navigation and templates: edit_theme_options)
			if who.Can("edit_posts") || who.Can("edit_pages") || who.Can("edit_theme_options") {
				return nil
			}
			return rest.Denied(r, "rest_cannot_view_url_details", "Sorry, you are not allowed to process remote URLs.")
		},
		Handler: g.serveURLDetails}}}}
}

// validateFetchURL is wp_http_validate_url: an http(s) URL without
// credentials whose host resolves, every address public, on port 80, 443
// or 8080. A refusal is WordPress's bare "Invalid parameter.".
func (g *Gateway) validateFetchURL(r *rest.Request, v any, _ string) error {
	s, _ := v.(string)
	u, err := url.Parse(s)
	if err != nil || checkFetchURL(u) != nil {
		return rest.ErrInvalid
	}
	if g.ownSite(u) {
		return nil // the site's own pages are read in-process (ownPage)
	}
	f := g.urlDetails
	ips, err := f.resolve(r.Context(), u.Hostname())
	if err != nil {
		return rest.ErrInvalid
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	for _, ip := range ips {
		if !portAllowed(port, ip, f.allowLoopback) {
			return rest.ErrInvalid
		}
	}
	return nil
}

func (g *Gateway) serveURLDetails(r *rest.Request) (*rest.Response, error) {
	raw := strings.TrimRight(r.String("url"), `/\`) // untrailingslashit
	if raw == "" {
		return nil, rest.NewError("rest_invalid_url", "Invalid URL", http.StatusNotFound)
	}
	sum := sha256.Sum256([]byte(raw))
	key := "url-details:" + hex.EncodeToString(sum[:])
	pool := g.cfg.Store.Pool()
	log := logging.FromContext(r.Context(), g.cfg.Logger)
	if body, ok, err := cachedOEmbed(r.Context(), pool, key, g.cfg.Now()); err != nil {
		log.Warn("url-details cache read failed", "error", err.Error())
	} else if ok {
		return rest.OK(json.RawMessage(body)), nil
	}
	var page []byte
	var err error
	if u, perr := url.Parse(raw); perr == nil && g.ownSite(u) {
		page, err = g.ownPage(r.Context(), u)
	} else {
		page, _, err = g.urlDetails.get(r.Context(), raw, "text/html, application/xhtml+xml, */*;q=0.8", true)
	}
	if err != nil {
		log.Debug("url-details fetch failed", "reason", err.Error())
		return nil, rest.NewError("no_response", "URL not found. Response returned a non-200 status code for this URL.", http.StatusNotFound)
	}
	if len(page) == 0 {
		return nil, rest.NewError("no_content", "Unable to retrieve body from response at this URL.", http.StatusNotFound)
	}
	details := pageDetails(string(page), raw)
	body, err := json.Marshal(details)
	if err != nil {
		return nil, err
	}
	if err := storeOEmbed(r.Context(), pool, key, body, g.cfg.Now().Add(urlDetailsTTL), g.cfg.Now()); err != nil {
		log.Warn("url-details cache write failed", "error", err.Error())
	}
	return rest.OK(json.RawMessage(body)), nil
}

// ownSite reports whether u is on this site (wp_http_validate_url lets the
// site's own host through whatever its address).
func (g *Gateway) ownSite(u *url.URL) bool {
	return g.site != nil && strings.EqualFold(u.Host, g.site.Host) && strings.EqualFold(u.Scheme, g.site.Scheme)
}

// ownPage reads a page of this site as an anonymous visitor would get it,
// through the gateway itself rather than over the network: the site's
// address may be one the SSRF guard refuses (loopback under make run, a
// cluster address) or not reachable from inside. Redirects within the site
// are followed (at most 3, as the fetcher does: untrailingslashit drops the
// slash the site's permalinks end with); the first 150 KB are kept.
func (g *Gateway) ownPage(ctx context.Context, u *url.URL) ([]byte, error) {
	for range 4 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.RequestURI(), nil)
		if err != nil {
			return nil, err
		}
		req.Host = u.Host
		w := &pageCapture{header: http.Header{}, status: http.StatusOK}
		g.ServeHTTP(w, req)
		switch w.status {
		case http.StatusOK:
			return w.body, nil
		case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
			next, err := u.Parse(w.header.Get("Location"))
			if err != nil || !g.ownSite(next) {
				return nil, fmt.Errorf("GET %s: redirect away from the site", u.Redacted())
			}
			u = next
		default:
			return nil, fmt.Errorf("GET %s: status %d", u.Redacted(), w.status)
		}
	}
	return nil, fmt.Errorf("GET %s: too many redirects", u.Redacted())
}

// pageCapture keeps a response's status and its first urlDetailsMaxBytes.
type pageCapture struct {
	header http.Header
	status int
	wrote  bool
	body   []byte
}

func (c *pageCapture) Header() http.Header { return c.header }

func (c *pageCapture) WriteHeader(status int) {
	if !c.wrote {
		c.status, c.wrote = status, true
	}
}

func (c *pageCapture) Write(b []byte) (int, error) {
	c.wrote = true
	if room := urlDetailsMaxBytes - len(c.body); room > 0 {
		c.body = append(c.body, b[:min(len(b), room)]...)
	}
	return len(b), nil
}
