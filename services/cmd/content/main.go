// Command content is the content service: posts, pages, blocks, navigation,
// their revisions and autosaves, and the term collections under cms/v2.
//
//	content [serve]     run the HTTP service (migrations first)
//	content seed-demo   migrate, then write the demo site once (idempotent)
package main

import (
	"siteplane.dev/services/internal/content"
	"siteplane.dev/services/internal/platform/service"
)

func main() {
	service.MainOrCommand(content.Options(), content.Register, content.Command)
}
