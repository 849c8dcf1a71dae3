// Package migrations holds the media schema's SQL migrations.
package migrations

import "embed"

// FS is the migration files, at the root.
//
//go:embed *.sql
var FS embed.FS
