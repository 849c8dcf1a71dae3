// Command media is the media service: attachments, uploads, image sizes and
// editing under cms/v2/media, and the uploaded files under
// /cms-content/uploads/.
package main

import (
	"os"
	"runtime/debug"

	"siteplane.dev/services/internal/media"
	"siteplane.dev/services/internal/platform/service"
)

func main() {
	// A soft memory limit keeps the heap close to what is live while images
	// are processed; GOMEMLIMIT in the environment wins.
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(media.DefaultMemoryLimit)
	}
	service.Main(media.Options(), media.Register)
}
