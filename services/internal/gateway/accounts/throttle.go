package accounts

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"
)

// Login throttling: failed logins are counted per account and per client
// address, in a fixed window kept in PostgreSQL (shared by replicas). The
// account is the user the typed identifier names, whether a login or an
// e-mail address was typed (one bucket per account); an identifier that
// names nobody is counted under itself, so the lock-out does not reveal
// which accounts exist. Once a key has reached its limit, logins for it are
// refused until the window ends, without checking the password. A
// successful login clears the account's counter, not the address's.
//
// The sign-in page and application passwords keep separate counters (the
// latter's keys start with "app:"), so failing one never locks the other.

// Throttle is the throttling policy.
type Throttle struct {
	Window     time.Duration // length of the counting window
	PerAccount int           // failures per login per window
	PerAddress int           // failures per address per window
	// Prefix keeps the counters of one kind of password apart.
	Prefix string
}

// DefaultThrottle: 5 failures per account or 20 per address in 15 minutes.
var DefaultThrottle = Throttle{Window: 15 * time.Minute, PerAccount: 5, PerAddress: 20}

// DefaultAppThrottle limits failed application passwords: 50 per account
// or 100 per address in 15 minutes. Higher than the sign-in page's, since
// an integration that keeps a revoked password should not lock out its
// account's other clients quickly; credentials verified recently (the
// CredentialCache) pass even while their account is locked.
var DefaultAppThrottle = Throttle{Window: 15 * time.Minute, PerAccount: 50, PerAddress: 100, Prefix: "app:"}

// ThrottledError refuses a password without checking it: its account or
// address failed too often. Wait is how long until the window ends.
type ThrottledError struct{ Wait time.Duration }

func (e *ThrottledError) Error() string { return fmt.Sprintf("throttled for %s", e.Wait) }

// typedKey is the counter of an identifier that names no account.
func typedKey(login string) string { return "login:" + strings.ToLower(strings.TrimSpace(login)) }

// accountKeySQL is the counter key of the identifier $1 as SQL: the
// account's id when a user has it as login (first) or e-mail, else the
// typed identifier ($2, typedKey), under the throttle's prefix ($3).
const accountKeySQL = `$3 || COALESCE((SELECT 'user:' || id FROM users
	WHERE lower(login) = lower($1) OR lower(email) = lower($1)
	ORDER BY lower(login) = lower($1) DESC LIMIT 1), $2)`

// addressKey counts an IPv6 client by its /64: one host usually has a
// whole /64 to pick addresses from.
func addressKey(addr string) string {
	if a, err := netip.ParseAddr(addr); err == nil && a.Is6() && !a.Is4In6() {
		return "addr:" + netip.PrefixFrom(a, 64).Masked().String()
	}
	return "addr:" + addr
}

// Locked reports whether logins for this login or address are refused now,
// and for how long.
func (s *Store) Locked(ctx context.Context, t Throttle, login, addr string) (time.Duration, error) {
	now := s.now()
	if !storable(login) {
		login = ""
	}
	rows, err := s.pool.Query(ctx, `SELECT key, window_start, failures FROM login_failures
		WHERE key = `+accountKeySQL+` OR key = $3 || $4`, login, typedKey(login), t.Prefix, addressKey(addr))
	if err != nil {
		return 0, fmt.Errorf("read login failures: %w", err)
	}
	defer rows.Close()
	var wait time.Duration
	for rows.Next() {
		var key string
		var start time.Time
		var n int
		if err := rows.Scan(&key, &start, &n); err != nil {
			return 0, fmt.Errorf("read login failures: %w", err)
		}
		limit := t.PerAccount
		if strings.HasPrefix(key, t.Prefix+"addr:") {
			limit = t.PerAddress
		}
		if end := start.Add(t.Window); n >= limit && end.After(now) && end.Sub(now) > wait {
			wait = end.Sub(now)
		}
	}
	return wait, rows.Err()
}

// RecordFailure counts one failed login for the account and the address
// (one statement; a window that has ended starts again).
func (s *Store) RecordFailure(ctx context.Context, t Throttle, login, addr string) error {
	now := s.now()
	if !storable(login) {
		login = ""
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO login_failures AS f (key, window_start, failures)
		SELECT k, $5, 1 FROM unnest(ARRAY[`+accountKeySQL+`, $3 || $4]) AS k
		ON CONFLICT (key) DO UPDATE SET
			window_start = CASE WHEN f.window_start + $6 <= $5 THEN $5 ELSE f.window_start END,
			failures     = CASE WHEN f.window_start + $6 <= $5 THEN 1 ELSE f.failures + 1 END`,
		login, typedKey(login), t.Prefix, addressKey(addr), now, t.Window)
	if err != nil {
		return fmt.Errorf("record login failure: %w", err)
	}
	return nil
}

// ClearFailures forgets the sign-in failures of an account after it
// succeeded.
func (s *Store) ClearFailures(ctx context.Context, login string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM login_failures WHERE key = `+accountKeySQL, login, typedKey(login), DefaultThrottle.Prefix); err != nil {
		return fmt.Errorf("clear login failures: %w", err)
	}
	return nil
}

// throttledAuthenticate is authenticatePassword behind the application
// password throttle: a locked account or address is refused unchecked
// (ThrottledError), and every failure is counted.
func (s *Store) throttledAuthenticate(ctx context.Context, login, password, remoteIP string) (User, string, time.Time, error) {
	t := s.appThrottle
	if t.Window <= 0 {
		return s.authenticatePassword(ctx, login, password, remoteIP)
	}
	wait, err := s.Locked(ctx, t, login, remoteIP)
	if err != nil {
		return User{}, "", time.Time{}, err
	}
	if wait > 0 {
		return User{}, "", time.Time{}, &ThrottledError{Wait: wait}
	}
	u, uuid, due, err := s.authenticatePassword(ctx, login, password, remoteIP)
	var ae *AuthError
	if errors.As(err, &ae) {
		if rerr := s.RecordFailure(ctx, t, login, remoteIP); rerr != nil {
			return User{}, "", time.Time{}, rerr
		}
	}
	return u, uuid, due, err
}

// SetAppThrottle replaces the application-password throttle (a zero
// Window switches it off).
func (s *Store) SetAppThrottle(t Throttle) { s.appThrottle = t }

// SetClock replaces the store's clock (tests of expiry and throttling).
func (s *Store) SetClock(now func() time.Time) { s.now = now }
