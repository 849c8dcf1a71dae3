package gateway

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/rest"
)

// The oEmbed proxy (reference §12.2): for users who may edit posts, the
// gateway fetches the oEmbed data of an external URL — from a provider of
// the registry (oembed_providers.json), or, when discover is true, from the
// <link rel="alternate" type="application/json+oembed"> (or text/xml+oembed)
// of the page itself — and answers it as JSON, with "html" reduced to a
// safe subset. Answers are cached per URL and arguments in PostgreSQL
// (shared by replicas) for CacheTTL; failures are not cached. Every fetch
// goes through the SSRF-safe fetcher (ssrf.go). Any failure is WordPress's
// 404 oembed_invalid_url "Not Found": the caller learns nothing about why.

// OEmbedConfig configures the oEmbed proxy.
type OEmbedConfig struct {
	// AllowLoopbackForTests lets the proxy fetch from loopback addresses,
	// on any port (tests with local providers). Never set it in production.
	AllowLoopbackForTests bool
	// ProvidersFile, when set, is a JSON file in the format of
	// oembed_providers.json whose providers are tried before the built-in
	// ones.
	ProvidersFile string
	// CacheTTL is how long an answer is reused (default 24h, WordPress's
	// rest_oembed_ttl).
	CacheTTL time.Duration
	// Timeout bounds one outbound exchange (default 10s).
	Timeout time.Duration
}

const (
	oembedMaxBytes          = 1 << 20   // an oEmbed answer
	oembedDiscoveryMaxBytes = 150 << 10 // the part of a page searched for <link> (WordPress: 150 KB)
)

//go:embed oembed_providers.json
var builtinProviders []byte

type oembedProvider struct {
	Name     string   `json:"name"`
	Endpoint string   `json:"endpoint"`
	URLs     []string `json:"urls"`
	patterns []*regexp.Regexp
}

type providerFile struct {
	Providers []oembedProvider `json:"providers"`
}

// parseProviders reads a registry file; a pattern's * matches anything.
func parseProviders(data []byte) ([]oembedProvider, error) {
	var f providerFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("oEmbed providers: %w", err)
	}
	for i := range f.Providers {
		p := &f.Providers[i]
		if _, err := url.Parse(p.Endpoint); err != nil || p.Name == "" || len(p.URLs) == 0 {
			return nil, fmt.Errorf("oEmbed provider %q: name, endpoint and urls are required", p.Name)
		}
		for _, pat := range p.URLs {
			expr := "(?i)^" + strings.ReplaceAll(regexp.QuoteMeta(pat), `\*`, ".*") + "$"
			p.patterns = append(p.patterns, regexp.MustCompile(expr))
		}
	}
	return f.Providers, nil
}

// matchProvider finds the provider of an http(s) URL.
func matchProvider(providers []oembedProvider, u *url.URL) (oembedProvider, bool) {
	tail := strings.TrimPrefix(u.String(), u.Scheme+"://")
	for _, p := range providers {
		for _, re := range p.patterns {
			if re.MatchString(tail) {
				return p, true
			}
		}
	}
	return oembedProvider{}, false
}

type oembedProxy struct {
	cfg       OEmbedConfig
	providers []oembedProvider
	fetch     *safeFetcher
	// discoveryFetch reads pages for discovery (truncated at 150 KB).
	discoveryFetch *safeFetcher
}

