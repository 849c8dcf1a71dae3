package accounts

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"time"
)

// Login throttling: failed logins are counted per typed login (whether or
// not it exists, so the lock-out does not reveal accounts) and per client
// address, in a fixed window kept in PostgreSQL (shared by replicas). Once a
// key has reached its limit, logins for it are refused until the window
// ends, without checking the password. A successful login clears the
// account's counter, not the address's.

// Throttle is the throttling policy.
type Throttle struct {
	Window     time.Duration // length of the counting window
	PerAccount int           // failures per login per window
	PerAddress int           // failures per address per window
}

// DefaultThrottle: 5 failures per account or 20 per address in 15 minutes.
var DefaultThrottle = Throttle{Window: 15 * time.Minute, PerAccount: 5, PerAddress: 20}

func accountKey(login string) string { return "login:" + strings.ToLower(strings.TrimSpace(login)) }

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
	rows, err := s.pool.Query(ctx, `SELECT key, window_start, failures FROM login_failures WHERE key = ANY($1)`,
		[]string{accountKey(login), addressKey(addr)})
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
		if strings.HasPrefix(key, "addr:") {
			limit = t.PerAddress
		}
		if end := start.Add(t.Window); n >= limit && end.After(now) && end.Sub(now) > wait {
			wait = end.Sub(now)
		}
	}
	return wait, rows.Err()
}

// RecordFailure counts one failed login for the login and the address (one
// statement; a window that has ended starts again).
func (s *Store) RecordFailure(ctx context.Context, t Throttle, login, addr string) error {
	now := s.now()
	_, err := s.pool.Exec(ctx, `INSERT INTO login_failures AS f (key, window_start, failures)
		SELECT k, $2, 1 FROM unnest($1::text[]) AS k
		ON CONFLICT (key) DO UPDATE SET
			window_start = CASE WHEN f.window_start + $3 <= $2 THEN $2 ELSE f.window_start END,
			failures     = CASE WHEN f.window_start + $3 <= $2 THEN 1 ELSE f.failures + 1 END`,
		[]string{accountKey(login), addressKey(addr)}, now, t.Window)
	if err != nil {
		return fmt.Errorf("record login failure: %w", err)
	}
	return nil
}

// ClearFailures forgets the failures of a login after it succeeded.
func (s *Store) ClearFailures(ctx context.Context, login string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM login_failures WHERE key = $1`, accountKey(login)); err != nil {
		return fmt.Errorf("clear login failures: %w", err)
	}
	return nil
}

// SetClock replaces the store's clock (tests of expiry and throttling).
func (s *Store) SetClock(now func() time.Time) { s.now = now }
