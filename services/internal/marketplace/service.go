package marketplace

import (
	"context"
	"embed"
	"io/fs"

	"siteplane.dev/services/internal/platform/service"
	"siteplane.dev/services/pkg/contract"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations is the marketplace schema's migration set.
func Migrations() fs.FS {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		panic(err) // the embedded directory always exists
	}
	return sub
}

// Options are the service options main passes to service.Main.
func Options() service.Options {
	return service.Options{Name: contract.ServiceMarketplace, Migrations: Migrations(), Errors: WriteError, NoIdentity: true}
}

// Register wires the API into a running service: the key directory
// (contract.EnvMarketplaceKeysDir, optional) and the validation rate
// (contract.EnvValidationRate, default contract.DefaultValidationRate).
func Register(ctx context.Context, env *service.Env) error {
	rate := env.Config.Int(contract.EnvValidationRate, contract.DefaultValidationRate, 1, 1_000_000)
	dir := env.Config.String(contract.EnvMarketplaceKeysDir, "")
	api := New(Config{Pool: env.Pool, Logger: env.Logger, KeysDir: dir, ValidationsPerMinute: int(rate)})
	api.Mount(env.Router)
	go api.Run(ctx)
	return nil
}
