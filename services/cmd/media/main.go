// Command media is the media service: attachments, uploads, image sizes and
// editing under cms/v2/media, and the uploaded files under
// /cms-content/uploads/.
package main

import (
	"siteplane.dev/services/internal/media"
	"siteplane.dev/services/internal/platform/service"
)

func main() {
	// media.Options carries the service's soft memory limit (applied by
	// service.Main unless GOMEMLIMIT is set or the container's is lower).
	service.Main(media.Options(), media.Register)
}