func newOEmbedProxy(cfg OEmbedConfig) (*oembedProxy, error) {
	if cfg.CacheTTL <= 0 {
		cfg.CacheTTL = 24 * time.Hour
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	providers, err := parseProviders(builtinProviders)
	if err != nil {
		return nil, err
	}
	if cfg.ProvidersFile != "" {
		data, err := os.ReadFile(cfg.ProvidersFile)
		if err != nil {
			return nil, fmt.Errorf("oEmbed providers: %w", err)
		}
		extra, err := parseProviders(data)
		if err != nil {
			return nil, err
		}
		providers = append(extra, providers...)
	}
	return &oembedProxy{cfg: cfg, providers: providers,
		fetch:          newSafeFetcher(cfg.AllowLoopbackForTests, cfg.Timeout, oembedMaxBytes),
		discoveryFetch: newSafeFetcher(cfg.AllowLoopbackForTests, cfg.Timeout, oembedDiscoveryMaxBytes)}, nil
}

// serveOEmbedProxy is GET /oembed/1.0/proxy.
func (g *Gateway) serveOEmbedProxy(r *rest.Request) (*rest.Response, error) {
	raw := r.String("url")
	u, err := parseAbsolute(raw)
	if err != nil {
		return nil, errOEmbedNotFound()
	}
	if g.site != nil && strings.EqualFold(u.Host, g.site.Host) {
		// The site's own posts: its own oEmbed data, no fetch.
		return g.serveOEmbed(r)
	}
	var maxheight int64
	if r.Has("maxheight") {
		maxheight = r.Int("maxheight")
	}
	args := oembedArgsKey{URL: raw, MaxWidth: r.Int("maxwidth"), MaxHeight: maxheight, Discover: r.Bool("discover"), Format: r.String("format")}
	pool := g.cfg.Store.Pool()
	log := logging.FromContext(r.Context(), g.cfg.Logger)
	if body, ok, err := cachedOEmbed(r.Context(), pool, args.key(), g.cfg.Now()); err != nil {
		log.Warn("oEmbed cache read failed", "error", err.Error())
	} else if ok {
		return rest.OK(json.RawMessage(body)), nil
	}
	obj, err := g.oembed.lookup(r.Context(), u, args)
	if err != nil {
		log.Debug("oEmbed proxy found nothing", "reason", err.Error())
		return nil, errOEmbedNotFound()
	}
	body, err := json.Marshal(obj)
	if err != nil {
		return nil, errOEmbedNotFound()
	}
	if err := storeOEmbed(r.Context(), pool, args.key(), body, g.cfg.Now().Add(g.oembed.cfg.CacheTTL), g.cfg.Now()); err != nil {
		log.Warn("oEmbed cache write failed", "error", err.Error())
	}
	return rest.OK(json.RawMessage(body)), nil
}

// oembedArgsKey is what an answer depends on.
type oembedArgsKey struct {
	URL       string `json:"url"`
	MaxWidth  int64  `json:"maxwidth"`
	MaxHeight int64  `json:"maxheight"`
	Discover  bool   `json:"discover"`
	Format    string `json:"format"`
}

func (a oembedArgsKey) key() string {
	b, _ := json.Marshal(a)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func cachedOEmbed(ctx context.Context, pool *pgxpool.Pool, key string, now time.Time) ([]byte, bool, error) {
	var body []byte
	err := pool.QueryRow(ctx, `SELECT body FROM oembed_cache WHERE key = $1 AND expires_at > $2`, key, now).Scan(&body)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read oEmbed cache: %w", err)
	}
	return body, true, nil
}

func storeOEmbed(ctx context.Context, pool *pgxpool.Pool, key string, body []byte, expires, now time.Time) error {
	// One statement: sweep what expired, then upsert.
	_, err := pool.Exec(ctx, `WITH swept AS (DELETE FROM oembed_cache WHERE expires_at <= $4)
		INSERT INTO oembed_cache (key, status, body, expires_at) VALUES ($1, 200, $2, $3)
		ON CONFLICT (key) DO UPDATE SET body = EXCLUDED.body, expires_at = EXCLUDED.expires_at`, key, body, expires, now)
	if err != nil {
		return fmt.Errorf("write oEmbed cache: %w", err)
	}
	return nil
}

// endpointCandidate is an oEmbed endpoint to ask, with its answer format.
type endpointCandidate struct {
	url string
	xml bool
}

// lookup finds and fetches the oEmbed data of u.
func (p *oembedProxy) lookup(ctx context.Context, u *url.URL, a oembedArgsKey) (rest.Object, error) {
	if err := checkFetchURL(u); err != nil {
		return nil, err
	}
	var candidates []endpointCandidate
	if prov, ok := matchProvider(p.providers, u); ok {
		endpoint := strings.ReplaceAll(prov.Endpoint, "{format}", "json")
		candidates = append(candidates, endpointCandidate{url: withParams(endpoint, "url", u.String(), "format", "json")})
	} else if a.Discover {
		found, err := p.discover(ctx, u)
		if err != nil {
			return nil, err
		}
		candidates = found
	}
	if len(candidates) == 0 {
		return nil, errors.New("no provider and nothing discovered")
	}
	var lastErr error
	for _, c := range candidates {
		target := withParams(c.url, "maxwidth", strconv.FormatInt(a.MaxWidth, 10))
		if a.MaxHeight > 0 {
			target = withParams(target, "maxheight", strconv.FormatInt(a.MaxHeight, 10))
		}
		accept := "application/json"
		if c.xml {
			accept = "text/xml, application/xml"
		}
		body, _, err := p.fetch.get(ctx, target, accept, false)
		if err != nil {
			lastErr = err
			continue
		}
		var obj rest.Object
		if c.xml {
			obj, err = parseOEmbedXML(body)
		} else {
			obj, err = parseOEmbedJSON(body)
		}
		if err != nil {
			lastErr = err
			continue
		}
		return obj, nil
	}
	return nil, lastErr
}

// withParams adds query parameters to a URL (replacing same-named ones).
func withParams(raw string, kv ...string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return withQuery(u, kv...)
}

// discover reads the page's oEmbed <link>s: JSON first, then XML.
func (p *oembedProxy) discover(ctx context.Context, u *url.URL) ([]endpointCandidate, error) {
	page, final, err := p.discoveryFetch.get(ctx, u.String(), "text/html, application/xhtml+xml", true)
	if err != nil {
		return nil, err
	}
	var jsonLinks, xmlLinks []endpointCandidate
	for _, l := range discoveryLinks(page) {
		ref, err := url.Parse(l.href)
		if err != nil {
			continue
		}
		abs := final.ResolveReference(ref).String()
		switch l.typ {
		case "application/json+oembed":
			jsonLinks = append(jsonLinks, endpointCandidate{url: abs})
		case "text/xml+oembed", "application/xml+oembed":
			xmlLinks = append(xmlLinks, endpointCandidate{url: abs, xml: true})
		}
	}
	return append(jsonLinks, xmlLinks...), nil
}

// parseOEmbedJSON keeps the provider's members in order; "html" is
// sanitised. The object must say which oEmbed type it is.
func parseOEmbedJSON(body []byte) (rest.Object, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("oEmbed answer is not a JSON object")
	}
	var obj rest.Object
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		obj = append(obj, rest.Member{Key: fmt.Sprint(k), Value: v})
	}
	return finishOEmbed(obj)
}

