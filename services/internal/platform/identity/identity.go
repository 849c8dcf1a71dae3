// Package identity carries the caller's identity from the gateway to the
// services. The gateway authenticates the client, then sends
// contract.IdentityHeader with the user id, role and an expiry, signed with
// HMAC-SHA256 under the Site's internal key. Services trust only a valid
// signature; a request without the header is anonymous.
//
// Header value: base64url(payload) "." base64url(mac), payload being
// "v2|<key id>|<audience>|<user id>|<role>|<expiry unix seconds>". The
// audience is the receiving service's name (a header made for the media
// service is refused by content); the key id names which internal key
// signed it, so the key can be rotated without an outage (keys.go); the
// receiver bounds the lifetime (MaxLifetime) whatever expiry was signed.
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
	ErrMalformed  = errors.New("identity: malformed header")
	ErrSignature  = errors.New("identity: bad signature")
	ErrUnknownKey = errors.New("identity: signed with an unknown key id")
	ErrExpired    = errors.New("identity: expired")
	ErrLifetime   = errors.New("identity: expiry beyond the maximum lifetime")
	ErrAudience   = errors.New("identity: signed for another service")
)

// MaxLifetime is the longest a signed identity may live: the receiver
// refuses a header whose expiry lies further than MaxLifetime (plus
// ClockSkew) in its future, whatever the sender chose. A leaked header is
// therefore worth minutes, not years.
const MaxLifetime = 5 * time.Minute

// ClockSkew is the disagreement between the clocks of two pods that Verify
// tolerates on the lifetime bound.
const ClockSkew = 30 * time.Second

const version = "v2"

// Sign returns the header value for id, meant for the service audience
// (a contract service name) and valid until expires. It is signed with key
// and names key.ID, so the receiver knows which of its keys to check.
func Sign(key Key, audience string, id Identity, expires time.Time) string {
	payload := fmt.Sprintf("%s|%s|%s|%d|%s|%d", version, key.ID, audience, id.UserID, id.Role, expires.Unix())
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(payload)) + "." + enc.EncodeToString(mac(key.Secret, payload))
}

// Verify checks a header value made by Sign: its key id is one of ring's
// keys (the current or, during a rotation, the previous), the MAC matches,
// it is meant for audience, it has not expired and it does not outlive
// MaxLifetime.
func Verify(ring Keyring, audience, header string, now time.Time) (Identity, error) {
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
	// Only the version and the key id are read before the MAC is checked:
	// they choose the key, nothing else is trusted yet.
	parts := strings.Split(string(payload), "|")
	if len(parts) != 6 || parts[0] != version {
		return Identity{}, ErrMalformed
	}
	key, ok := ring.lookup(parts[1])
	if !ok {
		return Identity{}, ErrUnknownKey
	}
	if !hmac.Equal(sum, mac(key.Secret, string(payload))) {
		return Identity{}, ErrSignature
	}
	if parts[2] != audience {
		return Identity{}, ErrAudience
	}
	uid, err := strconv.ParseInt(parts[3], 10, 64)
	if err != nil || uid < 0 {
		return Identity{}, ErrMalformed
	}
	exp, err := strconv.ParseInt(parts[5], 10, 64)
	if err != nil {
		return Identity{}, ErrMalformed
	}
	if now.Unix() >= exp {
		return Identity{}, ErrExpired
	}
	if exp > now.Add(MaxLifetime+ClockSkew).Unix() {
		return Identity{}, ErrLifetime
	}
	role := Role(parts[4])
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
