package gateway

import (
	"context"
	"time"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/pkg/contract"
)

// Verified application passwords are cached (accounts.CredentialCache):
// a client repeating its Basic credentials costs no database round trip.
// The cache hears every change of users and application passwords on the
// site's control channel, whoever made it (docs/security.md), whether the
// edge cache listens for writes or not.
const (
	// credentialsMax bounds the cache: one entry per credential in use.
	credentialsMax = 10000
	// credentialsTTL bounds how long a credential is trusted without a
	// look at the database, should a change ever go unheard.
	credentialsTTL = 30 * time.Second
)

// newCredentialCache is the cache of the running gateway; the change
// listener feeds it (credentialsListener).
func newCredentialCache(store *accounts.Store) *accounts.CredentialCache {
	return accounts.NewCredentialCache(store, credentialsMax, credentialsTTL)
}

// credentialsChanged is the change listener's control-channel hook: the
// gateway's own tables announce a change of users or application
// passwords with its name (migration 0006).
func credentialsChanged(c *accounts.CredentialCache) func(payload string) {
	return func(payload string) {
		if payload == contract.ServiceGateway {
			c.Invalidate()
		}
	}
}

// checkPassword verifies Basic application-password credentials, through
// the cache when the gateway has one.
func (g *Gateway) checkPassword(ctx context.Context, login, password, remoteIP string) (accounts.User, string, error) {
	if g.cfg.Credentials != nil {
		return g.cfg.Credentials.AuthenticatePassword(ctx, login, password, remoteIP)
	}
	return g.cfg.Store.AuthenticatePassword(ctx, login, password, remoteIP)
}
