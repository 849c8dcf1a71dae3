package content

import (
	"context"
	"net/http"
	"time"

	"siteplane.dev/services/internal/content/migrations"
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/config"
	"siteplane.dev/services/internal/platform/idempotency"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/service"
	"siteplane.dev/services/pkg/contract"
)

// Options are the service's start-up options: its name (and schema) and
// its migrations.
func Options() service.Options {
	return service.Options{Name: contract.ServiceContent, Migrations: migrations.FS, ReadPool: true}
}

// Register wires the service into the platform runner: the REST routes
// through the route kit, the route index the gateway merges, the
// all-or-nothing batch endpoint, and the scheduler of future posts.
func Register(ctx context.Context, env *service.Env) error {
	svc := NewWithReplicas(env.Pool, env.Site, usersFrom(env.Config, env.Keys), env.ReadPool != nil)
	svc.SelectTheme(env.Config.String(contract.EnvThemesDir, ""), env.Logger)
	if u := env.Config.String(contract.EnvGatewayURL, ""); u != "" {
		svc.SetMedia(GatewayMedia{BaseURL: u, Client: &http.Client{Timeout: 5 * time.Second}})
	}
	srv, err := svc.NewServer(env.Logger)
	if err != nil {
		return err
	}
	// Idempotency-Key on creates (docs/security.md): after the identity
	// middleware, since keys are the caller's.
	idem := idempotency.New(env.Pool, svc.idempotentTx, env.Logger)
	go idem.Cleanup(ctx, time.Hour)
	env.Router.Use(idem.Middleware)
	env.Router.Handle(contract.RouteDescriptionsPath, srv.IndexHandler())
	env.Router.Handle(contract.BatchPath, svc.BatchHandler(srv, env.Logger))
	env.Router.Handle(contract.EmbedPath, svc.EmbedHandler(srv))
	env.Router.Handle(contract.SettingsPath, svc.SettingsHandler())
	// the public website, forwarded by the gateway (docs/website.md), and
	// the site theme's files
	env.Router.PathPrefix(contract.ThemesPath + "/").Handler(svc.web.ThemeAssets())
	env.Router.PathPrefix(contract.FontsPath + "/").Handler(svc.FontFiles()) // installed fonts (fonts_files.go)
	env.Router.PathPrefix(contract.SitePath + "/").Handler(svc.SiteHandler(env.Logger))
	// the kit is the catch-all: it matches routes case-insensitively and
	// answers rest_no_route for the rest, in WordPress's envelope
	env.Router.PathPrefix("/").Handler(srv)
	go svc.RunScheduler(ctx, time.Minute, env.Logger)
	svc.LoadSettings(ctx, env.Logger) // before serving: pages never show the site file's title over a stored one
	go svc.RefreshSettings(ctx, time.Minute, env.Logger)
	go svc.ListenChanges(ctx, env.Logger) // the website's snapshot per change generation
	return nil
}

// usersFrom validates author ids against the gateway when its URL is known;
// without one only the bootstrap administrator (id 1) and the caller exist.
func usersFrom(cfg *config.Loader, keys identity.Keys) store.Users {
	if u := cfg.String(contract.EnvGatewayURL, ""); u != "" {
		return GatewayUsers{BaseURL: u, Keys: keys, Client: &http.Client{Timeout: 5 * time.Second}}
	}
	return store.FixedUsers{1: true}
}
