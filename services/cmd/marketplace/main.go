// Command marketplace serves the marketplace author API (seed 000).
//
//	marketplace [serve]                 run the service
//	marketplace import FILE.json        upsert accounts, items and purchases
//	marketplace key create|revoke|list  manage API keys
//	marketplace seed-demo               demo account and data; prints a fresh key
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"siteplane.dev/services/internal/marketplace"
	"siteplane.dev/services/internal/platform/service"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] == "serve" {
		service.Main(marketplace.Options(), marketplace.Register)
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	code := marketplace.Command(ctx, os.Args[1:], os.LookupEnv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
