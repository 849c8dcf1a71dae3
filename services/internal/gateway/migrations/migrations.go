// Package migrations holds the gateway schema: users with their WordPress
// role, their application passwords (keyed hashes only), login passwords
// (argon2id), browser sessions, login throttling and the oEmbed proxy cache.
package migrations

import "embed"

// FS holds the golang-migrate files applied at start-up.
//
//go:embed *.sql
var FS embed.FS
