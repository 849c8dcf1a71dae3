// Package migrations holds the gateway schema: users with their WordPress
// role, their application passwords (keyed hashes only), login passwords
// (argon2id), browser sessions, login throttling, the oEmbed proxy cache and
// the cache-plugin switches (the crawler).
package migrations

import "embed"

// FS holds the migration files (NNNN_name.up.sql) applied at start-up.
//
//go:embed *.sql
var FS embed.FS
