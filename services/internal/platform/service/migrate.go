package service

import (
	"context"
	"flag"
	"fmt"
	"io"

	"siteplane.dev/services/internal/platform/config"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// MigrateCommand is the "migrate" subcommand of every service with a
// database (docs/operations.md#migrations):
//
//	<service> migrate                      apply pending migrations, print the version
//	<service> migrate --status             print the version, apply nothing
//	<service> migrate --force-version N    record version N (not dirty), run nothing
//
// It reads the database URL and settings from the environment, as the
// service does.
func MigrateCommand(ctx context.Context, opts Options, args []string, lookup func(string) (string, bool), stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet(opts.Name+" migrate", flag.ContinueOnError)
	fl.SetOutput(stderr)
	force := fl.Int64("force-version", -1, "record this schema version as applied and clean, without running anything (recovery)")
	status := fl.Bool("status", false, "print the schema version and apply nothing")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "%s migrate: unexpected argument %q\n", opts.Name, fl.Arg(0))
		return 2
	}
	cfg := config.New(lookup)
	dsn := cfg.Secret(contract.EnvDatabaseURL, contract.EnvDatabaseURLFile, true)
	st := postgres.SettingsFromConfig(cfg)
	if err := cfg.Err(); err != nil {
		fmt.Fprintf(stderr, "%s migrate: configuration: %v\n", opts.Name, err)
		return 2
	}
	var err error
	switch {
	case *force >= 0:
		err = postgres.ForceVersion(ctx, dsn, opts.Name, opts.Migrations, *force, st)
	case !*status:
		err = postgres.MigrateWith(ctx, dsn, opts.Name, opts.Migrations, st)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s migrate: %v\n", opts.Name, err)
		return 1
	}
	pool, err := postgres.OpenWith(ctx, dsn, opts.Name, st)
	if err != nil {
		fmt.Fprintf(stderr, "%s migrate: %v\n", opts.Name, err)
		return 1
	}
	defer pool.Close()
	v, dirty, err := postgres.Version(ctx, pool)
	if err != nil {
		v, dirty = 0, false
	}
	latest, _ := postgres.LatestVersion(opts.Migrations)
	fmt.Fprintf(stdout, "schema %s: version %d of %d, dirty=%v\n", opts.Name, v, latest, dirty)
	return 0
}
