// Package cli implements the gateway's management subcommands. They talk to
// the database directly (same DSN and internal key as the server), so an
// operator can create users and application passwords with kubectl exec or
// locally, without any HTTP credentials.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/gateway/migrations"
	"siteplane.dev/services/internal/platform/config"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

const usage = `usage:
  gateway user create --login LOGIN --email EMAIL --role ROLE
  gateway app-password create --user LOGIN [--name NAME]
  gateway app-password list --user LOGIN
  gateway app-password revoke --user LOGIN --uuid UUID`

// Command runs one subcommand (the shape of service.Command): results go to
// stdout, errors to stderr; the exit code is 0, 1 for a failure and 2 for a
// usage error. Passwords are printed once, on creation, and never logged.
func Command(ctx context.Context, args []string, lookup func(string) (string, bool), stdout, stderr io.Writer) int {
	err := run(ctx, args, lookup, stdout)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "gateway: %v\n%s\n", err, usage)
		return 2
	}
	fmt.Fprintln(stderr, "gateway:", err)
	return 1
}

// errUsage marks a command line that names no subcommand or bad flags.
var errUsage = errors.New("usage error")

func run(ctx context.Context, args []string, lookup func(string) (string, bool), out io.Writer) error {
	if len(args) < 2 {
		return errUsage
	}
	cfg := config.New(lookup)
	dsn := cfg.Secret(contract.EnvDatabaseURL, contract.EnvDatabaseURLFile, true)
	secret := cfg.Secret(contract.EnvGatewaySecret, contract.EnvGatewaySecretFile, false)
	if secret == "" {
		// as the running gateway does (gateway.GatewaySecret)
		secret = cfg.Secret(contract.EnvInternalKey, contract.EnvInternalKeyFile, true)
	}
	if err := cfg.Err(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	pool, err := postgres.MigrateAndOpen(ctx, dsn, contract.ServiceGateway, migrations.FS)
	if err != nil {
		return err
	}
	defer pool.Close()
	store := accounts.New(pool, accounts.NewHasher([]byte(secret)))

	fs := flag.NewFlagSet(args[0]+" "+args[1], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	login := fs.String("login", "", "login of the new user")
	email := fs.String("email", "", "email of the new user")
	role := fs.String("role", "subscriber", "WordPress role")
	user := fs.String("user", "", "login or email of the user")
	name := fs.String("name", "cli", "name of the application password")
	uuid := fs.String("uuid", "", "uuid of the application password")
	if err := fs.Parse(args[2:]); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	find := func() (accounts.User, error) {
		u, err := store.UserByLogin(ctx, *user)
		if errors.Is(err, accounts.ErrNotFound) {
			u, err = store.UserByEmail(ctx, *user)
		}
		if errors.Is(err, accounts.ErrNotFound) {
			return u, fmt.Errorf("no user %q", *user)
		}
		return u, err
	}
	switch args[0] + " " + args[1] {
	case "user create":
		u, err := store.CreateUser(ctx, accounts.NewUser{Login: *login, Email: *email, Role: *role})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "created user %d %s (%s)\n", u.ID, u.Login, u.Role)
	case "app-password create":
		u, err := find()
		if err != nil {
			return err
		}
		plain, ap, err := store.CreatePassword(ctx, u.ID, *name, "")
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "uuid: %s\nuser: %s\npassword: %s\n", ap.UUID, u.Login, plain)
		fmt.Fprintln(out, "The password is shown once; store it now.")
	case "app-password list":
		u, err := find()
		if err != nil {
			return err
		}
		list, err := store.ListPasswords(ctx, u.ID)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "UUID\tNAME\tCREATED\tLAST USED")
		for _, a := range list {
			last := "never"
			if a.LastUsed != nil {
				last = a.LastUsed.UTC().Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", a.UUID, a.Name, a.Created.UTC().Format(time.RFC3339), last)
		}
		return tw.Flush()
	case "app-password revoke":
		u, err := find()
		if err != nil {
			return err
		}
		if _, err := store.DeletePassword(ctx, u.ID, *uuid); err != nil {
			if errors.Is(err, accounts.ErrNotFound) {
				return fmt.Errorf("user %s has no application password %q", u.Login, *uuid)
			}
			return err
		}
		fmt.Fprintf(out, "revoked %s\n", *uuid)
	default:
		return fmt.Errorf("%w: unknown subcommand %q", errUsage, args[0]+" "+args[1])
	}
	return nil
}
