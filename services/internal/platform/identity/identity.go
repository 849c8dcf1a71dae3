// Package identity carries the caller's identity from the gateway to the
// services. The gateway authenticates the client, then sends
// contract.IdentityHeader with the user id, role and an expiry, signed with
// HMAC-SHA256 under the Site's internal key. Services trust only a valid
// signature; a request without the header is anonymous.
//
// Header value: base64url(payload) "." base64url(mac), payload being
// "v1|<user id>|<role>|<expiry unix seconds>".
package identity

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Identity is an authenticated caller. The zero value is the anonymous caller.
type Identity struct {
	UserID int64
	Role   Role
}

// Anonymous reports whether no user is logged in.
func (i Identity) Anonymous() bool { return i.UserID == 0 }

// LoggedIn reports whether a user is logged in (WordPress's is_user_logged_in).
func (i Identity) LoggedIn() bool { return i.UserID != 0 }

// Can reports whether the caller's role grants the capability.
func (i Identity) Can(capability string) bool {
	if i.Anonymous() {
		return false
	}
	return i.Role.Can(capability)
}

// ID returns the user id (0 when anonymous).
func (i Identity) ID() int64 { return i.UserID }

// Errors returned by Verify. They never contain the header value.
var (
	ErrMalformed = errors.New("identity: malformed header")
	ErrSignature = errors.New("identity: bad signature")
	ErrExpired   = errors.New("identity: expired")
)

const version = "v1"

// Sign returns the header value for id, valid until expires.
func Sign(key []byte, id Identity, expires time.Time) string {
	payload := fmt.Sprintf("%s|%d|%s|%d", version, id.UserID, id.Role, expires.Unix())
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(payload)) + "." + enc.EncodeToString(mac(key, payload))
}

// Verify checks the signature and expiry of a header value made by Sign.
func Verify(key []byte, header string, now time.Time) (Identity, error) {
	enc := base64.RawURLEncoding
	p64, m64, ok := strings.Cut(header, ".")
	if !ok {
		return Identity{}, ErrMalformed
	}
	payload, err1 := enc.DecodeString(p64)
	sum, err2 := enc.DecodeString(m64)
	if err1 != nil || err2 != nil {
		return Identity{}, ErrMalformed
	}
	// Check the MAC before parsing anything an attacker controls.
	if !hmac.Equal(sum, mac(key, string(payload))) {
		return Identity{}, ErrSignature
	}
	parts := strings.Split(string(payload), "|")
	if len(parts) != 4 || parts[0] != version {
		return Identity{}, ErrMalformed
	}
	uid, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || uid < 0 {
		return Identity{}, ErrMalformed
	}
	exp, err := strconv.ParseInt(parts[3], 10, 64)
	if err != nil {
		return Identity{}, ErrMalformed
	}
	if now.Unix() >= exp {
		return Identity{}, ErrExpired
	}
	role := Role(parts[2])
	if !role.Valid() {
		return Identity{}, ErrMalformed
	}
	return Identity{UserID: uid, Role: role}, nil
}

func mac(key []byte, payload string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(payload))
	return h.Sum(nil)
}

type ctxKey struct{}

// NewContext returns a context carrying id.
func NewContext(ctx context.Context, id Identity) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// FromContext returns the caller stored by the middleware; anonymous when none.
func FromContext(ctx context.Context) Identity {
	id, _ := ctx.Value(ctxKey{}).(Identity)
	return id
}
