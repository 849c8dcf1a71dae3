// Command content is the content service: posts, pages, blocks, navigation,
// their revisions and autosaves, and the term collections under cms/v2.
//
//	content [serve]     run the HTTP service (migrations first)
//	content seed-demo   migrate, then write the demo site once (idempotent)
package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"siteplane.dev/services/internal/content"
	"siteplane.dev/services/internal/content/migrations"
	"siteplane.dev/services/internal/platform/config"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/service"
	"siteplane.dev/services/pkg/contract"
)

func main() {
	cmd := "serve"
	if len(os.Args) > 1 {
		cmd = os.Args[1]
	}
	switch cmd {
	case "serve":
		service.Main(service.Options{Name: contract.ServiceContent, Migrations: migrations.FS}, register)
	case "seed-demo":
		if err := seedDemo(); err != nil {
			fmt.Fprintln(os.Stderr, "seed-demo:", err)
			os.Exit(1)
		}
	default:
		fmt.Fprintf(os.Stderr, "usage: %s [serve|seed-demo]\n", os.Args[0])
		os.Exit(2)
	}
}

func register(ctx context.Context, env *service.Env) error {
	svc := content.New(env.Pool, env.Site, users(env.Config))
	srv, err := svc.NewServer(env.Logger)
	if err != nil {
		return err
	}
	env.Router.Handle(contract.RouteDescriptionsPath, srv.IndexHandler())
	env.Router.Handle(content.BatchPath, svc.BatchHandler(srv, env.Logger))
	env.Router.PathPrefix("/" + content.Namespace).Handler(srv)
	go svc.RunScheduler(ctx, time.Minute, env.Logger)
	return nil
}

// users validates author ids against the gateway when its URL is known;
// without one only the bootstrap administrator (id 1) and the caller exist.
func users(cfg *config.Loader) content.Users {
	if u := cfg.String(contract.EnvGatewayURL, ""); u != "" {
		return content.GatewayUsers{BaseURL: u, Client: &http.Client{Timeout: 5 * time.Second}}
	}
	return content.FixedUsers{1: true}
}

func seedDemo() error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	cfg := config.FromEnv()
	dsn := cfg.Secret(contract.EnvDatabaseURL, contract.EnvDatabaseURLFile, true)
	if err := cfg.Err(); err != nil {
		return err
	}
	if err := postgres.Migrate(ctx, dsn, contract.ServiceContent, migrations.FS); err != nil {
		return err
	}
	pool, err := postgres.Open(ctx, dsn, contract.ServiceContent)
	if err != nil {
		return err
	}
	defer pool.Close()
	counts, err := content.SeedDemo(ctx, pool, time.Now().UTC().Truncate(time.Second))
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "content demo data: %d posts, %d pages, %d categories, %d tags, %d blocks, %d navigation\n",
		counts.Posts, counts.Pages, counts.Categories, counts.Tags, counts.Blocks, counts.Navigation)
	return nil
}
