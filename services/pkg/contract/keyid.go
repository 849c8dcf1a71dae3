package contract

import (
	"crypto/sha256"
	"encoding/hex"
)

// InternalKeyID names an internal key without revealing it: 12 hex digits
// of a SHA-256 over a label and the key. The identity header carries it so
// a receiver knows which of its keys signed; the services' metrics label
// verified headers with it (siteplane_identity_verified_total), so an
// operator can see a rotation's senders switch keys.
func InternalKeyID(secret []byte) string {
	h := sha256.New()
	h.Write([]byte("siteplane/internal-key-id/v1\x00"))
	h.Write(secret)
	return hex.EncodeToString(h.Sum(nil))[:12]
}
