// Package migrations holds the gateway schema: users with their WordPress
// role, and their application passwords (keyed hashes only).
package migrations

import "embed"

// FS holds the golang-migrate files applied at start-up.
//
//go:embed *.sql
var FS embed.FS
