package accounts

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"time"

	"siteplane.dev/services/internal/platform/identity"
)

// Session is a browser session opened by the login page. The token is only
// ever in the cookie; the store keeps its SHA-256 (TokenHash), which also
// binds REST nonces and form tokens to the session.
type Session struct {
	TokenHash []byte
	User      User
	Expires   time.Time
}

// HashToken is the stored form of a session token.
func HashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// CreateSession opens a session for the user and returns its token (32
// random bytes, base64url) — the cookie value.
func (s *Store) CreateSession(ctx context.Context, userID int64, ttl time.Duration, ip string) (string, Session, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", Session{}, fmt.Errorf("session token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	expires := s.now().Add(ttl)
	// Expired rows of anyone are swept on the way (bounded work: indexed).
	if _, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE expires_at < $1`, s.now()); err != nil {
		return "", Session{}, fmt.Errorf("sweep sessions: %w", err)
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO sessions (token_hash, user_id, expires_at, ip) VALUES ($1, $2, $3, $4)`,
		HashToken(token), userID, expires, ip); err != nil {
		return "", Session{}, fmt.Errorf("insert session: %w", err)
	}
	u, err := s.UserByID(ctx, userID)
	if err != nil {
		return "", Session{}, fmt.Errorf("session user: %w", err)
	}
	return token, Session{TokenHash: HashToken(token), User: u, Expires: expires}, nil
}

// SessionByToken returns the live session of a cookie token, or ErrNotFound
// (unknown, expired, or its user deleted).
func (s *Store) SessionByToken(ctx context.Context, token string) (Session, error) {
	if token == "" || len(token) > 128 {
		return Session{}, ErrNotFound
	}
	var sess Session
	var role string
	u := &sess.User
	err := s.pool.QueryRow(ctx, `SELECT s.token_hash, s.expires_at, u.id, u.login, u.email, u.slug, u.display_name, u.first_name,
			u.last_name, u.nickname, u.url, u.description, u.locale, u.role, u.registered_at
		FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND s.expires_at > $2`,
		HashToken(token), s.now()).Scan(&sess.TokenHash, &sess.Expires, &u.ID, &u.Login, &u.Email, &u.Slug, &u.DisplayName,
		&u.FirstName, &u.LastName, &u.Nickname, &u.URL, &u.Description, &u.Locale, &role, &u.Registered)
	if isNoRows(err) {
		return Session{}, ErrNotFound
	}
	if err != nil {
		return Session{}, fmt.Errorf("look up session: %w", err)
	}
	u.Role = identity.Role(role)
	return sess, nil
}

// DeleteSession ends the session of a cookie token (logout). Unknown tokens
// are not an error.
func (s *Store) DeleteSession(ctx context.Context, token string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, HashToken(token)); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}
