package service

import (
	"net/http"
	"time"

	"siteplane.dev/services/internal/platform/config"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// shutdownDelay reads contract.EnvShutdownDelay: how long the service keeps
// serving, already unready, after SIGTERM. "0s" (the default) is allowed.
func shutdownDelay(cfg *config.Loader) time.Duration {
	v := cfg.String(contract.EnvShutdownDelay, "")
	if v == "" || v == "0" || v == "0s" {
		return 0
	}
	return cfg.Duration(contract.EnvShutdownDelay, 0)
}

// loadKeys reads the internal keys: from the file named by
// contract.EnvInternalKeyFile (re-read while running, with the previous key
// and the rotation time beside it: identity.FileKeys), or the single key
// of contract.EnvInternalKey.
func loadKeys(cfg *config.Loader) identity.Keys {
	path := cfg.String(contract.EnvInternalKeyFile, "")
	value := cfg.String(contract.EnvInternalKey, "")
	switch {
	case path != "" && value != "":
		cfg.Fail("set only one of %s and %s", contract.EnvInternalKey, contract.EnvInternalKeyFile)
	case path != "":
		keys, err := identity.NewFileKeys(path, 0)
		if err != nil {
			cfg.Fail("%s: %v", contract.EnvInternalKeyFile, err)
			return nil
		}
		keys.SetPropagationDelay(propagationDelay(cfg))
		return keys
	case value != "":
		return identity.Static([]byte(value))
	default:
		cfg.Fail("%s (or %s) is required", contract.EnvInternalKey, contract.EnvInternalKeyFile)
	}
	return nil
}

// propagationDelay reads contract.EnvInternalKeyPropagationDelay (zero when
// unset: identity.PropagationDelay), bounded so that a typo cannot make the
// senders switch before the receivers can know the new key, nor sign with a
// previous key past the operator's grace window.
func propagationDelay(cfg *config.Loader) time.Duration {
	d := cfg.Duration(contract.EnvInternalKeyPropagationDelay, 0)
	if d != 0 && (d < identity.MinPropagationDelay || d > identity.MaxPropagationDelay) {
		cfg.Fail("%s must be between %s and %s, got %s", contract.EnvInternalKeyPropagationDelay,
			identity.MinPropagationDelay, identity.MaxPropagationDelay, d)
		return 0
	}
	return d
}

// dropIdentity is the identity middleware of a service that takes no
// identities (it holds no key to check one): the header is removed, so no
// handler can ever read an unverified identity.
func dropIdentity(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del(contract.IdentityHeader)
		next.ServeHTTP(w, r)
	})
}
