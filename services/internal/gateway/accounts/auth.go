package accounts

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"time"

	"siteplane.dev/services/internal/platform/identity"
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
	u, uuid, _, err := s.throttledAuthenticate(ctx, login, password, remoteIP)
	return u, uuid, err
}

// authenticatePassword is AuthenticatePassword that also says until when
// the password's usage needs no recording (its last_used plus the minute):
// a CredentialCache may answer for it until then without skipping a write.
func (s *Store) authenticatePassword(ctx context.Context, login, password, remoteIP string) (User, string, time.Time, error) {
	// Success path: one indexed query by the keyed hash. The password
	// identifies the row; the name must be that user's login or email.
	if !storable(login) {
		return User{}, "", time.Time{}, ErrUnknownUsername
	}
	var u User
	var role, uuid string
	var lastUsed *time.Time
	err := s.pool.QueryRow(ctx, `SELECT u.id, u.login, u.email, u.slug, u.display_name, u.first_name, u.last_name, u.nickname,
			u.url, u.description, u.locale, u.role, u.registered_at, ap.uuid::text, ap.last_used
		FROM application_passwords ap JOIN users u ON u.id = ap.user_id
		WHERE ap.hash = $1 AND (lower(u.login) = lower($2) OR lower(u.email) = lower($2))`,
		s.hasher.Hash(password), login).Scan(&u.ID, &u.Login, &u.Email, &u.Slug, &u.DisplayName, &u.FirstName, &u.LastName,
		&u.Nickname, &u.URL, &u.Description, &u.Locale, &role, &u.Registered, &uuid, &lastUsed)
	if err != nil && !isNoRows(err) {
		return User{}, "", time.Time{}, err
	}
	if err != nil {
		// Failure path: say which part was wrong, as WordPress does.
		_, lerr := s.UserByLogin(ctx, login)
		if errors.Is(lerr, ErrNotFound) && strings.Contains(login, "@") {
			_, lerr = s.UserByEmail(ctx, login)
		}
		switch {
		case errors.Is(lerr, ErrNotFound) && ValidEmail(login):
			return User{}, "", time.Time{}, ErrUnknownEmail
		case errors.Is(lerr, ErrNotFound):
			return User{}, "", time.Time{}, ErrUnknownUsername
		case lerr != nil:
			return User{}, "", time.Time{}, lerr
		}
		return User{}, "", time.Time{}, ErrBadPassword
	}
	u.Role = identity.Role(role)
	now := s.now()
	if lastUsed == nil || now.Sub(*lastUsed) > time.Minute {
		// Best effort: a failed bookkeeping write must not fail the request.
		_, _ = s.pool.Exec(ctx, `UPDATE application_passwords SET last_used = $2, last_ip = $3 WHERE uuid = $1::uuid`, uuid, now, remoteIP)
		lastUsed = &now
	}
	return u, uuid, lastUsed.Add(time.Minute), nil
}