// parseOEmbedXML reads <oembed><name>value</name>...</oembed> (values are
// strings, as WordPress reads them).
func parseOEmbedXML(body []byte) (rest.Object, error) {
	var doc struct {
		XMLName xml.Name
		Fields  []struct {
			XMLName xml.Name
			Value   string `xml:",chardata"`
		} `xml:",any"`
	}
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.Strict = true
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("oEmbed XML: %w", err)
	}
	if doc.XMLName.Local != "oembed" {
		return nil, errors.New("oEmbed XML: root is not <oembed>")
	}
	var obj rest.Object
	for _, f := range doc.Fields {
		v, _ := json.Marshal(f.Value)
		obj = append(obj, rest.Member{Key: f.XMLName.Local, Value: json.RawMessage(v)})
	}
	return finishOEmbed(obj)
}

func finishOEmbed(obj rest.Object) (rest.Object, error) {
	typ := ""
	for i, m := range obj {
		raw, _ := m.Value.(json.RawMessage)
		switch m.Key {
		case "type":
			_ = json.Unmarshal(raw, &typ)
		case "html":
			var s string
			if json.Unmarshal(raw, &s) == nil {
				obj[i].Value = sanitizeEmbedHTML(s)
			}
		}
	}
	switch typ {
	case "photo", "video", "link", "rich":
		return obj, nil
	}
	return nil, fmt.Errorf("oEmbed answer has type %q", typ)
}
