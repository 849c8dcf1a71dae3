package gateway

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// Nonces and form tokens, WordPress-style: an HMAC over an action, the user,
// the browser session and a 12-hour tick, accepted during the current and
// the previous tick (so a nonce lives 12 to 24 hours). The key is derived
// from the internal key; a nonce is worthless outside its session, and
// logging out (or a password change) voids every nonce of the session.

const nonceTick = 12 * time.Hour

// Nonce actions.
const (
	actionREST      = "wp_rest"
	actionLogin     = "form:login"
	actionLogout    = "form:logout"
	actionAuthorize = "form:authorize-application"
)

type nonceKeys struct{ key []byte }

func newNonceKeys(internalKey []byte) nonceKeys {
	m := hmac.New(sha256.New, internalKey)
	m.Write([]byte("siteplane/gateway/nonce-key/v1"))
	return nonceKeys{key: m.Sum(nil)}
}

func (k nonceKeys) at(action string, userID int64, binding []byte, tick int64) string {
	m := hmac.New(sha256.New, k.key)
	m.Write([]byte(action))
	m.Write([]byte{0})
	m.Write([]byte(strconv.FormatInt(userID, 10)))
	m.Write([]byte{0})
	m.Write(binding)
	m.Write([]byte{0})
	m.Write([]byte(strconv.FormatInt(tick, 10)))
	return hex.EncodeToString(m.Sum(nil)[:10])
}

// create returns the nonce of action for the user's session (binding: the
// session's token hash, or the pre-login cookie for the login form).
func (k nonceKeys) create(now time.Time, action string, userID int64, binding []byte) string {
	return k.at(action, userID, binding, now.UnixNano()/int64(nonceTick))
}

// verify accepts a nonce of the current or the previous tick.
func (k nonceKeys) verify(now time.Time, nonce, action string, userID int64, binding []byte) bool {
	if len(nonce) != 20 || len(binding) == 0 {
		return false
	}
	tick := now.UnixNano() / int64(nonceTick)
	ok := false
	for _, t := range []int64{tick, tick - 1} {
		if hmac.Equal([]byte(nonce), []byte(k.at(action, userID, binding, t))) {
			ok = true
		}
	}
	return ok
}
