package devstack

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
)

// Secrets are generated on the first run and reused afterwards.
type Secrets struct {
	InternalKey      string `json:"internal_key"`
	AdminUser        string `json:"admin_user"`
	AdminEmail       string `json:"admin_email"`
	AdminAppPassword string `json:"admin_app_password"`
	// AdminLoginPassword signs the administrator in at /cms-login.php.
	AdminLoginPassword string `json:"admin_login_password"`
	// GatewaySecret is the gateway's non-rotating secret (password pepper,
	// nonce key). Files from before it existed get the internal key, which
	// the gateway used in its place, so stored passwords keep working.
	GatewaySecret string `json:"gateway_secret"`
}

const alphanumerics = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// RandomString returns n characters drawn uniformly from alphabet.
func RandomString(n int, alphabet string) string {
	b := make([]byte, n)
	size := big.NewInt(int64(len(alphabet)))
	for i := range b {
		v, err := rand.Int(rand.Reader, size)
		if err != nil {
			panic(err) // crypto/rand never fails on Linux; a broken RNG must not produce keys
		}
		b[i] = alphabet[v.Int64()]
	}
	return string(b)
}

// LoadOrCreateSecrets reads path, or creates it (mode 0600) with new values.
func LoadOrCreateSecrets(path string) (Secrets, error) {
	var s Secrets
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(data, &s); err != nil {
			return s, fmt.Errorf("%s is damaged (delete it to regenerate): %w", path, err)
		}
		if s.InternalKey != "" && s.AdminAppPassword != "" {
			if s.AdminLoginPassword != "" && s.GatewaySecret != "" {
				return s, nil
			}
			// Written before login passwords or the gateway secret existed:
			// add them, keep the rest.
			if s.AdminLoginPassword == "" {
				s.AdminLoginPassword = RandomString(20, alphanumerics)
			}
			if s.GatewaySecret == "" {
				s.GatewaySecret = s.InternalKey
			}
			return s, writeSecrets(path, s)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return s, err
	}
	s = Secrets{
		InternalKey:        RandomString(48, alphanumerics),
		AdminUser:          "admin",
		AdminEmail:         "admin@example.com",
		AdminAppPassword:   RandomString(24, alphanumerics),
		AdminLoginPassword: RandomString(20, alphanumerics),
		GatewaySecret:      RandomString(48, alphanumerics),
	}
	return s, writeSecrets(path, s)
}

func writeSecrets(path string, s Secrets) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	data, _ := json.MarshalIndent(s, "", "  ")
	return os.WriteFile(path, data, 0o600)
}
