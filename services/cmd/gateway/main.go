// Command gateway is the public entry point of a site. Without arguments (or
// with "serve") it serves; with a subcommand it manages users and application
// passwords:
//
//	gateway user create --login L --email E --role R
//	gateway app-password create --user L [--name N]
//	gateway app-password list --user L
//	gateway app-password revoke --user L --uuid U
package main

import (
	"siteplane.dev/services/internal/gateway"
	"siteplane.dev/services/internal/gateway/cli"
	"siteplane.dev/services/internal/gateway/migrations"
	"siteplane.dev/services/internal/platform/service"
	"siteplane.dev/services/pkg/contract"
)

func main() {
	service.MainOrCommand(service.Options{Name: contract.ServiceGateway, Migrations: migrations.FS, MaxBodyBytes: gateway.MaxBodyBytes, InternalListener: true},
		gateway.Register, cli.Command)
}
