package marketplace

import (
	"context"
	"crypto/subtle"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// errUnauthorized covers a missing, unknown or revoked key, and a directory
// key whose account does not exist: the caller learns nothing more.
var errUnauthorized = errors.New("unauthorized")

// principal is an authenticated caller.
type principal struct {
	accountID int64
	// hash identifies the key for the rate limiter without keeping the key.
	hash keyHash
	// prefix is the loggable part of the key.
	prefix string
}

// authenticator resolves a presented key to its account: first among the
// operator-issued keys of the key directory, then among the stored keys.
type authenticator struct {
	pool *pgxpool.Pool
	dir  *keyDir // nil when no directory is configured
}

func (a *authenticator) authenticate(ctx context.Context, key string) (principal, error) {
	h := hashKey(key)
	p := principal{hash: h, prefix: displayPrefix(key)}
	if a.dir != nil {
		// The map is indexed by hash; the constant-time comparison guards
		// the final equality, as for stored keys below.
		if e, ok := a.dir.lookup(h); ok && subtle.ConstantTimeCompare(e.hash[:], h[:]) == 1 {
			err := a.pool.QueryRow(ctx, `SELECT id FROM accounts WHERE username = $1`, e.account).Scan(&p.accountID)
			if errors.Is(err, pgx.ErrNoRows) {
				return p, errUnauthorized
			}
			return p, err
		}
	}
	var stored []byte
	err := a.pool.QueryRow(ctx, `SELECT key_hash, account_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
		h[:]).Scan(&stored, &p.accountID)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, errUnauthorized
	}
	if err != nil {
		return p, err
	}
	if subtle.ConstantTimeCompare(stored, h[:]) != 1 {
		return p, errUnauthorized
	}
	return p, nil
}
