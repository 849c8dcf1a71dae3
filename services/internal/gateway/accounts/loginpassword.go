package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"golang.org/x/crypto/argon2"

	"siteplane.dev/services/internal/platform/identity"
)

// Login passwords are typed by people, so unlike application passwords (24
// random characters behind a fast keyed hash) they are stored with a
// memory-hard KDF: argon2id, 19 MiB, 2 passes, 1 lane (RFC 9106's
// low-memory setting as OWASP recommends it), 16-byte salt, 32-byte key, in
// the PHC string format "$argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>".
// Parameters are read back from each hash, so they can be raised later
// without invalidating stored passwords.

// MaxLoginPasswordBytes bounds what is hashed: argon2 costs the same for any
// length, but a megabyte "password" is not one.
const MaxLoginPasswordBytes = 4096

// Errors of login-password validation (WordPress's rules: not empty, no
// backslash).
var (
	ErrPasswordEmpty     = errors.New("accounts: login password is empty")
	ErrPasswordBackslash = errors.New(`accounts: login password contains "\"`)
	ErrPasswordTooLong   = fmt.Errorf("accounts: login password is longer than %d bytes", MaxLoginPasswordBytes)
)

type argonParams struct {
	memory  uint32 // KiB
	time    uint32
	threads uint8
}

var loginArgon = argonParams{memory: 19 * 1024, time: 2, threads: 1}

const argonKeyLen = 32

// ValidateLoginPassword applies WordPress's rules for a new login password.
func ValidateLoginPassword(pw string) error {
	switch {
	case pw == "":
		return ErrPasswordEmpty
	case strings.Contains(pw, `\`):
		return ErrPasswordBackslash
	case len(pw) > MaxLoginPasswordBytes:
		return ErrPasswordTooLong
	}
	return nil
}

// HashLoginPassword returns the argon2id PHC string of pw.
func HashLoginPassword(pw string) (string, error) {
	if err := ValidateLoginPassword(pw); err != nil {
		return "", err
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("login password salt: %w", err)
	}
	return encodeArgon(loginArgon, salt, argonKey(pw, salt, loginArgon, argonKeyLen)), nil
}

// argonSlots bounds the argon2 computations running at once: each holds
// its whole memory parameter (19 MiB) for its duration, so a burst of
// logins must queue rather than multiply the gateway's heap.
var argonSlots = make(chan struct{}, 2)

// argonKey derives the key, then collects and returns the freed block to
// the operating system: a collection that happened while the 19 MiB block
// was live set the next heap goal to twice that, and until the next
// collection the gateway's heap (and RSS) would grow to it with ordinary
// garbage — measured: 62 MiB instead of 43 under the first list load after
// the administrator's password was hashed at startup; and the freed block
// itself would stay resident for minutes. One collection of the small live
// heap costs far less than the derivation (logins are rare and limited).
func argonKey(pw string, salt []byte, p argonParams, keyLen uint32) []byte {
	argonSlots <- struct{}{}
	key := argon2.IDKey([]byte(pw), salt, p.time, p.memory, p.threads, keyLen)
	<-argonSlots
	debug.FreeOSMemory()
	return key
}

func encodeArgon(p argonParams, salt, key []byte) string {
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.memory, p.time, p.threads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// VerifyLoginPassword reports whether pw matches the PHC string. A hash it
// cannot parse never matches.
func VerifyLoginPassword(phc, pw string) bool {
	p, salt, key, ok := decodeArgon(phc)
	if !ok || len(pw) > MaxLoginPasswordBytes {
		return false
	}
	got := argonKey(pw, salt, p, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1
}

func decodeArgon(phc string) (argonParams, []byte, []byte, bool) {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return argonParams{}, nil, nil, false
	}
	var p argonParams
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.memory, &p.time, &p.threads); err != nil {
		return argonParams{}, nil, nil, false
	}
	// Refuse parameters that would make one verification a denial of
	// service (a tampered row): at most 256 MiB and 10 passes.
	if p.memory < 8 || p.memory > 256*1024 || p.time < 1 || p.time > 10 || p.threads < 1 {
		return argonParams{}, nil, nil, false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	key, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(salt) < 8 || len(key) < 16 {
		return argonParams{}, nil, nil, false
	}
	return p, salt, key, true
}

// dummyHash is verified when the login is unknown or has no login password,
// so that every failed login costs one argon2id computation with the same
// parameters as a real one.
var dummyHash = func() string {
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	return encodeArgon(loginArgon, salt, make([]byte, argonKeyLen))
}()

// SetLoginPassword stores a new login password for the user (hashed).
func (s *Store) SetLoginPassword(ctx context.Context, userID int64, pw string) error {
	h, err := HashLoginPassword(pw)
	if err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `UPDATE users SET login_password = $2 WHERE id = $1`, userID, h)
	if err != nil {
		return fmt.Errorf("store login password: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

// ErrBadLogin is every failed login-password check: unknown login, unknown
// email, no login password set, or a wrong password look the same.
var ErrBadLogin = errors.New("accounts: unknown login or wrong password")

// CheckLoginPassword finds the user by login (or email) and verifies the
// login password. Whatever fails, exactly one argon2id verification runs,
// so the answer and its timing do not tell whether the account exists.
func (s *Store) CheckLoginPassword(ctx context.Context, login, pw string) (User, error) {
	if !storable(login) {
		VerifyLoginPassword(dummyHash, pw)
		return User{}, ErrBadLogin
	}
	var u User
	var role, phc string
	err := s.pool.QueryRow(ctx, `SELECT `+userColumns+`, login_password FROM users
		WHERE lower(login) = lower($1) OR lower(email) = lower($1)
		ORDER BY lower(login) = lower($1) DESC LIMIT 1`, login).Scan(&u.ID, &u.Login, &u.Email, &u.Slug, &u.DisplayName, &u.FirstName,
		&u.LastName, &u.Nickname, &u.URL, &u.Description, &u.Locale, &role, &u.Registered, &phc)
	if err != nil && !isNoRows(err) {
		return User{}, fmt.Errorf("look up login: %w", err)
	}
	if err != nil || phc == "" {
		VerifyLoginPassword(dummyHash, pw)
		return User{}, ErrBadLogin
	}
	if !VerifyLoginPassword(phc, pw) {
		return User{}, ErrBadLogin
	}
	u.Role = identity.Role(role)
	return u, nil
}
