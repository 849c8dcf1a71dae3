package marketplace

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Keys made by `key create` look like mkt_<40 hex digits> (160 random bits).
// Only the SHA-256 hash and a display prefix are stored; the key itself is
// printed once and then exists only with its holder.
const (
	keyScheme        = "mkt_"
	keyRandomBytes   = 20
	displayPrefixLen = 12
)

type keyHash = [sha256.Size]byte

func hashKey(key string) keyHash { return sha256.Sum256([]byte(key)) }

// displayPrefix is the part of a key safe to show and log: enough to tell
// keys apart, far too little to guess the rest.
func displayPrefix(key string) string {
	if len(key) > displayPrefixLen {
		return key[:displayPrefixLen]
	}
	// A very short key (an operator could issue one) shows only half.
	return key[:len(key)/2]
}

// newKey returns a fresh random key.
func newKey() (string, error) {
	b := make([]byte, keyRandomBytes)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return keyScheme + hex.EncodeToString(b), nil
}

// KeyInfo describes a stored key without its secret.
type KeyInfo struct {
	ID        int64
	Account   string
	Name      string
	Prefix    string
	CreatedAt time.Time
	RevokedAt *time.Time
}

// CreateKey makes a key for account, stores its hash and returns the key,
// which is never retrievable again.
func CreateKey(ctx context.Context, db pgx.Tx, account, name string) (string, KeyInfo, error) {
	var info KeyInfo
	var accountID int64
	err := db.QueryRow(ctx, `SELECT id FROM accounts WHERE username = $1`, account).Scan(&accountID)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", info, fmt.Errorf("account %q does not exist (import it first)", account)
	}
	if err != nil {
		return "", info, err
	}
	key, err := newKey()
	if err != nil {
		return "", info, err
	}
	if name == "" {
		name = "key-" + time.Now().UTC().Format("20060102-150405")
	}
	h := hashKey(key)
	info = KeyInfo{Account: account, Name: name, Prefix: displayPrefix(key)}
	err = db.QueryRow(ctx, `INSERT INTO api_keys (account_id, name, key_hash, prefix) VALUES ($1, $2, $3, $4)
		RETURNING id, created_at`, accountID, name, h[:], info.Prefix).Scan(&info.ID, &info.CreatedAt)
	return key, info, err
}

// RevokeKey revokes the active key whose id or display prefix is ref. A
// prefix matching several active keys is refused, naming their ids.
func RevokeKey(ctx context.Context, db pgx.Tx, ref string) (KeyInfo, error) {
	ref = strings.TrimSpace(ref)
	var rows pgx.Rows
	var err error
	if id, perr := strconv.ParseInt(ref, 10, 64); perr == nil {
		rows, err = db.Query(ctx, keyInfoQuery+` WHERE k.id = $1 AND k.revoked_at IS NULL`, id)
	} else {
		rows, err = db.Query(ctx, keyInfoQuery+` WHERE k.prefix = $1 AND k.revoked_at IS NULL`, ref)
	}
	if err != nil {
		return KeyInfo{}, err
	}
	found, err := collectKeys(rows)
	if err != nil {
		return KeyInfo{}, err
	}
	switch len(found) {
	case 0:
		return KeyInfo{}, fmt.Errorf("no active key has id or prefix %q", ref)
	case 1:
	default:
		ids := make([]string, len(found))
		for i, k := range found {
			ids[i] = strconv.FormatInt(k.ID, 10)
		}
		return KeyInfo{}, fmt.Errorf("prefix %q matches keys %s: revoke by id", ref, strings.Join(ids, ", "))
	}
	k := found[0]
	var at time.Time
	if err := db.QueryRow(ctx, `UPDATE api_keys SET revoked_at = now() WHERE id = $1 RETURNING revoked_at`, k.ID).Scan(&at); err != nil {
		return KeyInfo{}, err
	}
	k.RevokedAt = &at
	return k, nil
}

// ListKeys lists an account's keys, revoked ones included.
func ListKeys(ctx context.Context, db pgx.Tx, account string) ([]KeyInfo, error) {
	var exists bool
	if err := db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM accounts WHERE username = $1)`, account).Scan(&exists); err != nil {
		return nil, err
	}
	if !exists {
		return nil, fmt.Errorf("account %q does not exist", account)
	}
	rows, err := db.Query(ctx, keyInfoQuery+` WHERE a.username = $1 ORDER BY k.id`, account)
	if err != nil {
		return nil, err
	}
	return collectKeys(rows)
}

const keyInfoQuery = `SELECT k.id, a.username, k.name, k.prefix, k.created_at, k.revoked_at
	FROM api_keys k JOIN accounts a ON a.id = k.account_id`

func collectKeys(rows pgx.Rows) ([]KeyInfo, error) {
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (KeyInfo, error) {
		var k KeyInfo
		err := r.Scan(&k.ID, &k.Account, &k.Name, &k.Prefix, &k.CreatedAt, &k.RevokedAt)
		return k, err
	})
}
