package gateway

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/gateway/edgecache"
	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/config"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/internal/platform/service"
	"siteplane.dev/services/pkg/contract"
)

// Environment variables of the gateway beyond the shared ones.
const (
	// EnvProxyTimeout bounds one proxied exchange (Go duration, default 60s).
	EnvProxyTimeout = "SITEPLANE_GATEWAY_PROXY_TIMEOUT"
	// EnvRoutesPoll is how often the route file is checked (default 1s).
	EnvRoutesPoll = "SITEPLANE_GATEWAY_ROUTES_POLL"
	// EnvTrustedProxies lists the CIDRs (comma-separated) of the proxies in
	// front of the gateway whose X-Forwarded-For is believed (default none).
	EnvTrustedProxies = contract.EnvGatewayTrustedProxies
	// EnvOEmbedProviders names a JSON file of extra oEmbed providers (the
	// format of oembed_providers.json), tried before the built-in ones.
	EnvOEmbedProviders = "SITEPLANE_GATEWAY_OEMBED_PROVIDERS"
	// EnvOEmbedCacheTTL is how long proxied oEmbed answers are reused
	// (Go duration, default 24h).
	EnvOEmbedCacheTTL = "SITEPLANE_GATEWAY_OEMBED_CACHE_TTL"
	// EnvOEmbedAllowLoopbackForTests ("true") lets the oEmbed proxy fetch
	// from loopback addresses. For tests only: never in production.
	EnvOEmbedAllowLoopbackForTests = "SITEPLANE_GATEWAY_OEMBED_ALLOW_LOOPBACK_FOR_TESTS"
)

// MaxBodyBytes is the gateway's default request body limit: large enough for
// media uploads, which the media service limits more precisely.
const MaxBodyBytes = 256 << 20

// startEdgeCache returns the edge cache (nil when switched off) and the
// site's change generations, and starts their change listener on a
// dedicated connection to the site's database. With the cache switched off
// the listener still runs, for the generations alone: the settings and
// index the gateway keeps between writes depend on it.
func startEdgeCache(ctx context.Context, env *service.Env, budget int64, creds *accounts.CredentialCache) (cache, changes *edgecache.Cache) {
	if budget == 0 {
		env.Logger.Info("edge cache switched off (" + contract.EnvEdgeCacheBytes + "=0)")
		changes = edgecache.New(0)
	} else {
		cache = edgecache.New(budget)
		changes = cache
	}
	connCfg := env.Pool.Config().ConnConfig.Copy()
	connCfg.RuntimeParams["application_name"] = "siteplane-gateway-listener"
	l := &edgecache.Listener{Cache: changes, Logger: env.Logger,
		Connect:     func(ctx context.Context) (*pgx.Conn, error) { return pgx.ConnectConfig(ctx, connCfg) },
		AlsoControl: credentialsChanged(creds), AlsoOnline: creds.SetOnline}
	go l.Run(ctx)
	return cache, changes
}

// notifier is Config.Notify: a purge goes on the control channel, which
// every replica hears (one whose cache keeps nothing does not LISTEN for
// writes), a write of the gateway's own routes on the change channel.
func notifier(pool postgres.Execer) func(ctx context.Context, payload string) error {
	return func(ctx context.Context, payload string) error {
		if strings.HasPrefix(payload, edgecache.PurgePayload) {
			return postgres.NotifyControl(ctx, pool, payload)
		}
		return postgres.NotifyChanged(ctx, pool, payload)
	}
}

