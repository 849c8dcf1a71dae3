package identity

import (
	"encoding/base64"
	"errors"
	"strings"
)

// Observer is told of every identity header Middleware checks: keyID is
// the id of the key that verified it ("" when refused) and err why it was
// refused (nil when verified). The services count these by key id, which is
// how a rotation's switch of the senders to the new key can be watched.
type Observer func(keyID string, err error)

// headerKeyID returns the key id named in a header value (read without
// checking anything: call it only on a header Verify accepted).
func headerKeyID(header string) string {
	p64, _, _ := strings.Cut(header, ".")
	payload, err := base64.RawURLEncoding.DecodeString(p64)
	if err != nil {
		return ""
	}
	parts := strings.Split(string(payload), "|")
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

// Reason is a short, fixed label for a Verify error (metrics, logs).
func Reason(err error) string {
	for _, r := range []struct {
		err  error
		name string
	}{
		{ErrMalformed, "malformed"}, {ErrSignature, "signature"}, {ErrUnknownKey, "unknown_key"},
		{ErrExpired, "expired"}, {ErrLifetime, "lifetime"}, {ErrAudience, "audience"},
	} {
		if errors.Is(err, r.err) {
			return r.name
		}
	}
	return "other"
}
