package content

import (
	"context"
	"fmt"
	"io"
	"time"

	"siteplane.dev/services/internal/content/migrations"
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/config"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

const usage = `usage: content [serve]
       content seed-demo   migrate, then write the demo site once (idempotent)`

// Command runs a subcommand of the content binary (the shape of
// service.Command): the exit code is 0, 1 for a failure and 2 for a usage
// error.
func Command(ctx context.Context, args []string, lookup func(string) (string, bool), stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] != "seed-demo" {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	if err := seedDemo(ctx, lookup, stderr); err != nil {
		fmt.Fprintln(stderr, "content seed-demo:", err)
		return 1
	}
	return 0
}

// seedDemo migrates the schema, then writes the demo site unless present.
func seedDemo(ctx context.Context, lookup func(string) (string, bool), report io.Writer) error {
	cfg := config.New(lookup)
	dsn := cfg.Secret(contract.EnvDatabaseURL, contract.EnvDatabaseURLFile, true)
	if err := cfg.Err(); err != nil {
		return err
	}
	pool, err := postgres.MigrateAndOpen(ctx, dsn, contract.ServiceContent, migrations.FS)
	if err != nil {
		return err
	}
	defer pool.Close()
	counts, err := store.SeedDemo(ctx, pool, time.Now().UTC().Truncate(time.Second))
	if err != nil {
		return err
	}
	fmt.Fprintf(report, "content demo data: %d posts, %d pages, %d categories, %d tags, %d blocks, %d navigation\n",
		counts.Posts, counts.Pages, counts.Categories, counts.Tags, counts.Blocks, counts.Navigation)
	return nil
}