// Register wires the gateway into the platform service runner.
func Register(ctx context.Context, env *service.Env) error {
	cfg := env.Config
	routesPath := cfg.Required(contract.EnvRoutesFile)
	timeout := cfg.Duration(EnvProxyTimeout, 60*time.Second)
	poll := cfg.Duration(EnvRoutesPoll, time.Second)
	oembed := OEmbedConfig{ProvidersFile: cfg.String(EnvOEmbedProviders, ""), CacheTTL: cfg.Duration(EnvOEmbedCacheTTL, 24*time.Hour),
		AllowLoopbackForTests: cfg.String(EnvOEmbedAllowLoopbackForTests, "") == "true"}
	admin, hasAdmin, adminErr := accounts.AdminFromEnv(func(k string) (string, bool) {
		v := cfg.String(k, "")
		return v, v != ""
	})
	if adminErr != nil {
		cfg.Fail("%v", adminErr)
	}
	trustedProxies, tpErr := ParseTrustedProxies(cfg.String(EnvTrustedProxies, ""))
	if tpErr != nil {
		cfg.Fail("%s: %v", EnvTrustedProxies, tpErr)
	}
	cacheBytes := cfg.Int(contract.EnvEdgeCacheBytes, contract.DefaultEdgeCacheBytes, 0, 1<<40)
	secret := GatewaySecret(cfg, env.Keys, env.Logger)
	if err := cfg.Err(); err != nil {
		return nil //nolint:nilerr // the runner reports every configuration problem
	}
	store := accounts.New(env.Pool, accounts.NewHasher(secret))
	if hasAdmin {
		u, err := store.Bootstrap(ctx, admin)
		if err != nil {
			return fmt.Errorf("bootstrap administrator: %w", err)
		}
		env.Logger.Info("administrator ready", "user_id", u.ID, "login", u.Login)
	}
	source, err := routing.Load(routesPath, env.Logger)
	if err != nil {
		return fmt.Errorf("%s: %w", contract.EnvRoutesFile, err)
	}
	go source.Watch(ctx, poll)
	proxy := routing.NewProxy(routing.ProxyConfig{Timeout: timeout}, rest.WriteErrorCode, func(r *http.Request, status int, err error) {
		logging.FromContext(r.Context(), env.Logger).Warn("upstream failed", "status", status, "error", err.Error())
	})
	if oembed.AllowLoopbackForTests {
		env.Logger.Warn("the oEmbed proxy may fetch from loopback addresses (" + EnvOEmbedAllowLoopbackForTests + "): tests only")
	}
	creds := newCredentialCache(store)
	cache, changes := startEdgeCache(ctx, env, cacheBytes, creds)
	g, err := New(Config{Store: store, Routes: source, Proxy: proxy, Keys: env.Keys, Secret: secret, Site: env.Site, Logger: env.Logger, OEmbed: oembed,
		TrustedProxies: trustedProxies, Cache: cache, Changes: changes, Credentials: creds,
		Notify: notifier(env.Pool)})
	if err != nil {
		return err
	}
	// Template ids contain "//" and REST routes are matched by the gateway
	// itself: the router must neither clean paths nor answer unknown ones.
	env.Router.SkipClean(true)
	env.Router.NotFoundHandler = g
	env.Router.MethodNotAllowedHandler = g
	internal := g.InternalHandler()
	env.Server.InternalRouter().NotFoundHandler = internal
	env.Server.InternalRouter().MethodNotAllowedHandler = internal
	return nil
}

// GatewaySecret is the gateway's non-rotating secret (contract.EnvGatewaySecret
// or its file): the password pepper and the nonce key derive from it, so a
// rotation of the internal key, which signs identities, changes neither.
// Unset, the current internal key stands in (local runs and Sites made
// before the secret existed: the operator then stores the original internal
// key as the gateway secret before it ever rotates it).
func GatewaySecret(cfg *config.Loader, keys identity.Keys, logger *slog.Logger) []byte {
	if s := cfg.Secret(contract.EnvGatewaySecret, contract.EnvGatewaySecretFile, false); s != "" {
		return []byte(s)
	}
	if keys == nil {
		return nil
	}
	if logger != nil {
		logger.Warn(contract.EnvGatewaySecret + " is not set: the internal key stands in; do not rotate the internal key without setting it (docs/security.md)")
	}
	return keys.Keyring().Current.Secret
}
