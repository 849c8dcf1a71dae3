package accounts

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"time"
)

// AuthError is an authentication failure in WordPress's terms; the gateway
// answers it with 401 before routing (reference §13.1).
type AuthError struct {
	Code    string
	Message string
}

func (e *AuthError) Error() string { return e.Code }

// The failures of wp_authenticate_application_password, with WordPress's
// exact messages.
var (
	ErrUnknownUsername = &AuthError{"invalid_username", "<strong>Error:</strong> Unknown username. Check again or try your email address."}
	ErrUnknownEmail    = &AuthError{"invalid_email", "<strong>Error:</strong> Unknown email address. Check again or try your username."}
	ErrBadPassword     = &AuthError{"incorrect_password", "The provided password is an invalid application password."}
)

// BasicCredentials extracts HTTP Basic credentials. ok is false when the
// request carries no Basic credentials at all (or an undecodable value), in
// which case WordPress treats the request as anonymous.
func BasicCredentials(r *http.Request) (user, password string, ok bool) {
	h := r.Header.Get("Authorization")
	scheme, value, found := strings.Cut(strings.TrimSpace(h), " ")
	if !found || !strings.EqualFold(scheme, "Basic") {
		return "", "", false
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(value))
	if err != nil {
		return "", "", false
	}
	user, password, _ = strings.Cut(string(raw), ":")
	return user, password, true
}

// Authenticate checks login-or-email and an application password the way
// WordPress does: the login is looked up first, then the email when the
// value looks like an address; the password is normalised and compared with
// the user's application passwords (the real login password does not exist
// here). A successful check records last_used/last_ip, at most once a minute
// per password so that busy clients do not write on every request.
func (s *Store) Authenticate(ctx context.Context, login, password, remoteIP string) (User, error) {
	u, _, err := s.AuthenticatePassword(ctx, login, password, remoteIP)
	return u, err
}

// AuthenticatePassword is Authenticate that also returns the uuid of the
// application password that matched (for introspection).
func (s *Store) AuthenticatePassword(ctx context.Context, login, password, remoteIP string) (User, string, error) {
	u, err := s.UserByLogin(ctx, login)
	if errors.Is(err, ErrNotFound) && strings.Contains(login, "@") {
		u, err = s.UserByEmail(ctx, login)
	}
	if errors.Is(err, ErrNotFound) {
		if ValidEmail(login) {
			return User{}, "", ErrUnknownEmail
		}
		return User{}, "", ErrUnknownUsername
	}
	if err != nil {
		return User{}, "", err
	}
	var uuid string
	var lastUsed *time.Time
	err = s.pool.QueryRow(ctx, `SELECT uuid::text, last_used FROM application_passwords WHERE hash = $1 AND user_id = $2`,
		s.hasher.Hash(password), u.ID).Scan(&uuid, &lastUsed)
	if err != nil {
		if isNoRows(err) {
			return User{}, "", ErrBadPassword
		}
		return User{}, "", err
	}
	now := s.now()
	if lastUsed == nil || now.Sub(*lastUsed) > time.Minute {
		// Best effort: a failed bookkeeping write must not fail the request.
		_, _ = s.pool.Exec(ctx, `UPDATE application_passwords SET last_used = $2, last_ip = $3 WHERE uuid = $1::uuid`, uuid, now, remoteIP)
	}
	return u, uuid, nil
}
