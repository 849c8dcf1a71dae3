package marketplace

import (
	"crypto/subtle"
	"errors"
)

// errUnauthorized covers a missing, unknown or revoked key, and a directory
// key whose account does not exist: the caller learns nothing more.
var errUnauthorized = errors.New("unauthorized")

// principal is a presented key, resolved as far as memory allows. Whether it
// names an account is settled by the database in the same statement that
// reads the request's data (see callerSQL), so that every request costs one
// round trip.
type principal struct {
	// hash identifies the key for the rate limiter without keeping the key.
	hash keyHash
	// prefix is the loggable part of the key.
	prefix string
	// source says how the statement finds the account; arg is its $1.
	source keySource
	arg    any
}

// keySource is where a key is issued: the api_keys table or the operator's
// key directory.
type keySource int

const (
	sourceStored keySource = iota
	sourceDirectory
)

// callerSQL defines the relation "caller" (account_id) for each key source:
// one row when the key is valid, none otherwise. Statements start with it
// and join their data to it, so an unknown key and missing data are told
// apart by whether the caller row exists.
//
// Stored keys are looked up by the SHA-256 hash of the presented key, which
// is what the table holds. The equality test inside PostgreSQL is not
// constant-time, but it compares hashes of whatever the caller sent: timing
// can at most reveal how many leading bytes of SHA-256(guess) match a stored
// hash, and choosing guesses to extend such a match would need SHA-256
// preimages. That is why a hashed lookup needs no constant-time comparison
// of its own (and why the key itself is never compared).
var callerSQL = [...]string{
	sourceStored:    `WITH caller AS (SELECT account_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL)`,
	sourceDirectory: `WITH caller AS (SELECT id AS account_id FROM accounts WHERE username = $1)`,
}

// callerStmt is one statement in a variant per key source, built once so
// that the SQL text stays constant for pgx's statement cache.
type callerStmt [len(callerSQL)]string

// withCaller prefixes body, which reads "caller" and numbers its own
// parameters from $2, with each source's caller relation.
func withCaller(body string) callerStmt {
	var s callerStmt
	for src, cte := range callerSQL {
		s[src] = cte + "\n" + body
	}
	return s
}

// args returns the statement's arguments: the key reference, then rest.
func (p principal) args(rest ...any) []any {
	return append([]any{p.arg}, rest...)
}

// authenticator resolves a presented key without the database: operator
// keys of the key directory first (they are in memory), then stored keys.
type authenticator struct {
	dir *keyDir // nil when no directory is configured
}

func (a *authenticator) resolve(key string) principal {
	h := hashKey(key)
	p := principal{hash: h, prefix: displayPrefix(key)}
	if a.dir != nil {
		// The map is indexed by hash, so this equality is already settled;
		// the constant-time comparison documents that the final check on
		// key material never short-circuits. As above, it is the hash of
		// the presented key that is compared, never the key.
		if e, ok := a.dir.lookup(h); ok && subtle.ConstantTimeCompare(e.hash[:], h[:]) == 1 {
			p.source, p.arg = sourceDirectory, e.account
			return p
		}
	}
	// A fresh slice per call: pgx encodes it when the statement is sent.
	p.source, p.arg = sourceStored, h[:]
	return p
}
