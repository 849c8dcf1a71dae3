// Package marketplace is the marketplace author API of seed 000: an account
// holder's API key reads their account and catalogue items and validates
// buyers' purchase codes. Every operation is scoped to the account that owns
// the key; every response carries "status", and every failure is
// {"status":"error","msg":<the operation's seed message>}.
//
// Keys come from two places: the api_keys table (created with the
// `marketplace key create` subcommand, stored as SHA-256 hashes) and a
// directory of operator-issued keys that is polled for changes (keydir.go).
//
// Each request is one database round trip: the key is checked by the same
// SQL statement that reads the request's data (auth.go, store.go).
package marketplace
