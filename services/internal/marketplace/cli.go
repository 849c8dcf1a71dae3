package marketplace

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/platform/config"
	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// demoData is the `make run` catalogue, in the import format, so that
// seed-demo and import share one code path.
//
//go:embed testdata/demo.json
var demoData []byte

// DemoAccount is the username seed-demo creates.
const DemoAccount = "demo"

const usage = `usage: marketplace [serve]
       marketplace import FILE.json
       marketplace key create --account USERNAME [--name NAME]
       marketplace key revoke PREFIX-or-ID
       marketplace key list --account USERNAME
       marketplace seed-demo

Subcommands read the database from ` + contract.EnvDatabaseURL + ` (or ` + contract.EnvDatabaseURLFile + `)
and apply the schema's migrations first.
`

// Command runs a subcommand of the marketplace binary and returns the
// process exit code. Results go to stdout (a created key, and only it, for
// key create and seed-demo); logs and errors go to stderr.
func Command(ctx context.Context, args []string, lookup func(string) (string, bool), stdout, stderr io.Writer) int {
	cfg := config.New(lookup)
	logger := logging.New(stderr, contract.ServiceMarketplace, cfg.String(contract.EnvLogLevel, "info"))
	fail := func(err error) int {
		fmt.Fprintln(stderr, "marketplace:", err)
		return 1
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	// Results wait for the commit: a key printed for a rolled-back insert
	// would be shown once and never work.
	var out bytes.Buffer
	run, err := subcommand(ctx, args, &out, logger)
	if err != nil {
		fmt.Fprintf(stderr, "marketplace: %v\n%s", err, usage)
		return 2
	}
	dsn := cfg.Secret(contract.EnvDatabaseURL, contract.EnvDatabaseURLFile, true)
	if err := cfg.Err(); err != nil {
		return fail(err)
	}
	pool, err := OpenDatabase(ctx, dsn)
	if err != nil {
		return fail(err)
	}
	defer pool.Close()
	if err := pgx.BeginFunc(ctx, pool, run); err != nil {
		return fail(err)
	}
	_, _ = stdout.Write(out.Bytes())
	return 0
}

// OpenDatabase migrates the marketplace schema and opens a pool on it.
func OpenDatabase(ctx context.Context, dsn string) (*pgxpool.Pool, error) {
	return postgres.MigrateAndOpen(ctx, dsn, contract.ServiceMarketplace, Migrations())
}

// subcommand parses args into a function run in one transaction.
func subcommand(ctx context.Context, args []string, stdout io.Writer, logger *slog.Logger) (func(pgx.Tx) error, error) {
	switch args[0] {
	case "import":
		if len(args) != 2 {
			return nil, errors.New("import takes one file")
		}
		path := args[1]
		return func(tx pgx.Tx) error {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			res, err := Import(ctx, tx, data)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "imported %d account(s), %d item(s), %d purchase(s)\n", res.Accounts, res.Items, res.Purchases)
			return nil
		}, nil
	case "seed-demo":
		if len(args) != 1 {
			return nil, errors.New("seed-demo takes no arguments")
		}
		return func(tx pgx.Tx) error {
			res, err := Import(ctx, tx, demoData)
			if err != nil {
				return fmt.Errorf("demo data: %w", err)
			}
			key, info, err := CreateKey(ctx, tx, DemoAccount, "seed-demo-"+time.Now().UTC().Format("20060102-150405"))
			if err != nil {
				return err
			}
			logger.Info("demo data seeded", "accounts", res.Accounts, "items", res.Items, "purchases", res.Purchases,
				"key_id", info.ID, "key_prefix", info.Prefix)
			fmt.Fprintln(stdout, key)
			return nil
		}, nil
	case "key":
		return keyCommand(ctx, args[1:], stdout, logger)
	}
	return nil, fmt.Errorf("unknown subcommand %q", args[0])
}

func keyCommand(ctx context.Context, args []string, stdout io.Writer, logger *slog.Logger) (func(pgx.Tx) error, error) {
	if len(args) == 0 {
		return nil, errors.New("key needs create, revoke or list")
	}
	fs := flag.NewFlagSet("key "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	account := fs.String("account", "", "owning account's username")
	name := fs.String("name", "", "a name to tell the key apart")
	if err := fs.Parse(args[1:]); err != nil {
		return nil, err
	}
	switch args[0] {
	case "create":
		if *account == "" || fs.NArg() != 0 {
			return nil, errors.New("key create needs --account USERNAME")
		}
		return func(tx pgx.Tx) error {
			key, info, err := CreateKey(ctx, tx, *account, *name)
			if err != nil {
				return err
			}
			logger.Info("key created; it is shown once", "account", info.Account, "key_id", info.ID,
				"name", info.Name, "key_prefix", info.Prefix)
			fmt.Fprintln(stdout, key)
			return nil
		}, nil
	case "revoke":
		if fs.NArg() != 1 || *account != "" || *name != "" {
			return nil, errors.New("key revoke takes one PREFIX-or-ID")
		}
		ref := fs.Arg(0)
		return func(tx pgx.Tx) error {
			info, err := RevokeKey(ctx, tx, ref)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "revoked key %d (%s, %s) of %s\n", info.ID, info.Prefix, info.Name, info.Account)
			return nil
		}, nil
	case "list":
		if *account == "" || fs.NArg() != 0 {
			return nil, errors.New("key list needs --account USERNAME")
		}
		return func(tx pgx.Tx) error {
			keys, err := ListKeys(ctx, tx, *account)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tPREFIX\tNAME\tCREATED\tREVOKED")
			for _, k := range keys {
				revoked := "-"
				if k.RevokedAt != nil {
					revoked = timestamp(*k.RevokedAt)
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", k.ID, k.Prefix, k.Name, timestamp(k.CreatedAt), revoked)
			}
			return tw.Flush()
		}, nil
	}
	return nil, fmt.Errorf("unknown key subcommand %q", strings.TrimSpace(args[0]))
}
