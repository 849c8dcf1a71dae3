// Command marketplace serves the marketplace author API (seed 000).
//
//	marketplace [serve]                 run the service
//	marketplace import FILE.json        upsert accounts, items and purchases
//	marketplace key create|revoke|list  manage API keys
//	marketplace seed-demo               demo account and data; prints a fresh key
package main

import (
	"siteplane.dev/services/internal/marketplace"
	"siteplane.dev/services/internal/platform/service"
)

func main() {
	service.MainOrCommand(marketplace.Options(), marketplace.Register, marketplace.Command)
}
