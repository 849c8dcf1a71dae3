// Command content is the content service: posts, pages, blocks, navigation,
// their revisions and autosaves, and the term collections under cms/v2.
//
//	content [serve]     run the HTTP service (migrations first)
//	content seed-demo   migrate, then write the demo site once (idempotent)
package main

import (
	"context"
	"fmt"
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
		service.Main(content.Options(), content.Register)
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

// seedDemo migrates the schema, then writes the demo site unless present.
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
