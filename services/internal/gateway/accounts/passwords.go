package accounts

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"strings"
)

// PasswordLength is the number of characters of a generated application
// password (WordPress: 24 alphanumerics).
const PasswordLength = 24

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// GeneratePassword returns a new application password: 24 characters drawn
// uniformly from [A-Za-z0-9] with crypto/rand (about 143 bits).
func GeneratePassword() string {
	b := make([]byte, PasswordLength)
	// Rejection sampling keeps the distribution uniform: 62*4 = 248 < 256.
	buf := make([]byte, 1)
	for i := 0; i < len(b); {
		if _, err := rand.Read(buf); err != nil {
			panic("accounts: crypto/rand failed: " + err.Error())
		}
		if buf[0] < 248 {
			b[i] = alphabet[buf[0]%62]
			i++
		}
	}
	return string(b)
}

// Normalize removes every character that is not an ASCII letter or digit, as
// WordPress does before comparing, so "abcd efgh ..." and "abcd-efgh-..."
// are the same password.
func Normalize(password string) string {
	var sb strings.Builder
	sb.Grow(len(password))
	for i := 0; i < len(password); i++ {
		c := password[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// Chunk formats a password in groups of four separated by spaces, the way
// WordPress displays it.
func Chunk(password string) string {
	var parts []string
	for len(password) > 4 {
		parts = append(parts, password[:4])
		password = password[4:]
	}
	return strings.Join(append(parts, password), " ")
}

// Hasher computes the keyed hash stored for an application password.
type Hasher struct{ pepper []byte }

// NewHasher derives the pepper from the site's internal key, so no extra
// secret has to be provisioned. Rotating the internal key invalidates every
// application password (they must be re-issued).
func NewHasher(internalKey []byte) Hasher {
	m := hmac.New(sha256.New, internalKey)
	m.Write([]byte("siteplane/gateway/application-password-pepper/v1"))
	return Hasher{pepper: m.Sum(nil)}
}

// Hash returns HMAC-SHA256(pepper, Normalize(password)).
func (h Hasher) Hash(password string) []byte {
	m := hmac.New(sha256.New, h.pepper)
	m.Write([]byte(Normalize(password)))
	return m.Sum(nil)
}

// ValidateIssued checks a password supplied from outside (the bootstrap
// Secret): after normalisation it must be at least PasswordLength
// alphanumerics, so the fast hash stays safe.
func ValidateIssued(password string) error {
	if n := len(Normalize(password)); n < PasswordLength {
		return fmt.Errorf("an application password needs at least %d letters or digits, got %d", PasswordLength, n)
	}
	return nil
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("accounts: crypto/rand failed: " + err.Error())
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
